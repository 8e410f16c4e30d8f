/**
 * Why the executions domain refused a request. The route edge (executions.routes.ts) answers each
 * with its status and the catalogue's sentence; the scheduler logs it and ends the fired slot's job with it.
 */
export type ExecutionRefusal =
  | 'not-found'
  | 'running'
  | 'starter-not-member'
  | 'no-threads'
  | 'insufficient-threads'
  | 'thread-count-too-high'
  | 'unknown-tag'
  | 'no-scenarios'
  | 'schedule-required';

/** The planner or the engine refused: nothing was changed. `detail` is the value the sentence names (a limit, a tag). */
export class ExecutionRefused extends Error {
  constructor(
    readonly reason: ExecutionRefusal,
    readonly detail?: string,
  ) {
    super(`execution refused: ${reason}${detail === undefined ? '' : ` (${detail})`}`);
    this.name = 'ExecutionRefused';
  }
}
