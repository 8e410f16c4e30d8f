import { aiCalls, environmentDisplayName, environmentFileName, Messages } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { Caller, ProjectAccess } from '../http/caller.js';
import { notFound } from '../http/errors.js';
import type { RunReportsService } from '../runs/run-reports.service.js';
import type { ScenarioJobs } from '../runs/scenario-jobs.js';
import type { EnvironmentsService } from '../workspace/environments.service.js';
import type { WorkspaceService } from '../workspace/workspace.service.js';
import type { AiService } from './ai.service.js';
import type { OversightService } from './oversight.service.js';

/** How long scenario creation waits for the validation run it was asked for. */
const VALIDATION_WAIT_MS = 5 * 60_000;

export function registerAiRoutes(
  route: CallRoute,
  s: {
    ai: AiService;
    oversight: OversightService;
    runReports: RunReportsService;
    workspaces: WorkspaceService;
    environments: EnvironmentsService;
    jobs: ScenarioJobs;
  },
): void {
  /**
   * The project's application map and its environments' base URLs: the map keeps a page's whole
   * path, a scenario opens it below its environment's base URL, and a site under none is another's.
   */
  const appOf = async (caller: Caller, access: ProjectAccess) => {
    const { allEnv } = await s.environments.list(await s.workspaces.open(caller, access));
    return { memory: await s.runReports.memory(access.project.id), baseUrls: allEnv.map((env) => env.data.baseUrl) };
  };
  route(aiCalls.scenarioIdeas, async ({ caller, access, body }) => {
    const { memory, baseUrls } = await appOf(caller, access);
    return { status: true, ...(await s.ai.ideas(memory, body.description, baseUrls)) };
  });
  route(aiCalls.scenarioReading, async ({ caller, access, body }) => {
    const { memory, baseUrls } = await appOf(caller, access);
    return { status: true, lines: await s.ai.readFlow(body.flow, memory, baseUrls) };
  });
  route(aiCalls.scenarioCreation, async ({ caller, access, body }) => {
    const ws = await s.workspaces.open(caller, access, body.branch);
    const environment = body.validateOnEnvironment?.trim();
    // The environment is checked before the scenario is written: nothing half-done on a bad name.
    if (environment) {
      const snapshot = await s.workspaces.read(ws);
      if ((await snapshot.readText(`environments/${environmentFileName(environmentDisplayName(environment))}`)) === null)
        throw notFound(Messages.environmentNotFound);
    }
    const created = await s.ai.createScenario(ws, body, await appOf(caller, access));
    let reportLink: string | null = null;
    const jobs = s.jobs;
    if (environment) {
      // "Validated by running them once": the scenario runs as a "Run scenario" job would.
      const queued = await jobs.enqueue(caller, access, {
        branch: ws.branch,
        featureName: created.featureName,
        scenarioName: created.scenarioName,
        environment,
      });
      reportLink = (await jobs.finished(queued.id, VALIDATION_WAIT_MS)).reportLink;
    }
    return { status: true, ...created, reportLink };
  });
  route(aiCalls.generateStepCode, async ({ body }) => ({ status: true, result: await s.ai.generateStepCode(body) }));
  route(aiCalls.generateStep, async ({ caller, access, body }) => ({
    status: true,
    ...(await s.ai.generateStep(await s.workspaces.open(caller, access, body.branch), body.stepText)),
  }));
  route(aiCalls.oversightList, async ({ access }) => ({ status: true, items: await s.oversight.list(access.project.id) }));
  route(aiCalls.archiveOversight, async ({ access, body }) => {
    await s.oversight.archive(access.project.id, body.scenario_id);
    return { status: true };
  });
  route(aiCalls.acceptOversight, async ({ caller, access, body }) => ({
    status: true,
    commit: await s.oversight.accept(caller, access, body.scenario_id, body.branch),
  }));
}
