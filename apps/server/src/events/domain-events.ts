import type { RecordedCommand, RecordedPage, RunReport } from '@rehearse/contract';
import type { Caller, ProjectAccess } from '../http/caller.js';

/** The two kinds of queued work: an execution's scenario, and a "Run scenario" click. */
export type JobKind = 'execution' | 'scenario';
/** How a job that ran ended. */
export type JobOutcome = 'passed' | 'failed' | 'error' | 'skipped' | 'cancelled';

/**
 * What happens in one domain that others react to. A service says what happened; the composition
 * root (app.ts) decides who hears it, so no service holds a reference to the ones that listen.
 */
export interface DomainEvents {
  /** A run report was stored (once: a retried upload with the same key is the same run). */
  runUploaded: { caller: Caller; access: ProjectAccess; runId: string; branch: string; report: RunReport };
  /** A recording was published into the project's workspace. */
  recordingPublished: { projectId: string; featureName: string; scenarioName: string; pages: RecordedPage[]; commands: RecordedCommand[] };
  /** A workspace branch moved to a new commit by a write of this server (a save, a publish). */
  workspaceCommitted: { projectId: string; branch: string; commit: string };
  /** A queued job left the queue: `queuedAt` is when it was created, `claimedAt` when a worker took it. */
  jobClaimed: { kind: JobKind; queuedAt: Date; claimedAt: Date };
  /** A job that ran ended. */
  jobEnded: { kind: JobKind; outcome: JobOutcome; startedAt: Date | null; finishedAt: Date };
  /** An account was created: by the sign-up form or by a first single sign-on. */
  accountCreated: { userId: string; email: string; instanceAdmin: boolean; via: 'sign-up form' | 'single sign-on' };
  /** A session ended by logging out. */
  sessionEnded: { tokenHash: string };
  /** An access key was revoked. */
  accessKeyRevoked: { accessKeyId: string };
  /** A member left a project, or was removed from it. */
  memberRemoved: { projectId: string; userId: string };
}

type Listener<Event> = (event: Event) => void | Promise<void>;

/**
 * A small typed event bus. Listeners run in the order they subscribed and are awaited; a
 * listener's failure is logged and never fails the emitter, since what it reports already happened.
 */
export class DomainEventBus {
  private readonly listeners: { [Name in keyof DomainEvents]?: Listener<DomainEvents[Name]>[] } = {};

  constructor(private readonly log: { error(details: object, message: string): void }) {}

  on<Name extends keyof DomainEvents>(name: Name, listener: Listener<DomainEvents[Name]>): void {
    const listeners = (this.listeners[name] ??= []) as Listener<DomainEvents[Name]>[];
    listeners.push(listener);
  }

  async emit<Name extends keyof DomainEvents>(name: Name, event: DomainEvents[Name]): Promise<void> {
    for (const listener of this.listeners[name] ?? []) {
      try {
        await listener(event);
      } catch (error) {
        this.log.error({ err: error, event: name }, 'a listener of a domain event failed');
      }
    }
  }
}
