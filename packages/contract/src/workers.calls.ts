import { z } from 'zod';
import { defineCall, Ok } from './call.js';
import { CommitId } from './workspace.calls.js';

/** Worker ids are chosen by the worker process (host, pid and a random suffix). */
const WorkerId = z.string().trim().min(3).max(200);

/** One scenario of an execution, as a worker receives it (DESIGN §6, agent model). */
export const WorkerJob = z.object({
  jobId: z.uuid(),
  projectId: z.uuid(),
  executionId: z.uuid(),
  /** The execution's run report; the worker appends this scenario's test case to it. */
  runId: z.uuid(),
  branch: z.string(),
  /**
   * The commit the branch pointed at when the execution started: every scenario of the run uses
   * exactly this workspace, whatever is pushed meanwhile. Null for runs started before commits
   * were pinned; the worker then takes the branch's head.
   */
  commit: CommitId.nullable(),
  /** Environment file inside the workspace, e.g. environments/default.json. */
  envFile: z.string(),
  featurePath: z.string(),
  scenarioName: z.string(),
  browser: z.string(),
  viewport: z.string(),
  /** A short-lived access key of the project, deleted when the job ends. */
  accessToken: z.string(),
});
export type WorkerJob = z.infer<typeof WorkerJob>;

/**
 * Calls of worker agents. They authenticate with a worker token (`rhw_…`, created by
 * `npm run admin -- create-worker-token`) as the bearer, checked by the workers service: no
 * session or access key holds one, so the contract marks them public.
 */
export const workerCalls = {
  claim: defineCall({
    method: 'POST',
    path: '/api/workers/claim',
    summary: 'Long-poll for the next scenario a worker thread may run (null when none came in time)',
    access: 'public',
    body: z.object({ workerId: WorkerId, waitMs: z.number().int().min(0).max(30_000).default(20_000) }),
    response: Ok.extend({ job: WorkerJob.nullable() }),
    example: { body: { workerId: 'example-worker', waitMs: 0 } },
  }),
  heartbeat: defineCall({
    method: 'POST',
    path: '/api/workers/heartbeat',
    summary: 'A worker still runs these jobs; answers the ones it must stop (halted executions)',
    access: 'public',
    body: z.object({ workerId: WorkerId, jobIds: z.array(z.uuid()).max(64) }),
    response: Ok.extend({ stop: z.array(z.string()) }),
    example: { body: { workerId: 'example-worker', jobIds: [] } },
  }),
  finish: defineCall({
    method: 'POST',
    path: '/api/workers/finish',
    summary:
      'A worker finished a job: passed or failed (its test case is already appended), or error (infrastructure: retried, never a failed scenario)',
    access: 'public',
    body: z.object({
      workerId: WorkerId,
      jobId: z.uuid(),
      outcome: z.enum(['passed', 'failed', 'error']),
      message: z.string().max(2000).optional(),
      /**
       * Also claim this thread's next job, before threads waiting in a claim are woken: the thread
       * that freed the slot keeps the warm runner of the run whose next job it freed.
       */
      next: z.boolean().optional(),
    }),
    /** `job` answers `next`: the thread's next job, or null when none was ready (it claims as usual). */
    response: Ok.extend({ job: WorkerJob.nullable().optional() }),
    example: { body: { workerId: 'example-worker', jobId: '00000000-0000-4000-8000-000000000001', outcome: 'error' } },
  }),
} as const;
