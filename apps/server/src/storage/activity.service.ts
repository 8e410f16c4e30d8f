import { Messages, type AdminActivity } from '@rehearse/contract';
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

  /**
   * Audits one instance administration action: who (null for `npm run admin` on the server), what,
   * on what, with which values. Only the server writes these; POST /log cannot make one.
   */
  async audit(actorId: string | null, action: string, target: string, details: Record<string, unknown>): Promise<void> {
    await this.repo.insertAdminEntry(actorId, { action, target, details, via: actorId ? 'web' : 'cli' });
  }

  /** The latest administration actions, newest first. */
  async latestAudit(limit: number): Promise<AdminActivity[]> {
    const rows = await this.repo.latestAdminEntries(limit);
    return rows.map((row) => {
      const entry = row.entry as { action?: unknown; target?: unknown; details?: unknown };
      return {
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        action: typeof entry.action === 'string' ? entry.action : '',
        target: typeof entry.target === 'string' ? entry.target : '',
        details: entry.details && typeof entry.details === 'object' ? (entry.details as Record<string, unknown>) : {},
      };
    });
  }

  /** Records an event; a project named in it must be one of the caller's. */
  async recordEvent(userId: string, event: string, projectId: string | undefined): Promise<void> {
    if (projectId && !(await this.projects.roleOf(projectId, userId))) throw forbidden(Messages.notAMember);
    await this.repo.insertEvent(userId, event, projectId ?? null);
  }
}
