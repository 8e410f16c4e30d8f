import { Messages } from '@rehearse/contract';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import type { Settings } from '../env.js';
import { decoyPasswordHash, digestToken, hashPassword, newToken, TokenPrefix, verifyPassword } from '../crypto/tokens.js';
import { conflict, unauthorized } from '../http/errors.js';
import type { AccessKeysRepo } from './access-keys.repo.js';
import type { Caller } from './caller.js';
import type { ProjectsRepo } from './projects.repo.js';
import type { SessionsRepo } from './sessions.repo.js';
import type { UsersRepo } from './users.repo.js';
import { newProjectValues } from './projects.service.js';

export interface SignupInput {
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  companyName?: string | undefined;
  country?: string | undefined;
  phone?: string | undefined;
}

/** Writing lastUsedAt on every request would turn each read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

/** Accounts, sign-in and the resolution of a bearer token into a Caller. */
export class SessionService {
  constructor(
    private readonly database: Database,
    private readonly settings: Pick<Settings, 'SESSION_IDLE_HOURS' | 'SESSION_MAX_DAYS' | 'DEFAULT_ALLOWED_PROJECTS'> & {
      demoShopUrl: string;
    },
    private readonly users: UsersRepo,
    private readonly sessions: SessionsRepo,
    private readonly projects: ProjectsRepo,
    private readonly accessKeys: AccessKeysRepo,
  ) {}

  /** Creates the user, a Default project pointing at the demo shop, and a session, all or nothing. */
  async signup(input: SignupInput): Promise<{ token: string; projectId: string }> {
    const passwordHash = await hashPassword(input.password);
    const token = newToken(TokenPrefix.session);
    try {
      const projectId = await this.database.db.transaction(async (tx) => {
        const user = await this.users.insert(
          {
            email: input.email,
            passwordHash,
            firstName: input.firstname,
            lastName: input.lastname,
            companyName: input.companyName ?? null,
            country: input.country ?? null,
            phone: input.phone ?? null,
            allowedProjectsCount: this.settings.DEFAULT_ALLOWED_PROJECTS,
          },
          tx,
        );
        const project = await this.projects.insertWithAdmin(
          newProjectValues({ name: Messages.defaultProjectName, url: this.settings.demoShopUrl, demo: true }, user.id),
          user.id,
          tx,
        );
        await this.users.setLastActiveProjectIn(tx, user.id, project.id);
        await this.sessions.insert({ tokenHash: digestToken(token), userId: user.id, expiresAt: this.absoluteExpiry() }, tx);
        return project.id;
      });
      return { token, projectId };
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(Messages.emailTaken);
      throw error;
    }
  }

  /** Unknown email and wrong password get the same answer after the same work. */
  async login(email: string, password: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
    if (!user || !matches) throw unauthorized(Messages.invalidCredentials);
    const token = newToken(TokenPrefix.session);
    await this.sessions.insert({ tokenHash: digestToken(token), userId: user.id, expiresAt: this.absoluteExpiry() });
    return token;
  }

  async logout(caller: Caller): Promise<void> {
    if (caller.kind === 'session') await this.sessions.delete(caller.tokenHash);
  }

  /**
   * Resolves a bearer token. Unknown tokens and expired sessions are 401s: the web app answers
   * both with its "Session Expired" dialog.
   */
  async authenticate(token: string | undefined, now = new Date()): Promise<Caller> {
    if (!token) throw unauthorized(Messages.unauthenticated);
    const tokenHash = digestToken(token);
    if (token.startsWith(TokenPrefix.accessKey)) {
      const key = await this.accessKeys.findByHash(tokenHash);
      const user = key && (await this.users.findById(key.createdBy));
      // A key stops working when its creator leaves the project.
      if (!key || !user || !(await this.projects.roleOf(key.projectId, user.id))) {
        throw unauthorized(Messages.sessionExpired);
      }
      await this.accessKeys.touch(key.id, now);
      return { kind: 'accessKey', user, accessKeyId: key.id, projectId: key.projectId };
    }
    const session = token.startsWith(TokenPrefix.session) ? await this.sessions.findByHash(tokenHash) : undefined;
    if (!session) throw unauthorized(Messages.sessionExpired);
    const idleLimit = session.lastUsedAt.getTime() + this.settings.SESSION_IDLE_HOURS * 3_600_000;
    if (session.expiresAt.getTime() <= now.getTime() || idleLimit <= now.getTime()) {
      await this.sessions.delete(tokenHash);
      throw unauthorized(Messages.sessionExpired);
    }
    const user = await this.users.findById(session.userId);
    if (!user) throw unauthorized(Messages.sessionExpired);
    if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) await this.sessions.touch(tokenHash, now);
    return { kind: 'session', user, tokenHash };
  }

  private absoluteExpiry(): Date {
    return new Date(Date.now() + this.settings.SESSION_MAX_DAYS * 86_400_000);
  }
}
