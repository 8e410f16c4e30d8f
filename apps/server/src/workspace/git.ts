import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Deadline, describeDuration, killProcessGroup, stopChild } from '@rehearse/processes';
import { gitObjects, type LooseObject } from './git-objects-thread.js';
import { Lru } from './lru.js';

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
  /** A deadline for the whole command and every process it starts (remote commands: a host that never answers). */
  limitMs?: number;
}

/** How long one remote command (ls-remote, fetch, push) may take before it is stopped. */
export const REMOTE_COMMAND_LIMIT_MS = 120_000;

/** What a helper's answer parser says about the bytes received so far. */
type Parsed<T> = { value: T; used: number } | { need: number };

interface HelperRequest {
  input: string;
  parse: (buffer: Buffer) => Parsed<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A helper with nothing to do for this long exits; the next request starts it again. */
const HELPER_IDLE_MS = 30_000;

/**
 * One long-lived git process that answers line commands on stdin in order (`cat-file
 * --batch-command`, `update-ref --stdin`): a request costs a pipe round trip instead of a process.
 * It starts on first use, exits when idle or closed, and a new one starts after it died (a crash
 * fails only the requests it was answering). It never keeps Node's event loop alive while idle,
 * and it exits by itself when this process dies (its stdin closes).
 */
class GitHelper {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly waiting: HelperRequest[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  private need = 0;
  private stderr = '';
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly args: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The running process's id, if one runs (tests check that none is left behind). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  request<T>(input: string, parse: (buffer: Buffer) => Parsed<T>): Promise<T> {
    if (this.closed) return Promise.reject(new GitError('git helper is closed', null, ''));
    const child = this.child ?? this.start();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.waiting.length === 0) this.setRef(child, true);
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ input, parse, resolve: resolve as (value: unknown) => void, reject });
      child.stdin.write(input);
    });
  }

  /** Ends the process (it exits on end of input) and waits for it; kills it if it lingers. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    await this.stop();
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    // Detached first: a request from now on starts a new process instead of writing to this one.
    this.child = null;
    for (const request of this.waiting.splice(0)) request.reject(new GitError('git helper is closed', null, ''));
    await stopChild(child, { ask: () => child.stdin.end(), graceMs: 2_000 });
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn('git', this.args, { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.chunks = [];
    this.buffered = 0;
    this.need = 0;
    this.stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.child === child) this.receive(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4_000);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => this.exited(child, `git could not start: ${error.message}`));
    child.on('close', (code) => this.exited(child, `git ${this.args[0] ?? ''} helper exited (${code ?? 'signal'})`));
    return child;
  }

  private exited(child: ChildProcessWithoutNullStreams, message: string): void {
    if (this.child !== child) return;
    this.child = null;
    const stderr = this.stderr;
    for (const request of this.waiting.splice(0))
      request.reject(new GitError(`${message}: ${stderr.trim().split('\n')[0] ?? ''}`, null, stderr));
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.waiting.length > 0 && this.buffered >= this.need && this.buffered > 0) {
      const buffer = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.chunks = [buffer];
      const parsed = this.waiting[0]!.parse(buffer);
      if ('need' in parsed) {
        this.need = parsed.need;
        if (buffer.length >= parsed.need) throw new Error('git helper parser asked for bytes it already has');
        return;
      }
      this.need = 0;
      const rest = buffer.subarray(parsed.used);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.waiting.shift()!.resolve(parsed.value);
    }
    if (this.waiting.length === 0 && this.child) {
      this.setRef(this.child, false);
      this.idle = setTimeout(() => void this.stop(), HELPER_IDLE_MS);
      this.idle.unref();
    }
  }

  /** A helper with requests in flight keeps the process alive; an idle one does not. */
  private setRef(child: ChildProcessWithoutNullStreams, ref: boolean): void {
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as { ref?: () => void; unref?: () => void }[]) {
      if (ref) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/** The answer to `info` or `contents` of cat-file --batch-command: the header, and the bytes for `contents`. */
function parseObject(withContent: boolean) {
  return (buffer: Buffer): Parsed<{ oid: string; type: string; data: Buffer | null; size: number } | null> => {
    const newline = buffer.indexOf(0x0a);
    if (newline < 0) return { need: buffer.length + 1 };
    const [oid = '', type = '', sizeText] = buffer.subarray(0, newline).toString('utf8').split(' ');
    if (sizeText === undefined || !/^[0-9a-f]{40}$/.test(oid)) return { value: null, used: newline + 1 };
    const size = Number(sizeText);
    if (!withContent) return { value: { oid, type, size, data: null }, used: newline + 1 };
    const end = newline + 1 + size + 1;
    if (buffer.length < end) return { need: end };
    return { value: { oid, type, size, data: Buffer.from(buffer.subarray(newline + 1, newline + 1 + size)) }, used: end };
  };
}

/** `update-ref --stdin` answers a transaction with three lines: start, prepare, commit: ok. */
function parseTransaction(buffer: Buffer): Parsed<true> {
  let used = 0;
  for (let line = 0; line < 3; line += 1) {
    const newline = buffer.indexOf(0x0a, used);
    if (newline < 0) return { need: buffer.length + 1 };
    used = newline + 1;
  }
  return { value: true, used };
}

const WRITTEN_TRUST_MS = 60 * 60_000;

/** The tree with no entries. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbc4904a';

interface TreeItem {
  mode: string;
  name: string;
  oid: string;
}

function parseTree(data: Buffer): TreeItem[] {
  const items: TreeItem[] = [];
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    const nul = data.indexOf(0, space);
    items.push({
      mode: data.subarray(offset, space).toString('latin1'),
      name: data.subarray(space + 1, nul).toString('utf8'),
      oid: data.subarray(nul + 1, nul + 21).toString('hex'),
    });
    offset = nul + 21;
  }
  return items;
}

const isTree = (item: TreeItem) => item.mode === '40000';

/** Git's tree order: by name bytes, a tree's name compared as if it ended with '/'. */
function treeOrder(a: TreeItem, b: TreeItem): number {
  return Buffer.compare(Buffer.from(isTree(a) ? `${a.name}/` : a.name), Buffer.from(isTree(b) ? `${b.name}/` : b.name));
}

function serializeTree(items: TreeItem[]): Buffer {
  return Buffer.concat(
    [...items].sort(treeOrder).flatMap((item) => [Buffer.from(`${item.mode} ${item.name}\0`), Buffer.from(item.oid, 'hex')]),
  );
}

/** Git drops these from the ends of a name or email, and '<', '>' and line breaks anywhere. */
const IDENT_CRUD = /^[\s.,:;<>"\\']+|[\s.,:;<>"\\']+$/g;
function identPart(value: string): string {
  return value.replace(/[<>\n\r\0]/g, '').replace(IDENT_CRUD, '');
}

function ident(who: GitIdentity, when: Date): string {
  const offset = -when.getTimezoneOffset();
  const zone = `${offset >= 0 ? '+' : '-'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}${String(Math.abs(offset) % 60).padStart(2, '0')}`;
  const name = identPart(who.name) || identPart(who.email) || 'Rehearse';
  return `${name} <${identPart(who.email)}> ${Math.floor(when.getTime() / 1000)} ${zone}`;
}

/** The id git gives a blob with these bytes (what `git hash-object` prints), without writing it. */
export function blobId(content: Buffer | string): string {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** Per-repository long-lived helpers and object caches, shared by every Git door of one repository. */
class RepositoryHelpers {
  readonly objects: GitHelper;
  readonly refs: GitHelper;
  /** Parsed trees and commit → tree, by object id: objects never change. */
  readonly trees = new Lru<string, TreeItem[]>(20_000);
  readonly commitTrees = new Lru<string, string>(5_000);
  readonly sizes = new Lru<string, number>(50_000);
  /**
   * When this process last wrote (or found) an object. Trusted for an hour only: `git gc` (which a
   * fetch may start) prunes unreachable loose objects, though only ones weeks old.
   */
  readonly written = new Lru<string, number>(50_000);

  constructor(gitDir: string, env: NodeJS.ProcessEnv) {
    this.objects = new GitHelper(['--git-dir', gitDir, 'cat-file', '--batch-command'], env);
    this.refs = new GitHelper(['--git-dir', gitDir, 'update-ref', '--stdin'], env);
  }

  close(): Promise<void> {
    return Promise.all([this.objects.close(), this.refs.close()]).then(() => undefined);
  }
}

/** Revisions handed to the helper go on one line: no whitespace or control characters. */
const UNSAFE_REVISION = /[\p{Cc}\s]/u;
const isSafeRevision = (revision: string) => revision.length > 0 && revision.length <= 300 && !UNSAFE_REVISION.test(revision);

/**
 * The only door to git: every git command of the server runs through this class, against one bare
 * repository. Writes never touch a work tree: blobs are hashed into the object store, a tree is
 * built in a private index file and the branch moves with a compare-and-swap `update-ref`, so a
 * crash at any point leaves the branch on its last complete commit and two writers cannot lose
 * each other's changes.
 */
export class Git {
  private readonly helpers: RepositoryHelpers;

  constructor(
    readonly gitDir: string,
    /** Credentials and other settings for remote commands, passed through the environment only. */
    private readonly baseEnv: Record<string, string> = {},
    helpers?: RepositoryHelpers,
    /** The deadline of each remote command (ls-remote, fetch, push). */
    private readonly remoteLimitMs = REMOTE_COMMAND_LIMIT_MS,
  ) {
    this.helpers = helpers ?? new RepositoryHelpers(gitDir, this.env());
  }

  /** Stops this repository's long-lived git processes (they restart if the door is used again). */
  close(): Promise<void> {
    return this.helpers.close();
  }

  /** Process ids of the long-lived helpers now running (for tests: none may outlive close). */
  helperPids(): number[] {
    return [this.helpers.objects.pid, this.helpers.refs.pid].filter((pid): pid is number => pid !== undefined);
  }

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      // Never prompt, never read the user's or system's git configuration.
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      LC_ALL: 'C',
      ...this.baseEnv,
      ...extra,
    };
  }

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
      const bounded = options.limitMs !== undefined;
      const child = spawn('git', ['--git-dir', this.gitDir, ...args], {
        env: this.env(options.env),
        stdio: ['pipe', 'pipe', 'pipe'],
        // A bounded command leads its own process group, so its deadline stops the helpers it starts (git-remote-https) too.
        detached: bounded,
      });
      const deadline = bounded ? new Deadline(options.limitMs ?? 0) : undefined;
      deadline?.signal.addEventListener('abort', () => killProcessGroup(child.pid), { once: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) => reject(new GitError(`git could not start: ${error.message}`, null, '')));
      child.on('close', (code) => {
        deadline?.dispose();
        const stderr = Buffer.concat(err).toString('utf8');
        const ok = code === 0 || (code !== null && options.okCodes?.includes(code));
        if (deadline?.expired) {
          reject(
            new GitError(`git ${args[0] ?? ''} did not finish within ${describeDuration(deadline.limitMs)} and was stopped`, code, stderr),
          );
        } else if (ok) resolve({ stdout: Buffer.concat(out), stderr, code: code ?? 0 });
        else reject(new GitError(`git ${args[0] ?? ''} failed: ${stderr.trim().split('\n')[0] ?? ''}`, code, stderr));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input ?? '');
    });
  }

  private async text(args: string[], options?: RunOptions): Promise<string> {
    return (await this.run(args, options)).stdout.toString('utf8');
  }

  /** The commit a ref (or revision) points at, or null when it does not exist. */
  async revParse(ref: string): Promise<string | null> {
    if (!isSafeRevision(ref)) return null;
    const loose = this.looseBranchHead(ref);
    if (loose) return loose;
    const info = await this.object(`${ref}^{commit}`, false);
    return info?.type === 'commit' ? info.oid : null;
  }

  /**
   * A branch's head read straight from its loose ref file, or undefined when the ref is not a
   * loose branch (packed, missing, or not `refs/heads/…`): every read asks for a branch head, and
   * a 41-byte read from the page cache costs microseconds where a round trip to the cat-file
   * helper waits behind a writer's object requests and for the helper to be scheduled. Safe
   * without a lock: git (and our update-ref helper) replace a ref file by renaming a complete
   * one into place, and branches always point at commits.
   */
  private looseBranchHead(ref: string): string | undefined {
    if (!ref.startsWith('refs/heads/') || !isSafeBranchName(ref.slice('refs/heads/'.length))) return undefined;
    let content: string;
    try {
      content = readFileSync(path.join(this.gitDir, ref), 'utf8');
    } catch {
      return undefined;
    }
    const oid = content.trim();
    return /^[0-9a-f]{40}$/.test(oid) ? oid : undefined;
  }

  /** One object through the cat-file helper; retried once if the helper died under the request. */
  private async object(revision: string, withContent: boolean) {
    const ask = () => this.helpers.objects.request(`${withContent ? 'contents' : 'info'} ${revision}\n`, parseObject(withContent));
    try {
      return await ask();
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      return ask();
    }
  }

  private async tree(oid: string): Promise<TreeItem[]> {
    if (oid === EMPTY_TREE) return [];
    const cached = this.helpers.trees.get(oid);
    if (cached) return cached;
    const object = await this.object(oid, true);
    if (object?.type !== 'tree' || !object.data) throw new GitError(`tree ${oid} is missing`, null, '');
    const items = parseTree(object.data);
    this.helpers.trees.set(oid, items);
    return items;
  }

  private async commitTree(commit: string): Promise<string> {
    const cached = this.helpers.commitTrees.get(commit);
    if (cached) return cached;
    const object = await this.object(commit, true);
    const tree = object?.type === 'commit' ? /^tree ([0-9a-f]{40})/.exec(object.data?.toString('utf8') ?? '')?.[1] : undefined;
    if (!tree) throw new GitError(`commit ${commit} is missing`, null, '');
    this.helpers.commitTrees.set(commit, tree);
    return tree;
  }

  /** The entry at a path of a commit (null when there is none). */
  private async entryAt(commit: string, filePath: string): Promise<TreeItem | null> {
    let entry: TreeItem = { mode: '40000', name: '', oid: await this.commitTree(commit) };
    for (const name of filePath.split('/').filter(Boolean)) {
      if (!isTree(entry)) return null;
      const next = (await this.tree(entry.oid)).find((item) => item.name === name);
      if (!next) return null;
      entry = next;
    }
    return entry;
  }

  /**
   * The object id at a path of a commit (a folder's tree or a file's blob), or null when there is
   * nothing there. Costs no git round trip for a commit this process wrote or read before.
   */
  async pathOid(commit: string, filePath: string): Promise<string | null> {
    return (await this.entryAt(commit, filePath))?.oid ?? null;
  }

  /** A file's bytes at a commit, or null when the path is not a file there. */
  async readFile(commit: string, filePath: string): Promise<Buffer | null> {
    const entry = await this.entryAt(commit, filePath);
    if (!entry || !entry.mode.startsWith('100')) return null;
    return (await this.readBlobs([entry.oid])).get(entry.oid) ?? null;
  }

  /** Reads many blobs, pipelined through the repository's cat-file helper. */
  async readBlobs(oids: string[]): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>();
    const unique = [...new Set(oids)].filter((oid) => /^[0-9a-f]{40}$/.test(oid));
    const objects = await Promise.all(unique.map((oid) => this.object(oid, true)));
    for (const object of objects) if (object?.type === 'blob' && object.data) blobs.set(object.oid, object.data);
    return blobs;
  }

  /** Every file under `prefix` (recursively) at a commit, with blob ids and sizes; symbolic links are left out. */
  async listTree(commit: string, prefix = ''): Promise<TreeEntry[]> {
    const top = await this.entryAt(commit, prefix);
    if (!top) return [];
    const files: { path: string; oid: string }[] = [];
    const base = prefix.split('/').filter(Boolean).join('/');
    if (!isTree(top)) {
      if (top.mode.startsWith('100')) files.push({ path: base, oid: top.oid });
    } else {
      const walk = async (oid: string, dir: string): Promise<void> => {
        for (const item of await this.tree(oid)) {
          const itemPath = dir ? `${dir}/${item.name}` : item.name;
          if (isTree(item)) await walk(item.oid, itemPath);
          else if (item.mode.startsWith('100')) files.push({ path: itemPath, oid: item.oid });
        }
      };
      await walk(top.oid, base);
    }
    const unknown = [...new Set(files.map((file) => file.oid).filter((oid) => this.helpers.sizes.get(oid) === undefined))];
    const infos = await Promise.all(unknown.map((oid) => this.object(oid, false)));
    for (const info of infos) if (info) this.helpers.sizes.set(info.oid, info.size);
    return files.map((file) => ({ ...file, size: this.helpers.sizes.get(file.oid) ?? 0 }));
  }

  async branches(): Promise<string[]> {
    const out = await this.text(['for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
    return out.split('\n').filter(Boolean);
  }

  /**
   * Commits `changes` on top of `expectedHead` (null for a branch's first commit) and moves the
   * branch there only if it still points at `expectedHead`. Returns the new commit, or the old one
   * when the changes change nothing. Objects are written first (loose, each renamed into place
   * complete) and only the trees on the changed paths are rewritten; the branch moves through the
   * repository's `update-ref --stdin` helper, so a crash at any point leaves it on a complete
   * commit, and a writer in another process that moved it first makes this one throw GitRefConflict.
   */
  async commit(
    branch: string,
    expectedHead: string | null,
    changes: FileChange[],
    author: GitIdentity,
    message: string,
  ): Promise<{ commit: string; changed: boolean }> {
    if (!isSafeBranchName(branch)) throw new GitError(`unsafe branch name ${JSON.stringify(branch)}`, null, '');
    const byPath = new Map<string, Buffer | null>();
    for (const change of changes) {
      const segments = change.path.split('/');
      if (
        segments.some(
          (segment) => !segment || segment === '.' || segment === '..' || segment.toLowerCase() === '.git' || segment.includes('\0'),
        )
      ) {
        throw new GitError(`unsafe path ${JSON.stringify(change.path)}`, null, '');
      }
      byPath.set(
        change.path,
        change.content === null ? null : typeof change.content === 'string' ? Buffer.from(change.content, 'utf8') : change.content,
      );
    }
    const baseTree = expectedHead ? await this.commitTree(expectedHead) : null;
    // Objects are hashed here and written together, off this thread, before the branch moves.
    const objects: LooseObject[] = [];
    const tree =
      (await this.applyChanges(
        baseTree,
        [...byPath].map(([filePath, content]) => ({ segments: filePath.split('/'), content })),
        objects,
      )) ?? this.hashObject('tree', Buffer.alloc(0), objects);
    if (expectedHead && tree === baseTree) return { commit: expectedHead, changed: false };
    const when = new Date();
    const text = [
      `tree ${tree}`,
      ...(expectedHead ? [`parent ${expectedHead}`] : []),
      `author ${ident(author, when)}`,
      `committer ${ident(author, when)}`,
      '',
      message.replace(/\0/g, '').replace(/\n*$/, '\n'),
    ].join('\n');
    const commit = this.hashObject('commit', Buffer.from(text, 'utf8'), objects);
    await gitObjects.write(path.join(this.gitDir, 'objects'), objects);
    const now = Date.now();
    for (const object of objects) this.helpers.written.set(object.oid, now);
    this.helpers.commitTrees.set(commit, tree);
    try {
      await this.helpers.refs.request(
        `start\nupdate refs/heads/${branch} ${commit} ${expectedHead ?? ZERO_OID}\nprepare\ncommit\n`,
        parseTransaction,
      );
    } catch (error) {
      // The helper exits when the compare-and-swap fails (and could die for other reasons): the ref says what happened.
      if (!(error instanceof GitError)) throw error;
      if ((await this.revParse(`refs/heads/${branch}`)) !== commit) throw new GitRefConflict(branch);
    }
    return { commit, changed: true };
  }

  /** The tree `base` with the changes applied (paths relative to it); null when it ends up empty. */
  private async applyChanges(
    base: string | null,
    changes: { segments: string[]; content: Buffer | null }[],
    objects: LooseObject[],
  ): Promise<string | null> {
    const items = new Map((base ? await this.tree(base) : []).map((item) => [item.name, item]));
    const deeper = new Map<string, { segments: string[]; content: Buffer | null }[]>();
    for (const change of changes) {
      const [name, ...rest] = change.segments as [string, ...string[]];
      if (rest.length > 0) {
        deeper.set(name, [...(deeper.get(name) ?? []), { segments: rest, content: change.content }]);
      } else if (change.content === null) {
        // Deleting a path removes a file there, never a folder (as `update-index` does).
        if (items.get(name) && !isTree(items.get(name)!)) items.delete(name);
      } else {
        items.set(name, { mode: '100644', name, oid: this.hashObject('blob', change.content, objects) });
      }
    }
    for (const [name, subChanges] of deeper) {
      const existing = items.get(name);
      const subtree = await this.applyChanges(existing && isTree(existing) ? existing.oid : null, subChanges, objects);
      if (subtree) items.set(name, { mode: '40000', name, oid: subtree });
      else if (existing && isTree(existing)) items.delete(name);
    }
    if (items.size === 0) return null;
    const list = [...items.values()];
    const oid = this.hashObject('tree', serializeTree(list), objects);
    this.helpers.trees.set(oid, list);
    return oid;
  }

  /**
   * An object's id, adding the object to `objects` (the commit's batch for the object writer,
   * git-objects-worker.mjs) unless this process wrote or found it lately.
   */
  private hashObject(type: 'blob' | 'tree' | 'commit', body: Buffer, objects: LooseObject[]): string {
    const header = Buffer.from(`${type} ${body.length}\0`);
    const oid = createHash('sha1').update(header).update(body).digest('hex');
    if (Date.now() - (this.helpers.written.get(oid) ?? 0) >= WRITTEN_TRUST_MS && !objects.some((object) => object.oid === oid)) {
      objects.push({ oid, data: Buffer.concat([header, body]) });
    }
    return oid;
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

  /**
   * A copy of this repository's door for remote commands: over http(s) only, through the egress
   * proxy (every connection, redirects included, meets the egress rules), authenticated with HTTP
   * basic auth when credentials are given.
   */
  forRemote(credentials: { username: string; token: string } | null, egressProxyUrl: string, limitMs = REMOTE_COMMAND_LIMIT_MS): Git {
    const config: [string, string][] = [['http.proxy', egressProxyUrl]];
    if (credentials) {
      const basic = Buffer.from(`${credentials.username}:${credentials.token}`).toString('base64');
      config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
    }
    // Passed as environment configuration: never on the command line, never in .git/config.
    const env: Record<string, string> = { ...this.baseEnv, GIT_ALLOW_PROTOCOL: 'http:https', GIT_CONFIG_COUNT: String(config.length) };
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
    return new Git(this.gitDir, env, this.helpers, limitMs);
  }

  /** Branch heads of a remote URL (verifies that the URL and credentials work). */
  async lsRemote(url: string): Promise<Map<string, string>> {
    const out = await this.text(['ls-remote', '--heads', url], { limitMs: this.remoteLimitMs });
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

  /**
   * Fetches every branch of origin (or of a URL not yet made the origin) into
   * refs/remotes/origin/*; returns their heads.
   */
  async fetchOrigin(remote = 'origin'): Promise<Map<string, string>> {
    await this.run(['fetch', '--quiet', '--prune', remote, '+refs/heads/*:refs/remotes/origin/*'], { limitMs: this.remoteLimitMs });
    const out = await this.text(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/remotes/origin/']);
    const heads = new Map<string, string>();
    for (const line of out.split('\n').filter(Boolean)) {
      const [ref, oid] = line.split(' ');
      if (ref && oid && ref !== 'refs/remotes/origin/HEAD') heads.set(ref.slice('refs/remotes/origin/'.length), oid);
    }
    return heads;
  }

  /** Deletes what a fetch left under refs/remotes/origin/ (a connection that did not complete). */
  async forgetOriginRefs(): Promise<void> {
    const refs = (await this.text(['for-each-ref', '--format=%(refname)', 'refs/remotes/origin/'])).split('\n').filter(Boolean);
    if (refs.length > 0) await this.run(['update-ref', '--stdin'], { input: refs.map((ref) => `delete ${ref}\n`).join('') });
  }

  /** Pushes a commit to a branch of origin (or of a URL); false when the remote refused it (it moved on). */
  async pushToOrigin(commit: string, branch: string, remote = 'origin'): Promise<boolean> {
    const result = await this.run(['push', '--quiet', '--porcelain', remote, `${commit}:refs/heads/${branch}`], {
      okCodes: [1],
      limitMs: this.remoteLimitMs,
    });
    return result.code === 0;
  }

  /** Deletes a branch of origin; false when the remote refused or did not have it. */
  async deleteOriginBranch(branch: string, remote = 'origin'): Promise<boolean> {
    const result = await this.run(['push', '--quiet', '--porcelain', remote, `:refs/heads/${branch}`], {
      okCodes: [1],
      limitMs: this.remoteLimitMs,
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
