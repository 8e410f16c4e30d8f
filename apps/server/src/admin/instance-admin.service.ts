import {
  licenceDaysLeft,
  Messages,
  type AdminActivity,
  type AdminProject,
  type AdminUser,
  type AdminWorkerToken,
  type ConnectedAgent,
  NOTHING_STORED,
  type InstanceSettingsChange,
  type InstanceSettingsView,
  type RetentionCounts,
  type SsoSettingsChange,
  type SsoSettingsView,
} from '@rehearse/contract';
import type { InstanceSettingsService } from '../auth/instance-settings.js';
import type { ProjectsRepo } from '../auth/projects.repo.js';
import { isLicenceExpired, type ProjectsService } from '../auth/projects.service.js';
import type { ProjectRow, UserRow } from '../db/rows.js';
import type { SessionService } from '../auth/session.service.js';
import type { SignInThrottle } from '../auth/sign-in-throttle.js';
import type { BlockedAccount } from '../auth/sign-in-throttles.repo.js';
import type { SingleSignOn } from '../auth/single-sign-on.js';
import type { SsoSettings } from '../auth/sso-settings.js';
import type { UsersRepo } from '../auth/users.repo.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { RetentionService } from '../runs/retention.service.js';
import type { ActivityService } from '../storage/activity.service.js';
import type { WorkerTokens } from '../workers/worker-tokens.js';

/** Who administers: a signed-in instance administrator, or null for `npm run admin` on the server. */
export type AdminActor = UserRow | null;

/** What an administrator may change about a user. */
export interface UserChanges {
  disabled?: boolean | undefined;
  instanceAdmin?: boolean | undefined;
  allowedProjectsCount?: number | undefined;
  allowDeleteProjects?: boolean | undefined;
}

function toAdminUser(user: UserRow & { projects: number }, block: BlockedAccount | undefined): AdminUser {
  return {
    userId: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    instanceAdmin: user.instanceAdmin,
    disabled: user.disabledAt !== null,
    allowedProjectsCount: user.allowedProjectsCount,
    allowDeleteProjects: user.allowDeleteProjects,
    projects: user.projects,
    createdAt: user.createdAt.toISOString(),
    twoFactor: user.totpSecret !== null,
    signInBlock: block
      ? {
          until: block.blockedUntil.toISOString(),
          failures: block.failures,
          blockedClients: block.blockedClients,
          accountWide: block.accountWide,
        }
      : null,
  };
}

function toAdminProject(
  project: ProjectRow & { adminEmail: string | null; members: number },
  stored: RetentionCounts,
  now = new Date(),
): AdminProject {
  return {
    id: project.id,
    name: project.name,
    adminEmail: project.adminEmail,
    members: project.members,
    expiresAt: project.licenceExpiresAt.toISOString(),
    is_expired: isLicenceExpired(project, now),
    daysLeft: licenceDaysLeft(project.licenceExpiresAt, now),
    licensed: project.licensed,
    maxExecutionThreads: project.maxExecutionThreads,
    privateRepo: project.privateRepo,
    configuredPrivateRepo: project.configuredPrivateRepo,
    createdAt: project.createdAt.toISOString(),
    stored,
  };
}

/**
 * Instance administration (DESIGN §12): the one place its rules live, for the web app's
 * Administration screen and for `npm run admin` alike. Every change is audited in the activity
 * log with its actor, target and new values. It sits in admin/, above auth, runs, storage and
 * workers, because it administers all of them: none of those folders imports it.
 *
 * Disabling a user: they cannot sign in (403 with a sentence saying so), every session of theirs
 * ends at once (live-update sockets close), and their access keys stop working; their
 * memberships, projects and data stay, and enabling them again restores sign-in.
 */
export class InstanceAdminService {
  constructor(
    private readonly users: UsersRepo,
    private readonly projectsRepo: ProjectsRepo,
    private readonly projects: ProjectsService,
    /** Ends a disabled user's sessions (and, in the server, their live sockets). */
    private readonly sessions: Pick<SessionService, 'endSessionsOf'>,
    private readonly settings: InstanceSettingsService,
    private readonly workerTokens: WorkerTokens,
    private readonly activity: ActivityService,
    /** What each project stores (runs, scenarios, artifact bytes): the retention domain knows. */
    private readonly storage: Pick<RetentionService, 'storedBy' | 'storedByProject'>,
    /** Failed sign-ins blocking accounts now; an administrator lifts them. */
    private readonly signIns: Pick<SignInThrottle, 'blockedAccounts' | 'clear'>,
    /**
     * Single sign-on's saved configuration, and the provider check a change passes before it is
     * saved; absent in `npm run admin`, which does not configure it.
     */
    private readonly ssoParts?: { settings: SsoSettings; provider: Pick<SingleSignOn, 'verify'> },
  ) {}

  private get sso(): { settings: SsoSettings; provider: Pick<SingleSignOn, 'verify'> } {
    if (!this.ssoParts) throw new Error('single sign-on is configured in the web app (Administration → Sign-up) or with OIDC_* variables');
    return this.ssoParts;
  }

  singleSignOn(): Promise<SsoSettingsView> {
    return this.sso.settings.view();
  }

  /** Saves single sign-on once its issuer answers as an OpenID provider; audited without the secret. */
  async updateSingleSignOn(actor: AdminActor, change: SsoSettingsChange): Promise<SsoSettingsView> {
    const config = await this.sso.settings.resolve(change);
    if (!config) throw badRequest(Messages.ssoClientSecretEmpty);
    await this.sso.provider.verify(config);
    await this.sso.settings.save(config);
    await this.activity.audit(actor?.id ?? null, 'sso.update', 'instance', {
      issuer: config.issuer,
      clientId: config.clientId,
      name: config.name,
      secretChanged: change.clientSecret !== undefined,
    });
    return this.sso.settings.view();
  }

  async clearSingleSignOn(actor: AdminActor): Promise<SsoSettingsView> {
    await this.sso.settings.clear();
    await this.activity.audit(actor?.id ?? null, 'sso.clear', 'instance', {});
    return this.sso.settings.view();
  }

  async listUsers(): Promise<AdminUser[]> {
    return this.adminUsers();
  }

  /** Users (or the one with `userId`) with the sign-in blocks standing on them now. */
  private async adminUsers(userId?: string): Promise<AdminUser[]> {
    const blocks = new Map((await this.signIns.blockedAccounts(new Date())).map((block) => [block.userId, block]));
    return (await this.users.listWithProjectCounts(userId)).map((user) => toAdminUser(user, blocks.get(user.id)));
  }

  /** Lifts every sign-in block on a user's account (all clients, and the account-wide guard). */
  async clearSignInBlocks(actor: AdminActor, userId: string): Promise<AdminUser> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound(Messages.adminUserNotFound);
    const cleared = await this.signIns.clear(user.email);
    await this.activity.audit(actor?.id ?? null, 'user.clearSignInBlocks', user.email, { cleared });
    return this.adminUser(userId);
  }

  /** Turns off a user's two-factor sign-in (a lost phone and lost recovery codes). */
  async resetTwoFactor(actor: AdminActor, userId: string): Promise<AdminUser> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound(Messages.adminUserNotFound);
    await this.users.clearTotp(userId);
    await this.activity.audit(actor?.id ?? null, 'user.resetTwoFactor', user.email, { wasOn: user.totpSecret !== null });
    return this.adminUser(userId);
  }

  private async adminUser(userId: string): Promise<AdminUser> {
    const [user] = await this.adminUsers(userId);
    if (!user) throw notFound(Messages.adminUserNotFound);
    return user;
  }

  /** The user with this email, for `npm run admin` commands that name users by email. */
  async userIdByEmail(email: string): Promise<string | undefined> {
    return (await this.users.findByEmail(email))?.id;
  }

  async updateUser(actor: AdminActor, userId: string, changes: UserChanges): Promise<AdminUser> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound(Messages.adminUserNotFound);
    // The caller stays an administrator who can sign in, so an instance always keeps one.
    if (actor?.id === userId && changes.disabled === true) throw forbidden(Messages.adminCannotDisableSelf);
    if (actor?.id === userId && changes.instanceAdmin === false) throw forbidden(Messages.adminCannotDemoteSelf);
    const disabledAt = changes.disabled === undefined ? undefined : changes.disabled ? (user.disabledAt ?? new Date()) : null;
    await this.users.update(userId, {
      ...(disabledAt !== undefined ? { disabledAt } : {}),
      ...(changes.instanceAdmin !== undefined ? { instanceAdmin: changes.instanceAdmin } : {}),
      ...(changes.allowedProjectsCount !== undefined ? { allowedProjectsCount: changes.allowedProjectsCount } : {}),
      ...(changes.allowDeleteProjects !== undefined ? { allowDeleteProjects: changes.allowDeleteProjects } : {}),
    });
    const endedSessions = changes.disabled ? await this.sessions.endSessionsOf(userId) : 0;
    await this.activity.audit(actor?.id ?? null, 'user.update', user.email, {
      ...definedOnly(changes),
      ...(changes.disabled ? { endedSessions } : {}),
    });
    return this.adminUser(userId);
  }

  async listProjects(): Promise<AdminProject[]> {
    const now = new Date();
    const storedByProject = new Map((await this.storage.storedByProject()).map((row) => [row.projectId, row]));
    return (await this.projectsRepo.listForInstanceAdmin()).map((project) => {
      const counts = storedByProject.get(project.id);
      const stored = counts ? { runs: counts.runs, testCases: counts.testCases, artifactBytes: counts.artifactBytes } : NOTHING_STORED;
      return toAdminProject(project, stored, now);
    });
  }

  /** Extends the licence by `days` from the later of now and its expiry; members may edit again at once. */
  async extendLicence(actor: AdminActor, projectId: string, days: number): Promise<AdminProject> {
    const project = await this.projects.extendLicence(projectId, days);
    if (!project) throw notFound(Messages.adminProjectNotFound);
    await this.activity.audit(actor?.id ?? null, 'project.extendLicence', project.name, {
      projectId,
      days,
      expiresAt: project.licenceExpiresAt.toISOString(),
    });
    return this.project(projectId);
  }

  async updateProject(
    actor: AdminActor,
    projectId: string,
    changes: { maxExecutionThreads?: number | undefined; privateRepo?: boolean | undefined },
  ): Promise<AdminProject> {
    if (!(await this.projectsRepo.findById(projectId))) throw notFound(Messages.adminProjectNotFound);
    if (changes.maxExecutionThreads !== undefined) await this.projects.setMaxExecutionThreads(projectId, changes.maxExecutionThreads);
    if (changes.privateRepo !== undefined) await this.projects.setPrivateRepo(projectId, changes.privateRepo);
    const project = await this.project(projectId);
    await this.activity.audit(actor?.id ?? null, 'project.update', project.name, { projectId, ...definedOnly(changes) });
    return project;
  }

  async workers(): Promise<{ tokens: AdminWorkerToken[]; agents: ConnectedAgent[] }> {
    return { tokens: await this.workerTokens.list(), agents: await this.workerTokens.connectedAgents() };
  }

  /** A new worker token; the token is answered once and only its digest is kept. */
  async createWorkerToken(actor: AdminActor, name: string): Promise<{ workerToken: AdminWorkerToken; token: string }> {
    const { id, token } = await this.workerTokens.create(name);
    const workerToken = await this.workerTokens.find(id);
    if (!workerToken) throw notFound(Messages.adminWorkerTokenNotFound);
    await this.activity.audit(actor?.id ?? null, 'workerToken.create', name, { tokenId: id });
    return { workerToken, token };
  }

  async deleteWorkerToken(actor: AdminActor, tokenId: string): Promise<void> {
    const workerToken = await this.workerTokens.find(tokenId);
    if (!workerToken || !(await this.workerTokens.delete(tokenId))) throw notFound(Messages.adminWorkerTokenNotFound);
    await this.activity.audit(actor?.id ?? null, 'workerToken.delete', workerToken.name, { tokenId });
  }

  /** The settings in force, where each comes from (saved or the environment) and the environment's values. */
  async instanceSettings(): Promise<InstanceSettingsView> {
    return this.settings.view();
  }

  /**
   * Saves the settings named in `change` and clears those named with `null` (back to the
   * environment's value), audited with the change as asked; answers all those in force.
   */
  async updateInstanceSettings(actor: AdminActor, change: InstanceSettingsChange): Promise<InstanceSettingsView> {
    const saved = await this.settings.update(change);
    await this.activity.audit(actor?.id ?? null, 'settings.update', 'instance', definedOnly(change));
    return saved;
  }

  async activityLog(limit: number): Promise<AdminActivity[]> {
    return this.activity.latestAudit(limit);
  }

  private async project(projectId: string): Promise<AdminProject> {
    const project = await this.projectsRepo.findForInstanceAdmin(projectId);
    if (!project) throw notFound(Messages.adminProjectNotFound);
    return toAdminProject(project, await this.storage.storedBy(projectId));
  }
}

function definedOnly(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
