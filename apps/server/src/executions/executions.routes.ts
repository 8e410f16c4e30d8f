import { executionCalls as calls, Limits, Messages } from '@rehearse/contract';
import type { AccessKeysService } from '../auth/access-keys.service.js';
import type { Caller, ProjectAccess } from '../http/caller.js';
import { type AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { CallRoute } from '../http/call-router.js';
import { mappingDomainErrors } from '../http/domain-errors.js';
import { ExecutionRefused, type ExecutionRefusal } from './execution-errors.js';
import type { ExecutionEngine } from './execution-engine.js';
import type { ExecutionsService } from './executions.service.js';
import { runInstructions } from './run-instructions.js';

/** Each refusal of the planner or the engine as the status and catalogue sentence the spec gives it. */
const REFUSALS: Record<ExecutionRefusal, (detail: string) => AppError> = {
  'not-found': () => notFound(Messages.executionNotFound),
  running: () => conflict(Messages.executionRunning),
  'starter-not-member': () => forbidden(Messages.notAMember),
  'no-threads': () => forbidden(Messages.noThreads),
  'insufficient-threads': () => badRequest(Messages.insufficientThreads),
  'thread-count-too-high': (max) => badRequest(`${Messages.threadCountTooHigh}${max}`),
  'unknown-tag': (tag) => badRequest(`${Messages.unknownTag}${tag}`),
  'no-scenarios': () => badRequest(Messages.executionNoScenarios),
  'schedule-required': () => badRequest(Messages.scheduleRequired),
};

function refusalAsHttp(error: unknown): AppError | undefined {
  return error instanceof ExecutionRefused ? REFUSALS[error.reason](error.detail ?? '') : undefined;
}

export function registerExecutionRoutes(
  callRoute: CallRoute,
  executions: ExecutionsService,
  engine: ExecutionEngine,
  deps: {
    accessKeys: AccessKeysService;
    publicUrl: string;
    /** The project's environment names (without .json) at a branch. */
    environmentNames: (caller: Caller, access: ProjectAccess, branch: string) => Promise<string[]>;
    /** The playwright-core version the served runner package pins. */
    playwrightVersion: () => string;
  },
): void {
  const route = mappingDomainErrors(callRoute, refusalAsHttp);
  // Every change reaches the project's list subscribers (crudUpdate).
  const changed = async <T extends { id: string; projectId: string }>(execution: T): Promise<T> => {
    await engine.publish(execution.projectId, execution.id);
    return execution;
  };
  route(calls.create, async ({ caller, access, body }) => ({
    status: true,
    execution: await changed(await executions.create(caller, access, body)),
  }));
  route(calls.update, async ({ caller, access, params, query, body }) => ({
    status: true,
    updated: true,
    execution: await changed(await executions.update(caller, access, params.id, body, query.wasScheduleUpdated === 'true')),
  }));
  route(calls.get, async ({ params }) => ({ status: true, execution: await executions.get(params.id) }));
  route(calls.list, async ({ access }) => ({ status: true, executions: await executions.list(access.project.id) }));
  route(calls.remove, async ({ access, params }) => {
    await executions.remove(params.id);
    await engine.publish(access.project.id, params.id);
    return { status: true };
  });
  route(calls.schedule, async ({ params, body }) => ({
    status: true,
    execution: await changed(await executions.schedule(params.id, body.schedule)),
  }));
  route(calls.deschedule, async ({ params }) => ({ status: true, execution: await changed(await executions.deschedule(params.id)) }));
  route(calls.run, async ({ caller, params }) => {
    const { runId } = await engine.start(params.id, 'manual', caller);
    return { status: true, runId, execution: await executions.get(params.id) };
  });
  route(calls.halt, async ({ params }) => {
    await engine.halt(params.id);
    return { status: true, execution: await executions.get(params.id) };
  });
  route(calls.reportLink, async ({ params }) => ({ status: true, ...(await engine.reportLink(params.id)) }));
  route(calls.runInstructions, async ({ caller, access, query }) => {
    // Keys made for one job or one recorder launch come and go; they are nobody's CI key.
    const [first] = (await deps.accessKeys.list(access.project.id)).filter(
      (key) => !/^(Execution worker|Run scenario|Recorder launch) /.test(key.name),
    );
    const accessKeyName = first?.name ?? null;
    const branch = query.branch?.trim() || Limits.defaultBranch;
    const environments = await deps.environmentNames(caller, access, branch);
    const asked = query.env?.trim();
    // Never a made-up environment: the one picked must exist, and without a pick the first one is used.
    if (asked && !environments.includes(asked)) throw badRequest(Messages.instructionsUnknownEnvironment);
    const env = asked ?? environments[0] ?? null;
    const scenario = query.feature && query.scenario ? { feature: query.feature, name: query.scenario } : undefined;
    return {
      status: true,
      accessKeyName,
      env,
      environments,
      instructions: runInstructions({
        serverUrl: deps.publicUrl,
        projectId: access.project.id,
        accessKeyName,
        env,
        branch,
        playwrightVersion: deps.playwrightVersion(),
        scenario,
      }),
    };
  });
  route(calls.freeThreadCount, async ({ access }) => ({
    status: true,
    freeThreads: await executions.freeThreads(access),
    maxExecutionThreads: access.project.maxExecutionThreads,
  }));
}
