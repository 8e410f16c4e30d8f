import { ARTIFACT_MAX_BYTES, Messages, retentionCalls, runnerCalls, runsCalls, scenarioJobCalls } from '@rehearse/contract';
import type { ScenarioJobs } from './scenario-jobs.js';
import type { CallRoute } from '../http/call-router.js';
import { forbidden } from '../http/errors.js';
import type { TestDataService } from '../workspace/test-data.service.js';
import type { WorkspaceService } from '../workspace/workspace.service.js';
import type { RetentionService } from './retention.service.js';
import type { RunArtifactsService } from './run-artifacts.service.js';
import type { RunReportsService } from './run-reports.service.js';
import type { RunUploadsService } from './run-uploads.service.js';

export function registerRunsRoutes(
  route: CallRoute,
  s: {
    uploads: RunUploadsService;
    reports: RunReportsService;
    artifacts: RunArtifactsService;
    testData: TestDataService;
    workspaces: WorkspaceService;
  },
): void {
  route(runnerCalls.uploadArtifact, async ({ access, body }) => ({
    status: true,
    id: await s.uploads.uploadArtifact(access.project.id, body.contentType, body.data, ARTIFACT_MAX_BYTES),
  }));
  route(runnerCalls.uploadRun, async ({ caller, access, body }) => ({ status: true, ...(await s.uploads.upload(caller, access, body)) }));
  route(runnerCalls.runTestData, async ({ caller, access, body }) => {
    // Plain secret values go to runners only, which authenticate with an access key.
    if (caller.kind !== 'accessKey') throw forbidden(Messages.runTestDataNeedsKey);
    const ws = await s.workspaces.open(caller, access, body.branch);
    const testData = (await s.testData.resolveForRun(ws, await s.workspaces.readAt(ws, body.commit), body.environment)) as {
      key: string;
      value: string;
      DataType: 'string' | 'secret' | 'totp';
    }[];
    // A member's own key runs tests too, but plain secrets go only to keys an admin (or the server) made.
    if (!caller.readsSecrets && testData.some((row) => row.DataType !== 'string')) throw forbidden(Messages.accessKeySecretsAdminOnly);
    return { status: true, testData };
  });

  route(runnerCalls.keyProject, async ({ caller }) => {
    if (caller.kind !== 'accessKey') throw forbidden(Messages.keyProjectNeedsKey);
    return { status: true, projectId: caller.projectId };
  });

  route(runsCalls.getDetails, async ({ access, body }) => ({
    status: true,
    projectSummary: await s.reports.list(access.project.id, body),
  }));
  route(runsCalls.dashboardDetails, async ({ access }) => ({ status: true, ...(await s.reports.dashboard(access.project.id)) }));
  route(runsCalls.getRun, async ({ caller, query }) => ({ status: true, run: await s.reports.run(caller, query.runId) }));
  route(runsCalls.getScenario, async ({ caller, query }) => ({
    status: true,
    scenario: await s.reports.scenario(caller, query.scenarioId),
  }));
  route(runsCalls.runScreenshot, async ({ access, params }) => ({
    status: true,
    ...(await s.artifacts.screenshot(access.project.id, params.testCaseId, params.screenshotId, params.runId)),
  }));
  route(runsCalls.scenarioRunScreenshot, async ({ access, params }) => ({
    status: true,
    ...(await s.artifacts.screenshot(access.project.id, params.testCaseId, params.screenshotId, params.runId)),
  }));
  route(runsCalls.scenarioScreenshot, async ({ access, params }) => ({
    status: true,
    ...(await s.artifacts.screenshot(access.project.id, params.testCaseId, params.screenshotId)),
  }));
  route(runsCalls.traceLink, async ({ access, query }) => ({
    status: true,
    ...(await s.artifacts.traceLink(access.project.id, query.testCaseId)),
  }));
  route(runsCalls.traceFile, async ({ query, reply }) =>
    reply
      .type('application/zip')
      .header('content-disposition', 'attachment; filename="trace.zip"')
      // The link is a credential: nothing on the way keeps the answer.
      .header('cache-control', 'no-store')
      .send(await s.artifacts.traceFile(query.link)),
  );
  route(runsCalls.addComment, async ({ caller, access, body }) => ({
    status: true,
    comment: await s.reports.addComment(caller, access, body.testCaseId, body.content),
  }));
  route(runsCalls.updateComment, async ({ caller, params, body }) => ({
    status: true,
    comment: await s.reports.updateComment(caller, params.id, body.content),
  }));
  route(runsCalls.deleteComment, async ({ caller, params }) => {
    await s.reports.deleteComment(caller, params.id);
    return { status: true };
  });
  route(runsCalls.applicationMemory, async ({ access }) => ({ status: true, memory: await s.reports.memory(access.project.id) }));
}

export function registerRetentionRoutes(route: CallRoute, retention: RetentionService): void {
  route(retentionCalls.getRetention, async ({ access }) => ({ status: true, ...(await retention.overview(access)) }));
  route(retentionCalls.previewRetention, async ({ access, body }) => ({
    status: true,
    wouldDelete: await retention.preview(access, { keepDays: body.keepDays, keepRuns: body.keepRuns }),
  }));
  route(retentionCalls.setRetention, async ({ access, body }) => ({
    status: true,
    ...(await retention.save(access, { keepDays: body.keepDays, keepRuns: body.keepRuns })),
  }));
}

export function registerScenarioJobRoutes(route: CallRoute, jobs: ScenarioJobs): void {
  route(scenarioJobCalls.runScenario, async ({ caller, access, body }) => ({
    status: true,
    job: await jobs.enqueue(caller, access, body),
  }));
  route(scenarioJobCalls.warmUp, async ({ caller, access, body }) => ({
    status: true,
    runner: await jobs.warmUp(caller, access, body.branch),
  }));
  route(scenarioJobCalls.scenarioJob, async ({ params }) => ({ status: true, job: await jobs.get(params.jobId) }));
}
