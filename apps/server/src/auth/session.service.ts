import { Messages, type InstanceSettingsInForce, type SignupPolicy, DAY_MS } from '@rehearse/contract';
import { isUniqueViolation } from '../db/database.js';
import type { Settings } from '../env.js';
import {
  decoyPasswordHash,
  digestToken,
  hashPassword,
  needsRehash,
  newToken,
  SCRYPT_LOG_N,
  TokenPrefix,
  verifyPassword,
} from '../crypto/tokens.js';
import { PasswordPoolFull, type PasswordPool } from '../crypto/password-pool.js';
import { conflict, forbidden, tooManyRequests, unauthorized } from '../http/errors.js';
import type { AccessKeysRepo } from './access-keys.repo.js';
import type { AuthRepos, AuthTransactions } from './auth-repos.js';
import type { InstanceSettingsService } from './instance-settings.js';
import type { MembersRepo } from './members.repo.js';
import type { Caller } from '../http/caller.js';
import type { ProjectsRepo } from './projects.repo.js';
import type { SessionsRepo } from './sessions.repo.js';
import type { UsersRepo } from './users.repo.js';
import { newProjectValues } from './projects.service.js';
import type { DomainEventBus } from '../events/domain-events.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { TwoFactorService } from './two-factor.service.js';

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
    /** Hears `sessionEnded` (a logged-out session's live-update sockets must close). */
    private readonly events: DomainEventBus,
    private readonly transactions: AuthTransactions,
    private readonly settings: Pick<Settings, 'SESSION_MAX_DAYS' | 'TEST_ONLY_SCRYPT_LOG_N' | 'localSingleUser'> & {
      demoShopUrl: string;
    },
    private readonly users: UsersRepo,
    private readonly sessions: SessionsRepo,
    private readonly projects: ProjectsRepo,
    private readonly accessKeys: AccessKeysRepo,
    private readonly members: MembersRepo,
    /** The sign-up policy, new users' project allowance and session idle hours, which an administrator may change at run time. */
    private readonly instanceSettings: InstanceSettingsService,
    /** Counts failed sign-ins per (account, client), per client and per account. */
    private readonly throttle: SignInThrottle,
    /** Every password hash runs here: bounded, fair per client, refusing at once when full. */
    private readonly passwords: PasswordPool,
    /** Sign-in's second step for accounts with two-factor sign-in. */
    private readonly twoFactor: Pick<TwoFactorService, 'check'>,
    /** Tells an account's owner that its failures crossed the account-wide guard (mail, when SMTP is set). */
    private readonly warnOwner: (user: { email: string; firstName: string }) => Promise<void> = async () => undefined,
  ) {}

  /** One scrypt in the pool for `client`; a full pool is a 429 naming the wait. */
  private async hashing<T>(client: string, hash: () => Promise<T>): Promise<T> {
    try {
      return await this.passwords.run(client, hash);
    } catch (error) {
      if (error instanceof PasswordPoolFull) throw tooManyRequests(Messages.signInBusy, error.retryAfterSeconds);
      throw error;
    }
  }

  /** The scrypt cost of new hashes: OWASP's minimum, lower only under the tests-only setting. */
  private get scryptLogN(): number {
    return this.settings.TEST_ONLY_SCRYPT_LOG_N ?? SCRYPT_LOG_N;
  }

  /**
   * Whether the sign-up policy (SIGNUP, or the one an administrator saved) lets this email sign up now. The first user of an empty instance always may
   * (except under `closed`) and becomes its administrator; later users need what the policy asks.
   * Throws a 403 with the policy's sentence otherwise.
   */
  private async admitSignup(
    email: string,
    policy: SignupPolicy,
    repos: Pick<AuthRepos, 'users' | 'members'>,
  ): Promise<{ instanceAdmin: boolean }> {
    if (policy.kind === 'closed') throw forbidden(Messages.signupClosed);
    if (!(await repos.users.anyUser())) return { instanceAdmin: true };
    // A local single-user install (start-mode.ts) runs jobs unsandboxed: one person, never more.
    if (this.settings.localSingleUser) throw forbidden(Messages.signupLocalSingleUser);
    if (policy.kind === 'open') return { instanceAdmin: false };
    if (policy.kind === 'domains') {
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
      if (policy.domains.includes(domain)) return { instanceAdmin: false };
    }
    if (await repos.members.hasPendingInvitation(email)) return { instanceAdmin: false };
    throw forbidden(policy.kind === 'domains' ? Messages.signupDomainNotAllowed : Messages.signupNeedsInvitation);
  }

  /**
   * Creates the user, a Default project pointing at the demo shop, and a session, all or nothing.
   * SIGNUP decides who may; a refused sign-up is a 403 that writes nothing.
   */
  async signup(input: SignupInput, client: string): Promise<{ token: string; projectId: string }> {
    // Checked before the costly hash too, so refused sign-ups cannot make the server hash for free.
    const instance = await this.instanceSettings.current();
    await this.admitSignup(input.email, instance.signup, { users: this.users, members: this.members });
    const passwordHash = await this.hashing(client, () => hashPassword(input.password, this.scryptLogN));
    try {
      return await this.createAccount(input, passwordHash, instance, 'sign-up form');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(Messages.emailTaken);
      throw error;
    }
  }

  /**
   * Single sign-on: the identity provider vouched for this verified email. The account with that
   * email signs in (linked by email, password or not); without one, the sign-up policy decides as
   * it does for a sign-up form, and the new account has no password anyone knows. A disabled
   * account is refused.
   */
  async signInWithIdentity(identity: { email: string; firstName: string; lastName: string }): Promise<{ token: string; created: boolean }> {
    const existing = await this.users.findByEmail(identity.email);
    if (existing) {
      if (existing.disabledAt) throw forbidden(Messages.accountDisabled);
      return { token: await this.newSession(existing.id), created: false };
    }
    const instance = await this.instanceSettings.current();
    await this.admitSignup(identity.email, instance.signup, { users: this.users, members: this.members });
    // Nobody knows this password: the account signs in through its provider (or a reset later).
    const unusable = await decoyPasswordHash(this.scryptLogN);
    try {
      const { token } = await this.createAccount(
        { email: identity.email, password: '', firstname: identity.firstName, lastname: identity.lastName },
        unusable,
        instance,
        'single sign-on',
      );
      return { token, created: true };
    } catch (error) {
      // Made by a racing sign-in of the same person: theirs is the account, sign in to it.
      if (!isUniqueViolation(error)) throw error;
      const made = await this.users.findByEmail(identity.email);
      if (!made || made.disabledAt) throw error;
      return { token: await this.newSession(made.id), created: false };
    }
  }

  /**
   * The user, a Default project pointing at the demo shop, and a session, all or nothing (SIGNUP
   * decides again inside); once committed, `accountCreated` tells who joined (the activity log).
   */
  private async createAccount(
    input: SignupInput,
    passwordHash: string,
    { signup: policy, defaultAllowedProjects }: Pick<InstanceSettingsInForce, 'signup' | 'defaultAllowedProjects'>,
    via: 'sign-up form' | 'single sign-on',
  ): Promise<{ token: string; projectId: string }> {
    const token = newToken(TokenPrefix.session);
    const { projectId, userId, instanceAdmin } = await this.transactions.run(async (tx) => {
      await tx.users.lockForSignup();
      const { instanceAdmin } = await this.admitSignup(input.email, policy, tx);
      const user = await tx.users.insert({
        instanceAdmin,
        email: input.email,
        passwordHash,
        firstName: input.firstname,
        lastName: input.lastname,
        companyName: input.companyName ?? null,
        country: input.country ?? null,
        phone: input.phone ?? null,
        allowedProjectsCount: defaultAllowedProjects,
      });
      const project = await tx.projects.insertWithAdmin(
        newProjectValues({ name: Messages.defaultProjectName, url: this.settings.demoShopUrl, demo: true }, user.id),
        user.id,
      );
      await tx.users.setLastActiveProject(user.id, project.id);
      await tx.sessions.insert({ tokenHash: digestToken(token), userId: user.id, expiresAt: this.absoluteExpiry() });
      return { projectId: project.id, userId: user.id, instanceAdmin };
    });
    await this.events.emit('accountCreated', { userId, email: input.email, instanceAdmin, via });
    return { token, projectId };
  }

  private async newSession(userId: string): Promise<string> {
    const token = newToken(TokenPrefix.session);
    await this.sessions.insert({ tokenHash: digestToken(token), userId, expiresAt: this.absoluteExpiry() });
    return token;
  }

  /**
   * Unknown email and wrong password get the same answer after the same work, throttled alike
   * (`SignInThrottle`: per account and client, per client, and an account-wide guard that the
   * owner's known clients pass). With two-factor sign-in the right password is not enough: a
   * current code or an unused recovery code must come too. A successful sign-in takes its count
   * back and re-hashes a password stored at a lower cost than today's.
   */
  async login(email: string, password: string, client: string, code?: string, now = new Date()): Promise<string> {
    const user = await this.users.findByEmail(email);
    const ticket = await this.throttle.claim(email, client, now);
    // Sent without waiting: the answer's timing must not depend on whether the account exists.
    if (ticket.notifyOwner && user) void this.warnOwner(user).catch(() => undefined);
    const storedHash = user?.passwordHash ?? (await decoyPasswordHash(this.scryptLogN));
    const matches = await this.hashing(client, () => verifyPassword(password, storedHash));
    if (!user || !matches) throw unauthorized(Messages.invalidCredentials);
    // Said only to someone who knows the password: nobody learns from it that an account exists.
    if (user.disabledAt) throw forbidden(Messages.accountDisabled);
    // A missing or wrong second factor leaves the attempt counted as a failure.
    await this.twoFactor.check(user, code, now.getTime());
    await this.throttle.succeeded(ticket, now);
    const rehashed = needsRehash(user.passwordHash, this.scryptLogN)
      ? await this.hashing(client, () => hashPassword(password, this.scryptLogN))
      : undefined;
    await this.users.signedIn(user.id, rehashed);
    return this.newSession(user.id);
  }

  async logout(caller: Caller): Promise<void> {
    if (caller.kind !== 'session') return;
    await this.sessions.delete(caller.tokenHash);
    await this.events.emit('sessionEnded', { tokenHash: caller.tokenHash });
  }

  /**
   * Resolves a bearer token. Unknown tokens and expired sessions are 401s: the web app answers
   * both with its "Session Expired" dialog.
   */
  async authenticate(token: string | undefined, now = new Date()): Promise<Caller> {
    if (!token) throw unauthorized(Messages.unauthenticated);
    const tokenHash = digestToken(token);
    if (token.startsWith(TokenPrefix.accessKey)) {
      // Both reads come from the access cache on PGlite: a worker's job makes several calls a scenario.
      const found = await this.accessKeys.findWithUser(tokenHash);
      const key = found?.key;
      const user = found?.user;
      // A key stops working when it expires and when its creator leaves the project.
      const expired = !key || (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime());
      if (!key || expired || !user || !(await this.projects.findWithRole(key.projectId, user.id))?.role) {
        throw unauthorized(Messages.sessionExpired);
      }
      if (user.disabledAt) throw unauthorized(Messages.accountDisabled);
      // Written at most once a minute, as sessions are: a busy CI key would otherwise write on every call.
      if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) await this.accessKeys.touch(key.id, now);
      return {
        kind: 'accessKey',
        user,
        accessKeyId: key.id,
        projectId: key.projectId,
        scope: key.scope === 'run' ? 'run' : null,
        readsSecrets: key.readsSecrets,
      };
    }
    const found = token.startsWith(TokenPrefix.session) ? await this.sessions.findWithUser(tokenHash) : undefined;
    if (!found) throw unauthorized(Messages.sessionExpired);
    // found may come from the access cache: the expiry, idle and disabled checks below run on every answer.
    const { session, user } = found;
    // Read on every request, so from the settings' short cache: a change applies within seconds everywhere.
    const { sessionIdleHours } = await this.instanceSettings.cached();
    const idleLimit = session.lastUsedAt.getTime() + sessionIdleHours * 3_600_000;
    if (session.expiresAt.getTime() <= now.getTime() || idleLimit <= now.getTime()) {
      await this.sessions.delete(tokenHash);
      throw unauthorized(Messages.sessionExpired);
    }
    // Disabling deletes a user's sessions; this also covers one made in the same instant.
    if (!user || user.disabledAt) throw unauthorized(Messages.sessionExpired);
    if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) await this.sessions.touch(tokenHash, now);
    return { kind: 'session', user, tokenHash };
  }

  /** Ends every session of a user (disabled by an administrator); their live-update sockets close too. */
  async endSessionsOf(userId: string): Promise<number> {
    const hashes = await this.sessions.deleteForUser(userId);
    for (const tokenHash of hashes) await this.events.emit('sessionEnded', { tokenHash });
    return hashes.length;
  }

  private absoluteExpiry(): Date {
    return new Date(Date.now() + this.settings.SESSION_MAX_DAYS * DAY_MS);
  }
}
