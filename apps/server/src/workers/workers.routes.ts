import { workerCalls } from '@rehearse/contract';
import type { ExecutionEngine } from '../executions/execution-engine.js';
import type { CallRoute } from '../http/call-router.js';
import { jobHolderId, type WorkerTokens } from './worker-tokens.js';

/** The agent protocol (DESIGN §6): every call carries a worker token, checked before the engine runs. */
export function registerWorkerRoutes(route: CallRoute, tokens: WorkerTokens, engine: ExecutionEngine): void {
  route(workerCalls.claim, async ({ request, body }) => {
    const token = await tokens.authenticate(request.headers.authorization);
    await tokens.seen(token.id, body.workerId, false);
    const job = await engine.claim(jobHolderId(token.id, body.workerId), body.waitMs);
    if (job) await tokens.seen(token.id, body.workerId, true);
    return { status: true, job };
  });
  route(workerCalls.heartbeat, async ({ request, body }) => {
    const token = await tokens.authenticate(request.headers.authorization);
    await tokens.seen(token.id, body.workerId, body.jobIds.length > 0);
    return { status: true, stop: await engine.heartbeat(jobHolderId(token.id, body.workerId), body.jobIds) };
  });
  route(workerCalls.finish, async ({ request, body }) => {
    const token = await tokens.authenticate(request.headers.authorization);
    const next = await engine.finish(jobHolderId(token.id, body.workerId), body.jobId, body.outcome, body.message, body.next ?? false);
    await tokens.seen(token.id, body.workerId, next !== null);
    return body.next ? { status: true, job: next } : { status: true };
  });
}
