import { Limits, Messages } from '@rehearse/contract';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { isSafeBranchName } from './git.js';
import type { Workspace, WorkspaceService } from './workspace.service.js';

/** Branches of private-repository workspaces (spec 01 §1: the default branch is main). */
export class BranchesService {
  constructor(private readonly workspaces: WorkspaceService) {}

  async list(ws: Workspace): Promise<{ branches: string[]; lastActiveBranch: string }> {
    if (this.workspaces.store.remote) await this.workspaces.store.remote.beforeRead(ws.projectId, ws.git);
    const branches = await ws.git.branches();
    const state = await this.workspaces.state.get(ws.projectId, ws.actor.user.id);
    const last = state?.lastBranch && branches.includes(state.lastBranch) ? state.lastBranch : Limits.defaultBranch;
    return { branches, lastActiveBranch: last };
  }

  /** Creates `newBranch` at `sourceBranch` and makes it the caller's active branch. */
  async create(ws: Workspace, sourceBranch: string | undefined, newBranch: string | undefined): Promise<string> {
    const source = sourceBranch?.trim();
    const target = newBranch?.trim();
    if (!source || !target) throw badRequest(Messages.branchFieldsMissing);
    if (!ws.access.project.privateRepo) throw badRequest(Messages.branchesNeedPrivateRepo);
    if (!isSafeBranchName(target)) throw badRequest(Messages.branchNameInvalid);
    const from = await ws.git.revParse(`refs/heads/${source}`);
    if (!from) throw notFound(Messages.branchNotFound);
    if (await ws.git.revParse(`refs/heads/${target}`)) throw conflict(Messages.branchExists);
    await ws.git.createBranch(target, from);
    if (this.workspaces.store.remote) await this.workspaces.store.remote.afterWrite(ws.projectId, ws.git, target, from, from);
    await this.workspaces.state.update(ws.projectId, ws.actor.user.id, { lastBranch: target });
    return target;
  }

  /** Deletes a branch; never main and never the branch the caller is on. */
  async delete(ws: Workspace, branch: string): Promise<void> {
    if (!ws.access.project.privateRepo) throw badRequest(Messages.branchesNeedPrivateRepo);
    if (branch === Limits.defaultBranch) throw badRequest(Messages.branchMainProtected);
    const state = await this.workspaces.state.get(ws.projectId, ws.actor.user.id);
    if (state?.lastBranch === branch) throw badRequest(Messages.branchIsCurrent);
    if (!(await ws.git.revParse(`refs/heads/${branch}`))) throw notFound(Messages.branchNotFound);
    if (this.workspaces.store.remote) await this.workspaces.store.remote.beforeDeleteBranch(ws.projectId, ws.git, branch);
    await ws.git.deleteBranch(branch);
  }
}
