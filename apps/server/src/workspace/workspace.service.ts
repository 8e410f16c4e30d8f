import { Limits, Messages } from '@rehearse/contract';
import type { Actor, ProjectAccess } from '../http/caller.js';
import type { DomainEventBus } from '../events/domain-events.js';
import { badRequest } from '../http/errors.js';
import { isSafeBranchName, type FileChange, type Git, type GitIdentity } from './git.js';
import type { WorkspaceStateRepo } from './workspace-state.repo.js';
import type { Snapshot, WorkspaceStore } from './workspace.store.js';

/** One project's workspace at one branch, opened for one caller. */
export interface Workspace {
  git: Git;
  projectId: string;
  branch: string;
  author: GitIdentity;
  /** Whom it was opened for: their last branch and environment are remembered per user. */
  actor: Actor;
  access: ProjectAccess;
}

export function authorOf(actor: Actor): GitIdentity {
  const name = `${actor.user.firstName} ${actor.user.lastName}`.trim() || actor.user.email;
  return { name, email: actor.user.email };
}

/** Opens workspaces: creates the repository on first use and decides which branch a call may use. */
export class WorkspaceService {
  constructor(
    readonly store: WorkspaceStore,
    readonly state: WorkspaceStateRepo,
    /** Hears `workspaceCommitted` (warm "Run scenario" runners of the old commit retire). */
    private readonly events?: DomainEventBus,
  ) {}

  async open(actor: Actor, access: ProjectAccess, requestedBranch?: string | null): Promise<Workspace> {
    const branch = requestedBranch?.trim() || Limits.defaultBranch;
    if (!isSafeBranchName(branch)) throw badRequest(Messages.branchNameInvalid);
    // Branches exist only for private-repository projects (spec 01 §1).
    if (!access.project.privateRepo && branch !== Limits.defaultBranch) throw badRequest(Messages.branchesNeedPrivateRepo);
    const git = await this.store.repo(access.project.id, () => ({
      projectName: access.project.name,
      defaultEnvironmentUrl: access.project.defaultEnvironmentUrl,
      author: authorOf(actor),
    }));
    return { git, projectId: access.project.id, branch, author: authorOf(actor), actor, access };
  }

  read(workspace: Workspace): Promise<Snapshot> {
    return this.store.snapshot(workspace.git, workspace.projectId, workspace.branch);
  }

  /**
   * The workspace at one commit of the project's repository (an execution's pinned one), or at
   * its branch's head when no commit is given.
   */
  readAt(workspace: Workspace, commit: string | undefined): Promise<Snapshot> {
    return commit ? this.store.snapshotAt(workspace.git, workspace.projectId, commit) : this.read(workspace);
  }

  /** One commit on the workspace's branch, built from its current state (see WorkspaceStore.write). */
  async write<T>(
    workspace: Workspace,
    build: (snapshot: Snapshot) => Promise<{ changes: FileChange[]; message: string; result: T }>,
  ): Promise<T & { commit: string; changed: boolean }> {
    const written = await this.store.write<T>(workspace.git, workspace.projectId, workspace.branch, workspace.author, build);
    if (written.changed)
      void this.events?.emit('workspaceCommitted', { projectId: workspace.projectId, branch: workspace.branch, commit: written.commit });
    return written;
  }

  /** The commit a branch of a project's existing repository points at now; null when there is no such repository or branch. */
  head(projectId: string, branch: string): Promise<string | null> {
    return this.store.head(projectId, branch);
  }
}
