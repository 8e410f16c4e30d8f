import type { Project } from '@rehearse/contract';
import { useBranches } from '../branches/queries';

/** Which part of a project's workspace the screens read and write. */
export interface WorkspaceScope {
  projectId: string;
  isPrivateRepo: boolean;
  /** The caller's branch for private-repository projects; undefined means the default branch. */
  branch: string | undefined;
  /** False while the branch of a private-repository project is still loading. */
  ready: boolean;
}

/**
 * The workspace scope of a project: branches exist only for private-repository projects (spec
 * 01 §1), whose current branch is the caller's last active one. When the branch list cannot be
 * loaded the default branch is used rather than blocking every screen.
 */
export function useWorkspaceScope(project: Project): WorkspaceScope {
  const branches = useBranches(project);
  if (!project.privateRepo) return { projectId: project.id, isPrivateRepo: false, branch: undefined, ready: true };
  return {
    projectId: project.id,
    isPrivateRepo: true,
    branch: branches.data?.lastActiveBranch,
    ready: branches.isSuccess || branches.isError,
  };
}

/** The fields every workspace call carries. */
export function scopeBody(scope: WorkspaceScope) {
  return {
    projectId: scope.projectId,
    isPrivateRepo: scope.isPrivateRepo,
    ...(scope.branch ? { branch: scope.branch } : {}),
  };
}

/** The part of a query key that tells branches apart. */
export function scopeKey(scope: WorkspaceScope): string {
  return scope.branch ?? 'default';
}
