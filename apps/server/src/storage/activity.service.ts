import { Messages } from '@rehearse/contract';
import type { ProjectsRepo } from '../auth/projects.repo.js';
import { badRequest, forbidden } from '../http/errors.js';
import type { ActivityRepo } from './activity.repo.js';

/** Entries bigger than this are refused: the activity log is for short UI events, not payloads. */
const MAX_ENTRY_BYTES = 4096;

/** Activity log entries and product events sent by the web app. */
export class ActivityService {
  constructor(
    private readonly repo: ActivityRepo,
    private readonly projects: ProjectsRepo,
  ) {}

  async storeLog(userId: string, entries: Record<string, unknown>[]): Promise<number> {
    if (entries.some((entry) => JSON.stringify(entry).length > MAX_ENTRY_BYTES)) {
      throw badRequest(`Each log entry must be at most ${MAX_ENTRY_BYTES} bytes.`);
    }
    return this.repo.insertLogEntries(userId, entries);
  }

  /** Writes what a person did with privileged access (who, what, in which project) to the activity log. */
  async audit(userId: string, projectId: string, action: string, details: Record<string, string>): Promise<void> {
    await this.repo.insertLogEntries(userId, [{ audit: action, projectId, ...details, at: new Date().toISOString() }]);
  }

  /** Records an event; a project named in it must be one of the caller's. */
  async recordEvent(userId: string, event: string, projectId: string | undefined): Promise<void> {
    if (projectId && !(await this.projects.roleOf(projectId, userId))) throw forbidden(Messages.notAMember);
    await this.repo.insertEvent(userId, event, projectId ?? null);
  }
}
