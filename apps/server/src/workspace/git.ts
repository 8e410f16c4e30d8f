import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The person a commit is made for. */
export interface GitIdentity {
  name: string;
  email: string;
}

/** One file to write (content) or delete (null) in a commit. */
export interface FileChange {
  path: string;
  content: Buffer | string | null;
}

export interface TreeEntry {
  path: string;
  oid: string;
  size: number;
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** The branch moved while we were preparing a commit (another writer won); the caller retries. */
export class GitRefConflict extends Error {
  constructor(readonly branch: string) {
    super(`Branch ${branch} moved during the commit`);
    this.name = 'GitRefConflict';
  }
}

const ZERO_OID = '0000000000000000000000000000000000000000';
const SAFE_REF = /^(?!.*\.\.)(?!.*\/\/)(?!\/)(?!.*\/$)(?!.*\.lock$)[A-Za-z0-9._/-]{1,200}$/;

/** Git refuses some branch names; we refuse a few more (spaces, control characters, `..`). */
export function isSafeBranchName(name: string): boolean {
  return SAFE_REF.test(name) && !name.startsWith('-');
}

interface RunOptions {
  input?: Buffer | string;
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. `cat-file -e`). */
  okCodes?: number[];
}

/**
 * The only door to git: every git command of the server runs through this class, against one bare
 * repository. Writes never touch a work tree: blobs are hashed into the object store, a tree is
 * built in a private index file and the branch moves with a compare-and-swap `update-ref`, so a
 * crash at any point leaves the branch on its last complete commit and two writers cannot lose
 * each other's changes.
 */
export class Git {
  constructor(
    readonly gitDir: string,
    /** Credentials and other settings for remote commands, passed through the environment only. */
    private readonly baseEnv: Record<string, string> = {},
  ) {}

  /** Creates a bare repository whose default branch is `main`, if none exists there yet. */
  static async initBare(gitDir: string): Promise<Git> {
    await mkdir(gitDir, { recursive: true });
    const git = new Git(gitDir);
    await git.run(['init', '--bare', '--quiet', '--initial-branch=main']);
    return git;
  }

  /** Runs git with the repository's settings; rejects with GitError on failure. */
  async run(args: string[], options: RunOptions = {}): Promise<{ stdout: Buffer; stderr: string; code: number }> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', ['--git-dir', this.gitDir, ...args], {
        env: {
          ...process.env,
          // Never prompt, never read the user's or system's git configuration.
          GIT_TERMINAL_PROMPT: '0',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          LC_ALL: 'C',
          ...this.baseEnv,
          ...options.env,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) => reject(new GitError(`git could not start: ${error.message}`, null, '')));
      child.on('close', (code) => {
        const stderr = Buffer.concat(err).toString('utf8');
        const ok = code === 0 || (code !== null && options.okCodes?.includes(code));
        if (ok) resolve({ stdout: Buffer.concat(out), stderr, code: code ?? 0 });
        else reject(new GitError(`git ${args[0] ?? ''} failed: ${stderr.trim().split('\n')[0] ?? ''}`, code, stderr));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input ?? '');
    });
  }

  private async text(args: string[], options?: RunOptions): Promise<string> {
    return (await this.run(args, options)).stdout.toString('utf8');
  }

  /** The commit a ref points at, or null when it does not exist. */
  async revParse(ref: string): Promise<string | null> {
    const result = await this.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okCodes: [1] });
    const oid = result.stdout.toString('utf8').trim();
    return result.code === 0 && oid ? oid : null;
  }

  async branches(): Promise<string[]> {
    const out = await this.text(['for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
    return out.split('\n').filter(Boolean);
  }

  /** A file's bytes at a commit, or null when the path is not a file there. */
  async readFile(commit: string, filePath: string): Promise<Buffer | null> {
    const result = await this.run(['cat-file', 'blob', `${commit}:${filePath}`], { okCodes: [128] });
    return result.code === 0 ? result.stdout : null;
  }

  /** Reads many blobs in one process. */
  async readBlobs(oids: string[]): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>();
    if (oids.length === 0) return blobs;
    const { stdout } = await this.run(['cat-file', '--batch'], { input: `${oids.join('\n')}\n` });
    let offset = 0;
    while (offset < stdout.length) {
      const headerEnd = stdout.indexOf(0x0a, offset);
      const [oid, type, sizeText] = stdout.subarray(offset, headerEnd).toString('utf8').split(' ');
      if (type === 'missing' || !oid || !sizeText) {
        offset = headerEnd + 1;
        continue;
      }
      const size = Number(sizeText);
      blobs.set(oid, stdout.subarray(headerEnd + 1, headerEnd + 1 + size));
      offset = headerEnd + 1 + size + 1;
    }
    return blobs;
  }

  /** Every file under `prefix` (recursively) at a commit, with blob ids and sizes. */
  async listTree(commit: string, prefix = ''): Promise<TreeEntry[]> {
    const args = ['ls-tree', '-r', '-l', '-z', '--full-tree', commit];
    if (prefix) args.push('--', prefix);
    const out = await this.text(args);
    return out
      .split('\0')
      .filter(Boolean)
      .flatMap((line) => {
        const tab = line.indexOf('\t');
        const [mode, type, oid, size] = line.slice(0, tab).split(/\s+/);
        if (type !== 'blob' || !oid || mode === '120000') return [];
        return [{ path: line.slice(tab + 1), oid, size: Number(size) }];
      });
  }

  /**
   * Commits `changes` on top of `expectedHead` (null for a branch's first commit) and moves the
   * branch there only if it still points at `expectedHead`. Returns the new commit, or the old one
   * when the changes change nothing.
   */
  async commit(
    branch: string,
    expectedHead: string | null,
    changes: FileChange[],
    author: GitIdentity,
    message: string,
  ): Promise<{ commit: string; changed: boolean }> {
    const indexFile = path.join(this.gitDir, `rehearse-index-${randomBytes(6).toString('hex')}`);
    const env = { GIT_INDEX_FILE: indexFile };
    try {
      if (expectedHead) await this.run(['read-tree', expectedHead], { env });
      const lines: string[] = [];
      for (const change of changes) {
        if (change.content === null) {
          lines.push(`0 ${ZERO_OID}\t${change.path}`);
        } else {
          const oid = (await this.text(['hash-object', '-w', '--stdin'], { input: change.content })).trim();
          lines.push(`100644 ${oid}\t${change.path}`);
        }
      }
      if (lines.length > 0) await this.run(['update-index', '--index-info'], { env, input: `${lines.join('\n')}\n` });
      const tree = (await this.text(['write-tree'], { env })).trim();
      if (expectedHead) {
        const headTree = (await this.text(['rev-parse', `${expectedHead}^{tree}`])).trim();
        if (headTree === tree) return { commit: expectedHead, changed: false };
      }
      const identity = {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
      };
      const parentArgs = expectedHead ? ['-p', expectedHead] : [];
      const commit = (
        await this.text(['commit-tree', tree, ...parentArgs, '-F', '-'], { env: identity, input: message })
      ).trim();
      const moved = await this.run(['update-ref', `refs/heads/${branch}`, commit, expectedHead ?? ZERO_OID], {
        okCodes: [1, 128],
      });
      if (moved.code !== 0) throw new GitRefConflict(branch);
      return { commit, changed: true };
    } finally {
      await rm(indexFile, { force: true });
    }
  }

  async createBranch(name: string, from: string): Promise<void> {
    await this.run(['update-ref', `refs/heads/${name}`, from, ZERO_OID]);
  }

  async deleteBranch(name: string): Promise<void> {
    await this.run(['update-ref', '-d', `refs/heads/${name}`]);
  }

  /** When a path last changed on a ref (ISO date), or null when it never existed there. */
  async lastChanged(ref: string, filePath: string): Promise<string | null> {
    const out = (await this.text(['log', '-1', '--format=%cI', ref, '--', filePath])).trim();
    return out || null;
  }

  /** Commits on a ref, newest first, touching a path when given. */
  async log(ref: string, limit: number, filePath?: string): Promise<{ commit: string; date: string; author: string; subject: string }[]> {
    const args = ['log', `-${limit}`, '--format=%H%x1f%cI%x1f%an%x1f%s', ref];
    if (filePath) args.push('--', filePath);
    const out = await this.text(args);
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [commit = '', date = '', author = '', subject = ''] = line.split('\x1f');
        return { commit, date, author, subject };
      });
  }

  /** A copy of this repository's door that authenticates remote commands with HTTP basic auth. */
  withCredentials(credentials: { username: string; token: string } | null): Git {
    if (!credentials) return this;
    const basic = Buffer.from(`${credentials.username}:${credentials.token}`).toString('base64');
    // Passed as environment configuration: never on the command line, never in .git/config.
    return new Git(this.gitDir, {
      ...this.baseEnv,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    });
  }

  /** Branch heads of a remote URL (verifies that the URL and credentials work). */
  async lsRemote(url: string): Promise<Map<string, string>> {
    const out = await this.text(['ls-remote', '--heads', url]);
    const heads = new Map<string, string>();
    for (const line of out.split('\n').filter(Boolean)) {
      const [oid, ref] = line.split('\t');
      if (oid && ref?.startsWith('refs/heads/')) heads.set(ref.slice('refs/heads/'.length), oid);
    }
    return heads;
  }

  async setOrigin(url: string): Promise<void> {
    const remotes = (await this.text(['remote'])).split('\n');
    await this.run(remotes.includes('origin') ? ['remote', 'set-url', 'origin', url] : ['remote', 'add', 'origin', url]);
  }

  /** Fetches every branch of origin into refs/remotes/origin/*; returns their heads. */
  async fetchOrigin(): Promise<Map<string, string>> {
    await this.run(['fetch', '--quiet', '--prune', 'origin', '+refs/heads/*:refs/remotes/origin/*']);
    const out = await this.text(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/remotes/origin/']);
    const heads = new Map<string, string>();
    for (const line of out.split('\n').filter(Boolean)) {
      const [ref, oid] = line.split(' ');
      if (ref && oid && ref !== 'refs/remotes/origin/HEAD') heads.set(ref.slice('refs/remotes/origin/'.length), oid);
    }
    return heads;
  }

  /** Pushes a commit to a branch of origin; false when the remote refused it (it moved on). */
  async pushToOrigin(commit: string, branch: string): Promise<boolean> {
    const result = await this.run(['push', '--quiet', '--porcelain', 'origin', `${commit}:refs/heads/${branch}`], {
      okCodes: [1],
    });
    return result.code === 0;
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const result = await this.run(['merge-base', '--is-ancestor', ancestor, descendant], { okCodes: [1] });
    return result.code === 0;
  }

  /** Moves a branch from `expected` to `target`; false when it was not at `expected` any more. */
  async moveBranch(branch: string, target: string, expected: string | null): Promise<boolean> {
    const result = await this.run(['update-ref', `refs/heads/${branch}`, target, expected ?? ZERO_OID], {
      okCodes: [1, 128],
    });
    return result.code === 0;
  }

  /** A tar of the tree at a commit, streamed. */
  archive(commit: string): Readable {
    const child = spawn('git', ['--git-dir', this.gitDir, 'archive', '--format=tar', commit], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return child.stdout;
  }
}
