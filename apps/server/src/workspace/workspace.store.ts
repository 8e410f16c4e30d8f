import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { CUCUMBER_PROFILE, CUCUMBER_PROFILE_FILE, Limits, workspaceReadme } from '@rehearse/contract';
import { WorkspaceRefused } from './workspace-errors.js';
import { Git, GitRefConflict, type FileChange, type GitIdentity, type TreeEntry } from './git.js';
import { Lru } from './lru.js';

/** What a new workspace starts with (DESIGN §4 layout). */
export interface WorkspaceSeed {
  projectName: string;
  defaultEnvironmentUrl: string | null;
  author: GitIdentity;
}

/** Default project run settings kept in the workspace's rehearse.config.json. */
export const DEFAULT_RUN_CONFIG = {
  screenshots: 'every-command',
  stepTimeoutMs: 60_000,
  scenarioTimeoutMs: 600_000,
  viewport: { width: 1024, height: 768 },
  browser: 'chromium',
} as const;

/** A read-only view of one commit of a workspace. */
export class Snapshot {
  constructor(
    readonly git: Git,
    readonly commit: string,
  ) {}

  async readText(filePath: string): Promise<string | null> {
    const bytes = await this.git.readFile(this.commit, filePath);
    return bytes === null ? null : bytes.toString('utf8');
  }

  async readJson<T>(filePath: string): Promise<T | null> {
    const text = await this.readText(filePath);
    if (text === null) return null;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new WorkspaceRefused('file-not-json', filePath);
    }
  }

  /**
   * The object id at a path (a folder's tree, a file's blob), or null when there is nothing there.
   * What is read from a path depends on that id only, so readers cache by it: a commit that changed
   * other paths finds their answers still there.
   */
  oidAt(filePath: string): Promise<string | null> {
    return this.git.pathOid(this.commit, filePath);
  }

  list(prefix: string): Promise<TreeEntry[]> {
    return this.git.listTree(this.commit, prefix);
  }
}

/** Hooks a private-repository remote plugs into the store (fetch before reads, push after writes). */
export interface RemoteSync {
  beforeRead(projectId: string, git: Git): Promise<void>;
  afterWrite(projectId: string, git: Git, branch: string, previous: string, commit: string): Promise<void>;
  /** Deletes a branch on the remote too, before it goes locally (else the next fetch brings it back). */
  beforeDeleteBranch(projectId: string, git: Git, branch: string): Promise<void>;
}

/**
 * Writes are milliseconds now, so writers in two processes can collide many times in a row; each
 * retry waits a random moment that grows, so one of them gets through.
 */
const MAX_CAS_ATTEMPTS = 20;
const casBackoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 * attempt * attempt)));
/** No commit takes this long; an index file this old belongs to a writer that died. */
const STALE_INDEX_MS = 10 * 60_000;

/**
 * Owns every project's bare repository under DATA_DIR/workspaces. Writes for one project are
 * queued in this process and land with a compare-and-swap on the branch, so parallel requests
 * (or several server processes) each become one commit and none is lost.
 */
export class WorkspaceStore {
  private readonly repos = new Map<string, Promise<Git>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** `projectId@commit` of commits snapshotAt found (nothing in Rehearse prunes a commit once written or fetched). */
  private readonly knownCommits = new Lru<string, true>(1_000);

  constructor(
    private readonly root: string,
    /** A project's private-repository remote, where it has one (fetch before reads, push after writes). */
    readonly remote: RemoteSync | null = null,
  ) {}

  gitDir(projectId: string): string {
    return path.join(this.root, projectId, 'repo.git');
  }

  /** The project's repository, created with its first commit when it does not exist yet. */
  repo(projectId: string, seed: () => WorkspaceSeed): Promise<Git> {
    let pending = this.repos.get(projectId);
    if (!pending) {
      pending = this.openOrCreate(projectId, seed());
      this.repos.set(projectId, pending);
      pending.catch(() => this.repos.delete(projectId));
    }
    return pending;
  }

  /** Deletes a project's repository (the project is gone). */
  async remove(projectId: string): Promise<void> {
    const pending = this.repos.get(projectId);
    this.repos.delete(projectId);
    await pending?.then(
      (git) => git.close(),
      () => undefined,
    );
    await rm(path.join(this.root, projectId), { recursive: true, force: true });
  }

  /** Stops every repository's long-lived git processes (the app is closing). */
  async close(): Promise<void> {
    const pending = [...this.repos.values()];
    this.repos.clear();
    await Promise.all(
      pending.map((repo) =>
        repo.then(
          (git) => git.close(),
          () => undefined,
        ),
      ),
    );
  }

  /** True once the project's repository exists on disk. */
  exists(projectId: string): boolean {
    return existsSync(path.join(this.gitDir(projectId), 'HEAD'));
  }

  private async openOrCreate(projectId: string, seed: WorkspaceSeed): Promise<Git> {
    const dir = this.gitDir(projectId);
    const git = existsSync(path.join(dir, 'HEAD')) ? new Git(dir) : await Git.initBare(dir);
    // A writer that died mid-commit leaves its private index behind; the branch itself is intact.
    // Only old ones go: another server process may be committing right now.
    const leftovers = (await readdir(dir)).filter((name) => name.startsWith('rehearse-index-'));
    for (const name of leftovers) {
      const file = path.join(dir, name);
      const age = Date.now() - (await stat(file).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > STALE_INDEX_MS) await rm(file, { force: true });
    }
    if (!(await git.revParse('refs/heads/main'))) {
      const files: FileChange[] = [
        { path: 'rehearse.config.json', content: `${JSON.stringify(DEFAULT_RUN_CONFIG, null, 2)}\n` },
        { path: 'data/data.json', content: '{}\n' },
        { path: 'features/step_definitions/.gitkeep', content: '' },
        { path: CUCUMBER_PROFILE_FILE, content: CUCUMBER_PROFILE },
        { path: 'README.md', content: workspaceReadme(seed.projectName) },
      ];
      if (seed.defaultEnvironmentUrl) {
        files.push({
          path: 'environments/default.json',
          content: `${JSON.stringify({ name: 'default', baseUrl: seed.defaultEnvironmentUrl }, null, 2)}\n`,
        });
      }
      try {
        await git.commit('main', null, files, seed.author, `[app:workspace.create] ${seed.projectName}`);
      } catch (error) {
        // Another process created it first; theirs is as good as ours.
        if (!(error instanceof GitRefConflict)) throw error;
      }
    }
    return git;
  }

  /** The commit a branch points at; 404 when the branch does not exist. */
  async snapshot(git: Git, projectId: string, branch: string): Promise<Snapshot> {
    if (this.remote) await this.remote.beforeRead(projectId, git);
    const commit = await git.revParse(`refs/heads/${branch}`);
    if (!commit) throw new WorkspaceRefused('branch-missing', branch);
    return new Snapshot(git, commit);
  }

  /**
   * The commit a branch points at now (fetched first for a private-repository project), without
   * creating anything: null when the project has no repository or no such branch.
   */
  async head(projectId: string, branch: string): Promise<string | null> {
    if (!this.exists(projectId)) return null;
    // The repository exists, so the seed (only used to create one) is never read.
    const git = await this.repo(projectId, () => ({
      projectName: projectId,
      defaultEnvironmentUrl: null,
      author: { name: '', email: '' },
    }));
    try {
      return (await this.snapshot(git, projectId, branch)).commit;
    } catch (error) {
      if (error instanceof WorkspaceRefused) return null;
      throw error;
    }
  }

  /**
   * One given commit of the project's repository (an execution's pinned commit), whatever its
   * branches point at now; 404 when the repository does not hold it (after a fetch, for a
   * private-repository project).
   */
  async snapshotAt(git: Git, projectId: string, commit: string): Promise<Snapshot> {
    // A commit, once found, stays: every scenario of an execution asks for the same one.
    if (this.knownCommits.get(`${projectId}@${commit}`)) return new Snapshot(git, commit);
    let found = await git.revParse(commit);
    if (!found && this.remote) {
      await this.remote.beforeRead(projectId, git);
      found = await git.revParse(commit);
    }
    if (found !== commit) throw new WorkspaceRefused('commit-missing', commit);
    this.knownCommits.set(`${projectId}@${commit}`, true);
    return new Snapshot(git, commit);
  }

  /**
   * Runs `build` against the branch's current commit and commits what it returns as one commit.
   * `build` may run more than once if another process moved the branch meanwhile, so it must only
   * read from the snapshot it is given.
   */
  async write<T>(
    git: Git,
    projectId: string,
    branch: string,
    author: GitIdentity,
    build: (snapshot: Snapshot) => Promise<{ changes: FileChange[]; message: string; result: T }>,
  ): Promise<T & { commit: string; changed: boolean }> {
    return this.serialize(projectId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        const snapshot = await this.snapshot(git, projectId, branch);
        const { changes, message, result } = await build(snapshot);
        for (const change of changes) assertStorable(change);
        try {
          const { commit, changed } = await git.commit(branch, snapshot.commit, changes, author, message);
          if (changed && this.remote) await this.remote.afterWrite(projectId, git, branch, snapshot.commit, commit);
          return { ...result, commit, changed };
        } catch (error) {
          if (error instanceof GitRefConflict && attempt < MAX_CAS_ATTEMPTS) {
            await casBackoff(attempt);
            continue;
          }
          if (error instanceof GitRefConflict) throw new WorkspaceRefused('changed-while-saving');
          throw error;
        }
      }
    });
  }

  /** One write at a time per project in this process; other projects are not held up. */
  private serialize<T>(projectId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(projectId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.queues.set(projectId, settled);
    void settled.then(() => {
      if (this.queues.get(projectId) === settled) this.queues.delete(projectId);
    });
    return next;
  }
}

/** Half of a UTF-16 pair cannot be written as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text files only, within the size limit: the workspace is for features, code and JSON. */
function assertStorable(change: FileChange): void {
  if (change.content === null || Buffer.isBuffer(change.content)) return;
  if (change.content.length > Limits.workspaceFileMax) {
    throw new WorkspaceRefused('file-too-large', change.path);
  }
  if (change.content.includes('\u0000')) throw new WorkspaceRefused('binary-content', change.path);
  if (LONE_SURROGATE.test(change.content)) throw new WorkspaceRefused('file-not-utf8', change.path);
}
