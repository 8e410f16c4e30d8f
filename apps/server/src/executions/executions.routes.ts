import { executionCalls as calls } from '@rehearse/contract';
import type { CallRoute } from '../http/call-router.js';
import type { ExecutionsService } from './executions.service.js';

export function registerExecutionRoutes(route: CallRoute, executions: ExecutionsService): void {
  route(calls.create, async ({ caller, access, body }) => ({ status: true, execution: await executions.create(caller, access, body) }));
  route(calls.update, async ({ caller, access, params, query, body }) => ({
    status: true,
    updated: true,
    execution: await executions.update(caller, access, params.id, body, query.wasScheduleUpdated === 'true'),
  }));
  route(calls.get, async ({ params }) => ({ status: true, execution: await executions.get(params.id) }));
  route(calls.list, async ({ access }) => ({ status: true, executions: await executions.list(access.project.id) }));
  route(calls.remove, async ({ params }) => {
    await executions.remove(params.id);
    return { status: true };
  });
  route(calls.schedule, async ({ params, body }) => ({ status: true, execution: await executions.schedule(params.id, body.schedule) }));
  route(calls.deschedule, async ({ params }) => ({ status: true, execution: await executions.deschedule(params.id) }));
  route(calls.freeThreadCount, async ({ access }) => ({
    status: true,
    freeThreads: await executions.freeThreads(access),
    maxExecutionThreads: access.project.maxExecutionThreads,
  }));
}
