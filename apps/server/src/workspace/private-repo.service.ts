import { Messages } from '@rehearse/contract';
import type { ProjectsRepo } from '../auth/projects.repo.js';
import type { ProjectSecretsRepo } from '../crypto/project-secrets.repo.js';
import { AppError, badRequest, conflict } from '../http/errors.js';
import { GitError, type Git } from './git.js';
import type { RemoteSync } from './workspace.store.js';

/** Reads fetch from the remote at most this often; writes always push. */
const FETCH_INTERVAL_MS = 3_000;

export interface PrivateRepoLogger {
  warn(details: object, message: string): void;
}

/** A remote URL we may store and call: http(s), no credentials in it. */
function checkRemoteUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest(Messages.privateRepoUrlInvalid);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !url.hostname) {
    throw badRequest(Messages.privateRepoUrlInvalid);
  }
  return url.toString().replace(/\/$/, '');
}

/**
 * Connects a workspace to the team's own git repository: credentials checked by talking to the
 * remote, stored encrypted, and used through the environment only. Afterwards every commit is
 * pushed and reads fetch first; a remote that moved on is never overwritten.
 */
export class PrivateRepoService implements RemoteSync {
  private readonly lastFetch = new Map<string, number>();
  private readonly fetching = new Map<string, Promise<void>>();

  constructor(
    private readonly projects: ProjectsRepo,
    private readonly secrets: ProjectSecretsRepo,
    private readonly log: PrivateRepoLogger,
    /** The egress proxy remote commands go through. */
    private readonly egressProxyUrl: () => Promise<string>,
  ) {}

  private async remote(git: Git, credentials: { username: string; token: string } | null): Promise<Git> {
    return git.forRemote(credentials, await this.egressProxyUrl());
  }

  async describe(projectId: string) {
    const repo = await this.secrets.get(projectId);
    if (!repo?.repoUrl) return [];
    return [
      {
        url: repo.repoUrl,
        username: repo.repoUsername ?? '',
        project_id: projectId,
        configuredAt: repo.repoConfiguredAt?.toISOString() ?? null,
      },
    ];
  }

  /**
   * Verifies the credentials against the remote, then makes it the workspace's origin: a remote
   * with branches becomes the workspace's content (the previous local branch heads are kept under
   * refs/rehearse/before-remote/), an empty remote receives the workspace's branches.
   */
  async connect(git: Git, projectId: string, input: { username: string; token: string; url?: string | undefined }, userId: string) {
    const project = await this.projects.findById(projectId);
    // Spec 01 §6: enabling the integration requires support; a project admin only connects it once enabled.
    if (!project?.privateRepo) throw conflict(Messages.privateRepoNotEnabled);
    const rawUrl = input.url?.trim() || project.privateRepoUrl;
    if (!rawUrl) throw badRequest(Messages.privateRepoUrlRequired);
    const url = checkRemoteUrl(rawUrl);
    const authed = await this.remote(git, { username: input.username, token: input.token });
    let remoteHeads: Map<string, string>;
    try {
      remoteHeads = await authed.lsRemote(url);
    } catch (error) {
      this.log.warn(
        { projectId, reason: error instanceof GitError ? error.stderr.split('\n')[0] : 'unknown' },
        'private repository check failed',
      );
      throw badRequest(Messages.privateRepoCredentials);
    }
    // Nothing is kept until the remote work succeeded: a connection that fails half-way leaves no
    // origin, no stored credential and no fetched refs behind (it talks to the URL, not to origin).
    try {
      if (remoteHeads.size > 0) {
        const fetched = await authed.fetchOrigin(url);
        for (const [branch, oid] of fetched) {
          const local = await git.revParse(`refs/heads/${branch}`);
          if (local) await git.run(['update-ref', `refs/rehearse/before-remote/${branch}`, local]);
          await git.run(['update-ref', `refs/heads/${branch}`, oid]);
        }
      } else {
        for (const branch of await git.branches()) {
          const head = await git.revParse(`refs/heads/${branch}`);
          if (head && !(await authed.pushToOrigin(head, branch, url))) throw conflict(Messages.privateRepoConflict);
        }
      }
    } catch (error) {
      await git.forgetOriginRefs().catch(() => undefined);
      if (error instanceof AppError) throw error;
      this.log.warn(
        { projectId, reason: error instanceof GitError ? error.stderr.split('\n')[0] : 'unknown' },
        'private repository connection failed',
      );
      throw badRequest(Messages.privateRepoCredentials);
    }
    await git.setOrigin(url);
    await this.secrets.setRepository(projectId, { ...input, url, configuredBy: userId });
    await this.projects.update(projectId, { configuredPrivateRepo: true, privateRepoUrl: url });
    this.lastFetch.set(projectId, Date.now());
  }

  async beforeRead(projectId: string, git: Git): Promise<void> {
    if (Date.now() - (this.lastFetch.get(projectId) ?? 0) < FETCH_INTERVAL_MS) return;
    let pending = this.fetching.get(projectId);
    if (!pending) {
      pending = this.pull(projectId, git).finally(() => this.fetching.delete(projectId));
      this.fetching.set(projectId, pending);
    }
    await pending;
  }

  /**
   * The remote's credentials while the integration is in force: enabled by support and connected.
   * Once support disables it the workspace stops syncing, whatever credentials are stored.
   */
  private async credentialsInForce(projectId: string): Promise<{ username: string; token: string } | null> {
    const project = await this.projects.findById(projectId);
    if (!project?.privateRepo || !project.configuredPrivateRepo) return null;
    return (await this.secrets.repository(projectId)) ?? null;
  }

  async afterWrite(projectId: string, git: Git, branch: string, previous: string, commit: string): Promise<void> {
    // beforeRead (run before every write) found no private repository: no query inside the write queue.
    if (this.lastFetch.get(projectId) === Number.POSITIVE_INFINITY) return;
    const credentials = await this.credentialsInForce(projectId);
    if (!credentials) return;
    if (await (await this.remote(git, credentials)).pushToOrigin(commit, branch)) return;
    // The remote moved on: undo our commit locally so the workspace never diverges, and say so.
    await git.moveBranch(branch, previous, commit);
    this.lastFetch.delete(projectId);
    throw conflict(Messages.privateRepoConflict);
  }

  async beforeDeleteBranch(projectId: string, git: Git, branch: string): Promise<void> {
    const credentials = await this.credentialsInForce(projectId);
    if (!credentials) return;
    const authed = await this.remote(git, credentials);
    if (await authed.deleteOriginBranch(branch)) return;
    // Refused, or the remote never had it: only a branch the remote still holds stops the delete.
    if ((await authed.fetchOrigin()).has(branch)) throw conflict(Messages.privateRepoConflict);
  }

  /** Fast-forwards local branches to the remote's; diverged branches are left alone and logged. */
  private async pull(projectId: string, git: Git): Promise<void> {
    const credentials = await this.credentialsInForce(projectId);
    if (!credentials) {
      this.lastFetch.set(projectId, Number.POSITIVE_INFINITY);
      return;
    }
    const authed = await this.remote(git, credentials);
    let heads: Map<string, string>;
    try {
      heads = await authed.fetchOrigin();
    } catch (error) {
      // An unreachable remote must not make the workspace unreadable; the next write will fail loudly.
      this.log.warn({ projectId, reason: error instanceof GitError ? error.stderr.split('\n')[0] : 'unknown' }, 'fetch failed');
      this.lastFetch.set(projectId, Date.now());
      return;
    }
    for (const [branch, remote] of heads) {
      const local = await git.revParse(`refs/heads/${branch}`);
      if (local === remote) continue;
      if (!local || (await git.isAncestor(local, remote))) {
        await git.moveBranch(branch, remote, local);
      } else if (!(await git.isAncestor(remote, local))) {
        this.log.warn({ projectId, branch }, 'local and remote branches diverged; leaving both as they are');
      }
    }
    this.lastFetch.set(projectId, Date.now());
  }

  /** Makes the next read fetch, whatever the interval (update-workspace). */
  forget(projectId: string): void {
    this.lastFetch.delete(projectId);
  }

  /** Counts the project as fetched just now, so reads within the interval use the local branch (a write racing a remote push). */
  markFetched(projectId: string): void {
    this.lastFetch.set(projectId, Date.now());
  }
}
