import { licenceDaysLeft, Limits, Messages, type Project, type User, DAY_MS } from '@rehearse/contract';
import { forbidden } from '../http/errors.js';
import type { AuthTransactions } from './auth-repos.js';
import type { ProjectAccess } from '../http/caller.js';
import type { NewProject, ProjectsRepo, ProjectWithRole } from './projects.repo.js';
import type { UsersRepo } from './users.repo.js';
import type { ProjectRow, UserRow } from '../db/rows.js';

export interface ProjectInput {
  name: string;
  url?: string | undefined;
  demo?: boolean | undefined;
  description?: string | undefined;
}

/** Column values of a new trial project. */
export function newProjectValues(input: ProjectInput, creatorId: string, now = new Date()): NewProject {
  return {
    name: input.name,
    url: input.url ?? null,
    demo: input.demo ?? false,
    description: input.description ?? null,
    createdBy: creatorId,
    licenceExpiresAt: new Date(now.getTime() + Limits.trialDays * DAY_MS),
    maxExecutionThreads: Limits.defaultMaxExecutionThreads,
    defaultEnvironmentUrl: input.url ?? null,
  };
}

export function isLicenceExpired(project: Pick<ProjectRow, 'licenceExpiresAt'>, now = new Date()): boolean {
  return project.licenceExpiresAt.getTime() <= now.getTime();
}

/** The Project entity of the contract, as one member sees it. */
export function toProjectDto(project: ProjectWithRole, now = new Date()): Project {
  return {
    id: project.id,
    _id: project.id,
    name: project.name,
    role: project.role,
    url: project.url,
    demo: project.demo,
    description: project.description,
    privateRepo: project.privateRepo,
    configuredPrivateRepo: project.configuredPrivateRepo,
    privateRepoURL: project.privateRepoUrl,
    is_expired: isLicenceExpired(project, now),
    time_left: { days: licenceDaysLeft(project.licenceExpiresAt, now) },
    expiresAt: project.licenceExpiresAt.toISOString(),
    projectAdmin: project.adminId,
    allowInvite: project.licensed,
    maxExecutionThreads: project.maxExecutionThreads,
    createdAt: project.createdAt.toISOString(),
  };
}

export function toUserDto(user: UserRow): User {
  return {
    userId: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    givenName: user.firstName,
    familyName: user.lastName,
    email: user.email,
    country: user.country,
    phone: user.phone,
    instanceAdmin: user.instanceAdmin,
    customAttributes: {
      allowedProjectsCount: user.allowedProjectsCount,
      companyName: user.companyName,
      allowDeleteProjects: user.allowDeleteProjects,
    },
  };
}

/** Projects: listing, creation within the user's allowance, deletion, last-active project, licence. */
export class ProjectsService {
  constructor(
    private readonly transactions: AuthTransactions,
    private readonly projects: ProjectsRepo,
    private readonly users: UsersRepo,
    private readonly demoShopUrl: string,
  ) {}

  /** The caller's projects; a user with none gets a "Default" project (spec 01 §2). */
  async listForUser(user: UserRow): Promise<Project[]> {
    let rows = await this.projects.listForUser(user.id);
    if (rows.length === 0) {
      await this.transactions.run(async (tx) => {
        // Two tabs loading at once must not create two Default projects.
        await tx.projects.lockDefaultProjectOf(user.id);
        const again = await tx.projects.listForUser(user.id);
        if (again.length > 0) return;
        const values = newProjectValues({ name: Messages.defaultProjectName, url: this.demoShopUrl, demo: true }, user.id);
        await tx.projects.insertWithAdmin(values, user.id);
      });
      rows = await this.projects.listForUser(user.id);
    }
    const now = new Date();
    return rows.map((row) => toProjectDto(row, now));
  }

  /** Creates a project if the user has allowance left, and makes it their active project. */
  async create(user: UserRow, input: ProjectInput): Promise<Project> {
    const url = input.demo ? this.demoShopUrl : input.url;
    const projectId = await this.transactions.run(async (tx) => {
      if (!(await tx.users.takeProjectAllowance(user.id))) throw forbidden(Messages.projectLimitReached);
      const project = await tx.projects.insertWithAdmin(newProjectValues({ ...input, url }, user.id), user.id);
      await tx.users.setLastActiveProject(user.id, project.id);
      return project.id;
    });
    const created = await this.projects.findForUser(projectId, user.id);
    if (!created) throw new Error('created project vanished');
    return toProjectDto(created);
  }

  /** Deletes a project; the router already required ADMIN, the user flag is checked here. */
  async delete(user: UserRow, access: ProjectAccess): Promise<void> {
    if (!user.allowDeleteProjects) throw forbidden(Messages.deleteProjectNotAllowed);
    await this.projects.delete(access.project.id);
  }

  async lastActiveProjectId(user: UserRow): Promise<string | null> {
    if (!user.lastActiveProjectId) return null;
    const role = await this.projects.roleOf(user.lastActiveProjectId, user.id);
    return role ? user.lastActiveProjectId : null;
  }

  async setLastActive(user: UserRow, projectId: string): Promise<void> {
    await this.users.setLastActiveProject(user.id, projectId);
  }

  /** Records the workspace as created; issue-level workspace content is written by the workspace service. */
  async createWorkspace(projectId: string): Promise<boolean> {
    return this.projects.markWorkspaceCreated(projectId, new Date());
  }

  /** Extends a licence by `days` from the later of now and the current expiry, and marks it bought. */
  async extendLicence(projectId: string, days: number): Promise<ProjectRow | undefined> {
    const project = await this.projects.findById(projectId);
    if (!project) return undefined;
    const from = Math.max(Date.now(), project.licenceExpiresAt.getTime());
    return this.projects.update(projectId, { licenceExpiresAt: new Date(from + days * DAY_MS), licensed: true });
  }

  daysLeft(project: Pick<ProjectRow, 'licenceExpiresAt'>): number {
    return licenceDaysLeft(project.licenceExpiresAt);
  }

  async setMaxExecutionThreads(projectId: string, threads: number): Promise<ProjectRow | undefined> {
    return this.projects.update(projectId, { maxExecutionThreads: threads });
  }

  /**
   * Enables the private-repository integration (its project admin then connects it), or disables
   * it, which also forgets that it was connected (spec 01 §4: "Disabling is only through support").
   */
  async setPrivateRepo(projectId: string, enabled: boolean): Promise<ProjectRow | undefined> {
    return this.projects.update(projectId, enabled ? { privateRepo: true } : { privateRepo: false, configuredPrivateRepo: false });
  }
}
