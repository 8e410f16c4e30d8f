import { Messages, type ProjectResource, type ProjectRole, type ProjectScope } from '@rehearse/contract';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { AccessKeysRepo } from './access-keys.repo.js';
import type { Caller, ProjectAccess } from '../http/caller.js';
import type { ProjectsRepo } from './projects.repo.js';
import { isLicenceExpired } from './projects.service.js';
import type { ProjectRow } from '../db/rows.js';

const NOT_FOUND: Record<ProjectResource, string> = {
  project: Messages.projectNotFound,
  accessKey: Messages.accessKeyNotFound,
  run: Messages.runNotFound,
  testCase: Messages.testCaseNotFound,
  comment: Messages.commentNotFound,
  job: Messages.jobNotFound,
  execution: Messages.executionNotFound,
  recorderSession: Messages.recorderSessionNotFound,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Decides whether a caller may make a project call: the project must exist, the caller must be a
 * member (or hold one of its access keys), have the role the call needs, and, for writes, the
 * project's licence must be current. Runs before any handler reads or writes.
 */
export class AccessService {
  /** Finds the project of a sub-resource id (a run, a comment, ...); registered by the domain that owns it. */
  private readonly resolvers = new Map<ProjectResource, (id: string) => Promise<string | undefined>>();

  constructor(
    private readonly projects: ProjectsRepo,
    accessKeys: AccessKeysRepo,
  ) {
    this.resolvers.set('project', async (id) => id);
    this.resolvers.set('accessKey', async (id) => (await accessKeys.findById(id))?.projectId);
  }

  registerResource(resource: ProjectResource, resolve: (id: string) => Promise<string | undefined>): void {
    this.resolvers.set(resource, resolve);
  }

  async authorize(caller: Caller, scope: ProjectScope, rawId: unknown): Promise<ProjectAccess> {
    if (typeof rawId !== 'string' || !UUID.test(rawId)) throw badRequest(Messages.projectIdInvalid);
    const projectId = await this.resolveProjectId(scope.resource ?? 'project', rawId);
    const found = await this.projects.findWithRole(projectId, caller.user.id);
    if (!found) throw notFound(Messages.projectNotFound);
    if (caller.kind === 'accessKey' && caller.projectId !== found.project.id) throw forbidden(Messages.accessKeyOtherProject);
    return this.memberAccess(found.project, found.role, scope);
  }

  /**
   * The same rules for work no request carries (a scheduled start acting for the member who
   * scheduled it): the user must still be a member with the role and, for writes, a licence.
   */
  async checkMember(
    userId: string,
    projectId: string,
    scope: Pick<ProjectScope, 'role' | 'roleMessage' | 'write'>,
  ): Promise<ProjectAccess> {
    const found = await this.projects.findWithRole(projectId, userId);
    if (!found) throw notFound(Messages.projectNotFound);
    return this.memberAccess(found.project, found.role, scope);
  }

  private memberAccess(
    project: ProjectRow,
    role: ProjectRole | null,
    scope: Pick<ProjectScope, 'role' | 'roleMessage' | 'write'>,
  ): ProjectAccess {
    if (!role) throw forbidden(Messages.notAMember);
    if (scope.role && role !== scope.role) throw forbidden(scope.roleMessage ?? Messages.adminRoleRequired);
    // Against the clock on every call: the project row may come from the access cache.
    const isExpired = isLicenceExpired(project);
    if (scope.write && isExpired) throw forbidden(Messages.licenceExpired);
    return { project, role, isExpired };
  }

  private async resolveProjectId(resource: ProjectResource, id: string): Promise<string> {
    const resolve = this.resolvers.get(resource);
    if (!resolve) throw new Error(`No resolver registered for ${resource} ids`);
    const projectId = await resolve(id);
    if (!projectId) throw notFound(NOT_FOUND[resource]);
    return projectId;
  }
}
