import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { EGRESS_PROXY_ENV, EGRESS_SOCKET_ENV, startEgressProxy, type EgressPolicy } from '@rehearse/egress';
import { killProcess, runChild, startChild, type ChildResult } from './child-process.js';
import { claimJobUid, jobUidRange, type JobUid } from './job-uids.js';

// The one door to the job sandbox (docs/security.md). Tenant code (step definitions, API steps,
// the URLs a scenario opens) runs only in a process started here: under bubblewrap, as an
// unprivileged user, with a clean environment, its own temporary HOME, the job's folder as the
// only writable place, read-only views of the system and of the runner's code, no view of the
// server's DATA_DIR, other jobs' folders or the agent's credentials, in a cgroup that caps its
// memory and task count, under a hard deadline. Nothing here imports a browser.

/** An operator of a trusted single-user install may run jobs without the sandbox. */
export const UNSANDBOXED_VARIABLE = 'REHEARSE_UNSANDBOXED_WORKERS';

/**
 * Where a job's memory and task limits come from: `cgroup` (the default) makes a cgroup per job and
 * refuses to start where none can be made; `container` lets a worker inside a container whose
 * cgroups are read-only (Docker, Podman and Kubernetes by default) run jobs under the container's
 * own limits instead, still boxed by bubblewrap. The image sets `container`.
 */
export const JOB_LIMITS_VARIABLE = 'REHEARSE_JOB_LIMITS';
const JOB_LIMITS_CHOICES = ['cgroup', 'container'] as const;
type JobLimitsSource = (typeof JOB_LIMITS_CHOICES)[number];

function jobLimitsSource(env: NodeJS.ProcessEnv = process.env): JobLimitsSource {
  const value = env[JOB_LIMITS_VARIABLE]?.trim() || 'cgroup';
  if ((JOB_LIMITS_CHOICES as readonly string[]).includes(value)) return value as JobLimitsSource;
  throw new Error(`${JOB_LIMITS_VARIABLE} must be one of ${JOB_LIMITS_CHOICES.join(', ')}, not "${value}"`);
}

/** Folders a `bwrap` found on PATH is trusted from: a PATH entry a user can write to must not supply the sandbox. */
const TRUSTED_BIN_DIRS = new Set(['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin']);

/**
 * bubblewrap as this process's PATH finds it, from a system folder only; undefined when PATH has
 * none (a machine without it, or a start whose PATH leaves it out on purpose).
 */
function findBwrap(pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    const resolved = path.resolve(dir || '.');
    if (TRUSTED_BIN_DIRS.has(resolved) && existsSync(path.join(resolved, 'bwrap'))) return path.join(resolved, 'bwrap');
  }
  return undefined;
}
/** The PATH's bubblewrap, or where Debian puts it (which the probe then finds missing). */
const BWRAP = findBwrap() ?? 'bwrap';
const SETPRIV = '/usr/bin/setpriv';
const SH = '/bin/sh';
/**
 * Debian's `nobody`: the job's user inside the sandbox. Outside, a worker running as root gives
 * each job a host uid of its own (`job-uids.ts`); the sandbox probe still runs as `nobody`.
 */
const JOB_UID = 65534;
const JOB_GID = 65534;
/** Inside the sandbox: a tmpfs, so HOME and TMPDIR die with the job. */
const JOB_TMP = '/tmp';
const JOB_HOME = '/tmp/home';
const JOB_PATH = '/usr/local/bin:/usr/bin:/bin';
/** The host name a job sees, in place of the machine's. */
const JOB_HOSTNAME = 'rehearse-job';

/** Joins the cgroup files given first (`n` of them), then execs the rest: the job is counted before it can fork. */
const CGROUP_JOIN = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';

/** What one job may use; a job that needs more is stopped (OOM kill, failed fork). */
export interface SandboxLimits {
  memoryBytes: number;
  /** Processes and threads together (a Chromium with its helpers and Node use ~100-200). */
  tasks: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { memoryBytes: 2 * 1024 ** 3, tasks: 1024 };

/**
 * System files a job reads: the dynamic linker's cache, name resolution, TLS roots, fonts (and
 * their cache) and Chromium's configuration. /etc as a whole stays out (shadow, the host's other
 * configuration).
 */
const ETC_FILES = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/gai.conf',
  '/etc/host.conf',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/fonts',
  // The system's font cache: without it every browser launch scans the fonts again.
  '/var/cache/fontconfig',
  '/etc/chromium',
  '/etc/chromium.d',
  '/etc/mime.types',
];

/** Host variables a job may see (browser choice and locale); everything else is left behind. */
const PASSED_VARIABLES = [
  'CHROMIUM_PATH',
  'CHROMIUM_HEADLESS_SHELL_PATH',
  'REHEARSE_HEADLESS_SHELL',
  'FIREFOX_PATH',
  'WEBKIT_PATH',
  'TZ',
  'LANG',
];

type CgroupLayout = { kind: 'v1'; memory: string; pids: string; cpuacct?: string | undefined } | { kind: 'v2'; base: string };

/** Whether jobs can be sandboxed here, and if not, the piece that is missing. */
export type SandboxProbe =
  | {
      ok: true;
      limits: string;
      dropsUser: boolean;
      /** Whether the job's box may name its host (`rehearse-job`); a container's seccomp may refuse. */
      namesHost: boolean;
      /** false where jobs share the container's limits (REHEARSE_JOB_LIMITS=container and no cgroup to make). */
      perJobCgroup?: false;
    }
  | { ok: false; missing: string };

export type SandboxMode = 'sandboxed' | 'unsandboxed';

let cachedProbe: Promise<SandboxProbe> | undefined;

/**
 * tsx's compile cache for the runner's TypeScript, filled once per process by a job that runs only
 * our code (a fixed workspace without step definitions), then given to every job read-only: a job
 * starts without recompiling the runner (~1 s of CPU), and cannot change what the next job runs.
 */
let compileCache: Promise<string | undefined> | undefined;
/** Where tsx looks inside the sandbox: `${tmpdir()}/tsx-${uid}`. */
const JOB_TSX_CACHE = `${JOB_TMP}/tsx-${JOB_UID}`;

/** The runner's code (its package, its dependencies, the workspace packages it links to). */
function codeRoots(): string[] {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const roots = new Set<string>([realpathSync(packageDir)]);
  // Every node_modules from the package up: Node resolves imports through each of them.
  for (let dir = packageDir; ; dir = path.dirname(dir)) {
    const modules = path.join(dir, 'node_modules');
    if (existsSync(modules)) {
      roots.add(realpathSync(modules));
      // Workspace packages are symlinks out of node_modules; their targets must be visible too.
      const scope = path.join(modules, '@rehearse');
      if (existsSync(scope)) for (const entry of readdirSync(scope)) roots.add(realpathSync(path.join(scope, entry)));
      const manifest = path.join(dir, 'package.json');
      if (existsSync(manifest)) roots.add(manifest);
    }
    if (path.dirname(dir) === dir) break;
  }
  return [...roots];
}

/**
 * The first folder on the way to `target` (itself included when it is a folder) that a job's user
 * may not enter, or undefined when it can reach it. Jobs run as uids of their own without groups
 * (so only the bits for others count), and bubblewrap binds the code roots as that user, so a
 * runner installed under a folder like root's own home (mode 700) would fail every job with
 * bubblewrap's "Permission denied".
 */
function closedToJobUser(target: string): { dir: string; mode: string } | undefined {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    const info = statSync(dir, { throwIfNoEntry: false });
    if (!info?.isDirectory()) continue;
    if ((info.mode & 0o1) === 0) return { dir, mode: (info.mode & 0o777).toString(8) };
  }
  return undefined;
}

/** Reads which cgroup this process is in and where its memory/pids controllers are mounted. */
function cgroupLayout(): CgroupLayout | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return undefined;
  }
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.split(':'));
  const v1 = (controller: string) => {
    const line = lines.find(([, controllers]) => controllers?.split(',').includes(controller));
    const mount = `/sys/fs/cgroup/${controller}`;
    return line && existsSync(mount) ? path.join(mount, line.slice(2).join(':')) : undefined;
  };
  const memory = v1('memory');
  const pids = v1('pids');
  if (memory && pids) return { kind: 'v1', memory, pids, cpuacct: v1('cpuacct') };
  const unified = lines.find(([id, controllers]) => id === '0' && controllers === '');
  if (unified && existsSync('/sys/fs/cgroup/cgroup.controllers'))
    return { kind: 'v2', base: path.join('/sys/fs/cgroup', unified.slice(2).join(':')) };
  return undefined;
}

/** A job's own cgroup(s): memory and task limits, the list of its processes, removal. */
class JobCgroup {
  private constructor(
    private readonly dirs: string[],
    /** Where the kernel counts the job's CPU time, and in which unit. */
    private readonly cpu?: { file: string; kind: 'v1' | 'v2' },
  ) {}

  /** Creates the cgroup with its limits; throws when this machine will not let us. */
  static async create(layout: CgroupLayout, limits: SandboxLimits): Promise<JobCgroup> {
    const name = `rehearse-job-${process.pid}-${randomBytes(4).toString('hex')}`;
    if (layout.kind === 'v1') {
      const memory = path.join(layout.memory, name);
      const pids = path.join(layout.pids, name);
      const cpuacct = layout.cpuacct ? path.join(layout.cpuacct, name) : undefined;
      const group = new JobCgroup(
        cpuacct ? [memory, pids, cpuacct] : [memory, pids],
        cpuacct ? { file: path.join(cpuacct, 'cpuacct.usage'), kind: 'v1' } : undefined,
      );
      try {
        await mkdir(memory);
        await mkdir(pids);
        if (cpuacct) await mkdir(cpuacct);
        await writeFile(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
        await writeFile(path.join(pids, 'pids.max'), String(limits.tasks));
      } catch (error) {
        await group.remove();
        throw error;
      }
      return group;
    }
    const dir = path.join(layout.base, name);
    const group = new JobCgroup([dir], { file: path.join(dir, 'cpu.stat'), kind: 'v2' });
    try {
      await mkdir(dir);
      await writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes));
      await writeFile(path.join(dir, 'pids.max'), String(limits.tasks));
    } catch (error) {
      await group.remove();
      throw error;
    }
    return group;
  }

  /** The files a process writes its pid to, to join every controller of the job. */
  get procsFiles(): string[] {
    return this.dirs.map((dir) => path.join(dir, 'cgroup.procs'));
  }

  /** CPU seconds the job's processes used so far (all of them, reaped or not); undefined if not counted. */
  async cpuSeconds(): Promise<number | undefined> {
    if (!this.cpu) return undefined;
    const text = await readFile(this.cpu.file, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    if (this.cpu.kind === 'v1') return Number(text.trim()) / 1e9;
    const usec = /^usage_usec (\d+)$/m.exec(text)?.[1];
    return usec === undefined ? undefined : Number(usec) / 1e6;
  }

  /** SIGKILLs whatever is still in the job's cgroup (a process that left the process group). */
  async killAll(): Promise<void> {
    for (const file of this.procsFiles) {
      const pids = await readFile(file, 'utf8').catch(() => '');
      for (const pid of pids.split('\n').filter(Boolean)) killProcess(Number(pid));
    }
  }

  /** Removes the cgroup once its processes are gone (the kernel reaps them shortly after a kill). */
  async remove(): Promise<void> {
    for (const dir of this.dirs) {
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          await rmdir(dir);
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') break;
          if (attempt === 0) await this.killAll();
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
      }
    }
  }
}

function exec(command: string, args: string[], timeoutMs = 10_000): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, env: { PATH: JOB_PATH } }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() || (error?.message ?? '') });
    });
  });
}

/**
 * Checks once per process that a job can be boxed here: bubblewrap is installed, it can create a
 * user namespace (as our user, or as `nobody` when we are root), and a cgroup for the job's
 * memory and task limits can be created. The answer names the first missing piece.
 */
export function probeSandbox(tools: SandboxTools = {}): Promise<SandboxProbe> {
  if (tools.bwrap) return probe(tools.bwrap);
  cachedProbe ??= probe(BWRAP);
  return cachedProbe;
}

/** Where the sandbox's tools are; tests point at a missing one to see the refusal. */
export interface SandboxTools {
  bwrap?: string;
}

/**
 * The system a job sees: /usr read-only, with the merged-/usr links (/bin, /sbin, /lib, /lib64)
 * and its own /proc. The probe boxes the same root, so a host where it works runs jobs too.
 */
const SYSTEM_ROOT = [
  '--ro-bind',
  '/usr',
  '/usr',
  '--symlink',
  'usr/bin',
  '/bin',
  '--symlink',
  'usr/sbin',
  '/sbin',
  '--symlink',
  'usr/lib',
  '/lib',
  '--symlink',
  'usr/lib64',
  '/lib64',
  '--proc',
  '/proc',
];

async function probe(bwrap: string): Promise<SandboxProbe> {
  if (process.platform !== 'linux') return { ok: false, missing: 'the job sandbox needs Linux (bubblewrap and cgroups)' };
  if (!path.isAbsolute(bwrap) || !existsSync(bwrap)) {
    const where = path.isAbsolute(bwrap) ? bwrap : `no bwrap on PATH in ${[...TRUSTED_BIN_DIRS].join(', ')}`;
    return { ok: false, missing: `bubblewrap is not installed (${where}; Debian package "bubblewrap")` };
  }
  let limitsSource: JobLimitsSource;
  try {
    limitsSource = jobLimitsSource();
  } catch (error) {
    return { ok: false, missing: (error as Error).message };
  }
  const root = process.getuid?.() === 0;
  if (root && !existsSync(SETPRIV)) return { ok: false, missing: `setpriv is not installed (${SETPRIV}; Debian package "util-linux")` };
  if (root) {
    // A bad REHEARSE_JOB_UIDS stops the start with its sentence, not the first job.
    try {
      jobUidRange();
    } catch (error) {
      return { ok: false, missing: (error as Error).message };
    }
  }
  const box = [
    bwrap,
    '--unshare-user',
    '--uid',
    String(JOB_UID),
    '--gid',
    String(JOB_GID),
    '--unshare-pid',
    '--unshare-net',
    ...SYSTEM_ROOT,
    '/usr/bin/true',
  ];
  const attempt = (command: string[]) =>
    root
      ? exec(SETPRIV, [`--reuid=${JOB_UID}`, `--regid=${JOB_GID}`, '--clear-groups', '--', ...command])
      : exec(command[0]!, command.slice(1));
  const tried = await attempt(box);
  // A container's default seccomp profile refuses sethostname even in the job's own UTS namespace;
  // the job then keeps the container's name (it still cannot change it).
  const namesHost = tried.ok && (await attempt([box[0]!, '--unshare-uts', '--hostname', JOB_HOSTNAME, ...box.slice(1)])).ok;
  if (!tried.ok)
    return {
      ok: false,
      missing: `bubblewrap cannot create a user namespace here (${tried.output}); allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 / user.max_user_namespaces)`,
    };
  if (root) {
    const closed = codeRoots()
      .map(closedToJobUser)
      .find((found) => found !== undefined);
    if (closed)
      return {
        ok: false,
        missing: `job users cannot reach the runner's files: ${closed.dir} lets no other user enter it (mode ${closed.mode}). Install the runner under a folder every user may enter (for example /opt/rehearse-worker), or let others enter that folder (chmod o+x ${closed.dir})`,
      };
  }
  const layout = cgroupLayout();
  const cgroupProblem = layout
    ? await JobCgroup.create(layout, DEFAULT_LIMITS).then(
        (group) => group.remove().then(() => undefined),
        (error: Error) => `cannot create a cgroup for a job's memory and process limits (${error.message})`,
      )
    : 'no cgroup with the memory and pids controllers is mounted (/sys/fs/cgroup)';
  if (!cgroupProblem) return { ok: true, limits: `cgroup ${layout!.kind}`, dropsUser: root, namesHost };
  if (limitsSource === 'container')
    return { ok: true, limits: "the container's (no per-job cgroup)", dropsUser: root, namesHost, perJobCgroup: false };
  return {
    ok: false,
    missing: `${cgroupProblem}; run the worker as root or give it a delegated cgroup, or inside a container set ${JOB_LIMITS_VARIABLE}=container to use the container's limits`,
  };
}

/**
 * How jobs run on this machine: sandboxed when the probe passes; unsandboxed only when the
 * operator set REHEARSE_UNSANDBOXED_WORKERS=1. Otherwise throws a sentence naming what is missing,
 * which is why a worker (or the server's "Run scenario" runner) refuses to start.
 */
export async function requireSandbox(env: NodeJS.ProcessEnv = process.env, tools: SandboxTools = {}): Promise<SandboxMode> {
  const flag = env[UNSANDBOXED_VARIABLE];
  if (flag === '1' || flag === 'true') return 'unsandboxed';
  const probe = await probeSandbox(tools);
  if (probe.ok) return 'sandboxed';
  throw new Error(
    `Tenant code cannot be sandboxed on this machine: ${probe.missing}. Install what is missing, or set ${UNSANDBOXED_VARIABLE}=1 to run jobs without the sandbox (trusted single-user installs only).`,
  );
}

export interface JobProcessSpec {
  mode: SandboxMode;
  /** The job's own folder: the only writable place, seen at the same path inside. */
  workDir: string;
  /** Working directory, inside workDir. */
  cwd: string;
  /** Arguments to `node` (the runner's bin and its command). */
  nodeArgs: string[];
  /** The job's own variables (its short-lived key, the server's address, ...). */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  limits?: SandboxLimits | undefined;
  /** Host folders that must stay invisible even if a code root contains them (DATA_DIR). */
  hidden?: string[] | undefined;
  /**
   * What the job may connect to. A sandboxed job has no network of its own: its only way out is
   * an egress proxy applying this policy, reached through a socket bound into the sandbox. Absent,
   * a sandboxed job reaches nothing; an unsandboxed one is not filtered.
   */
  egress?: EgressPolicy | undefined;
  /**
   * The runner's entry point (its `bin/rehearse.mjs`), to fill the shared compile cache with once
   * per process. Absent, jobs compile the runner for themselves: slower, the same result.
   */
  runnerBin?: string | undefined;
}

/** What bwrapArguments adds for the compile cache: none, the shared one read-only, or the warm-up's. */
type CacheBind = { dir: string; writable: boolean } | undefined;

/** How a job's process ended; sandboxed jobs also say how much CPU their whole tree used. */
export interface JobResult extends ChildResult {
  cpuSeconds?: number;
}

/** The clean environment of a job: a fixed base, a few host browser settings, the job's own. */
function jobEnvironment(spec: JobProcessSpec, home: string, tmp: string): Record<string, string> {
  const env: Record<string, string> = { PATH: JOB_PATH, HOME: home, TMPDIR: tmp, LANG: 'C.UTF-8', NO_COLOR: '1' };
  for (const name of PASSED_VARIABLES) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (usableBrowserCache(cache)) env.PLAYWRIGHT_BROWSERS_PATH = cache;
  if (spec.mode === 'sandboxed') {
    // Chromium's own sandbox cannot nest inside an unprivileged user namespace; the bubblewrap
    // box is the boundary (docs/security.md).
    env.REHEARSE_NO_SANDBOX = '1';
  }
  return { ...env, ...spec.env };
}

/**
 * Whether Playwright's browser cache is worth binding into a job: it holds a browser, and the
 * job's user (nobody) can reach it. A cache with no browser (an npx run of playwright leaves one
 * with only its `.links` registry) under root's private HOME would make bubblewrap refuse to start.
 */
export function usableBrowserCache(cache: string): boolean {
  let names: string[];
  try {
    names = readdirSync(cache);
  } catch {
    return false;
  }
  if (!names.some((name) => /^(chromium|firefox|webkit)/.test(name))) return false;
  for (let dir = cache; ; dir = path.dirname(dir)) {
    try {
      // Others need search (x) on every folder down to it, and read (r) on the cache itself.
      const { mode } = statSync(dir);
      if ((mode & 0o001) === 0 || (dir === cache && (mode & 0o004) === 0)) return false;
    } catch {
      return false;
    }
    if (path.dirname(dir) === dir) return true;
  }
}

/** Host paths (outside /usr) the job must read: browsers named by path, a Node outside /usr. */
function extraReadOnly(env: Record<string, string>): string[] {
  const paths = [path.dirname(path.dirname(process.execPath))];
  for (const name of ['CHROMIUM_PATH', 'CHROMIUM_HEADLESS_SHELL_PATH', 'FIREFOX_PATH', 'WEBKIT_PATH']) {
    if (env[name]) paths.push(path.dirname(env[name]));
  }
  if (env.PLAYWRIGHT_BROWSERS_PATH) paths.push(env.PLAYWRIGHT_BROWSERS_PATH);
  return paths.filter((p) => p !== '/' && !p.startsWith('/usr/') && p !== '/usr' && existsSync(p));
}

function inside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The bubblewrap command line for a job (exported for tests and docs). */
export function bwrapArguments(spec: JobProcessSpec, env: Record<string, string>, cache?: CacheBind, namesHost = true): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-user',
    '--uid',
    String(JOB_UID),
    '--gid',
    String(JOB_GID),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(namesHost ? ['--hostname', JOB_HOSTNAME] : []),
    '--cap-drop',
    'ALL',
    ...SYSTEM_ROOT,
    '--dev',
    '/dev',
    '--tmpfs',
    '/dev/shm',
    '--tmpfs',
    JOB_TMP,
    '--dir',
    JOB_HOME,
  ];
  for (const file of ETC_FILES) args.push('--ro-bind-try', file, file);
  const roots = [...codeRoots(), ...extraReadOnly(env)];
  for (const root of roots) args.push('--ro-bind', root, root);
  // A code root that happens to hold the server's data (DATA_DIR inside the checkout) is
  // covered by an empty tmpfs there.
  for (const hidden of spec.hidden ?? []) {
    if (roots.some((root) => inside(hidden, root))) args.push('--tmpfs', hidden);
  }
  if (cache) args.push(cache.writable ? '--bind' : '--ro-bind', cache.dir, JOB_TSX_CACHE);
  args.push('--bind', spec.workDir, spec.workDir, '--chdir', spec.cwd, '--clearenv');
  // No network but its own loopback; the egress proxy's socket is the only door out.
  args.push('--unshare-net');
  if (env[EGRESS_SOCKET_ENV]) args.push('--bind', env[EGRESS_SOCKET_ENV], env[EGRESS_SOCKET_ENV]);
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value);
  return args;
}

/** One egress proxy per policy in this process, started on the first job that needs it. */
const egressProxies = new Map<string, Promise<{ url: string; socketPath: string }>>();

function jobEgress(policy: EgressPolicy): Promise<{ url: string; socketPath: string }> {
  const key = JSON.stringify(policy);
  let pending = egressProxies.get(key);
  if (!pending) {
    pending = (async () => {
      // Jobs (nobody) may pass through this folder to the socket, not list it.
      const dir = await mkdtemp(path.join(tmpdir(), 'rehearse-egress-'));
      await chmod(dir, 0o711);
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      const socketPath = path.join(dir, 'proxy.sock');
      // Lives as long as the process, which it must not keep alive (a bench or a CLI would never end).
      const proxy = await startEgressProxy({ policy, socketPath, unref: true });
      return { url: proxy.url, socketPath };
    })();
    pending.catch(() => egressProxies.delete(key));
    egressProxies.set(key, pending);
  }
  return pending;
}

/** The job's own variables plus how it reaches the egress proxy (a socket inside the sandbox, a URL outside). */
async function withEgress(spec: JobProcessSpec): Promise<JobProcessSpec> {
  if (!spec.egress) return spec;
  const egress = await jobEgress(spec.egress);
  const door: Record<string, string> =
    spec.mode === 'sandboxed' ? { [EGRESS_SOCKET_ENV]: egress.socketPath } : { [EGRESS_PROXY_ENV]: egress.url };
  return { ...spec, env: { ...spec.env, ...door } };
}

/**
 * A fresh, empty folder for one job, under a root only its owner lists (mode 711), so the job's
 * user can reach its own folder by name and nothing else there. Remove it with `rm -r` when done.
 */
export async function createJobFolder(name: string): Promise<string> {
  const jobsRoot = path.join(tmpdir(), 'rehearse-jobs');
  await mkdir(jobsRoot, { recursive: true, mode: 0o711 });
  await chmod(jobsRoot, 0o711);
  const dir = path.join(jobsRoot, `${name.replace(/[^\w.-]/g, '_')}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { mode: 0o700 });
  return dir;
}

/** Gives a folder to the job's host user (we are root, the job has a uid of its own), or back. */
async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  const info = await lstat(dir);
  await chown(dir, uid, gid);
  if (!info.isDirectory()) return;
  for (const entry of await readdir(dir)) {
    const child = path.join(dir, entry);
    if ((await lstat(child)).isSymbolicLink()) continue;
    await chownTree(child, uid, gid);
  }
}

/**
 * Runs one job's tenant process: `node <nodeArgs>` in the sandbox (or, unsandboxed, as a plain
 * child with the same clean environment), in its own process group and cgroup, under the deadline
 * and the abort signal, which kill the whole tree. Resolves with its exit code and output.
 */
export async function runJobProcess(given: JobProcessSpec): Promise<JobResult> {
  const spec = await withEgress(given);
  if (spec.mode === 'sandboxed' && spec.runnerBin) {
    compileCache ??= warmCompileCache(spec.runnerBin);
    return runSandboxed(spec, { dir: (await compileCache) ?? '', writable: false });
  }
  return runSandboxed(spec, undefined);
}

/** A job process that stays (a warm runner): lines in on its standard input, lines out on its standard output. */
export interface LiveJobProcess {
  readonly pid: number | undefined;
  /** Whether it has exited. */
  readonly hasExited: boolean;
  /** Resolves once it exited and its cgroup is gone. */
  readonly exited: Promise<JobResult>;
  /** Writes to its standard input. */
  send(text: string): void;
  /** Hears each line of its standard output. */
  onLine(listener: (line: string) => void): void;
  /** Hears its standard error as it comes. */
  onStderr(listener: (text: string) => void): void;
  /** Closes its standard input: it finishes and exits. */
  end(): void;
  /** Kills its whole tree: process group and cgroup. */
  kill(): void;
}

/**
 * Starts a long-lived job process (a warm runner) behind the same door as `runJobProcess`: the
 * sandbox, its clean environment, the hidden folders, the egress proxy, its own cgroup. It has
 * no deadline of its own: each piece of work it is given runs under the job's `Deadline`, whose
 * signal the caller answers with `kill()`, which kills the whole tree.
 */
export async function startJobProcess(given: Omit<JobProcessSpec, 'timeoutMs' | 'signal'>): Promise<LiveJobProcess> {
  const spec: JobProcessSpec = { ...(await withEgress({ ...given, timeoutMs: 0 })) };
  let cache: CacheBind;
  if (spec.mode === 'sandboxed' && spec.runnerBin) {
    compileCache ??= warmCompileCache(spec.runnerBin);
    const dir = await compileCache;
    cache = dir ? { dir, writable: false } : undefined;
  }
  const { group, command, cwd, env, jobUid } = await jobCommand(spec, cache);
  const lineListeners: ((line: string) => void)[] = [];
  const stderrListeners: ((text: string) => void)[] = [];
  let partial = '';
  let exited = false;
  const live = startChild(SH, ['-c', CGROUP_JOIN, 'sh', String(group?.procsFiles.length ?? 0), ...(group?.procsFiles ?? []), ...command], {
    cwd,
    env,
    onKill: () => void group?.killAll(),
    onStdout: (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) for (const listener of lineListeners) listener(line);
    },
    onStderr: (text) => {
      for (const listener of stderrListeners) listener(text);
    },
  });
  const done = live.done.then(async (result) => {
    exited = true;
    // Whatever it started and left behind goes with it.
    await group?.killAll();
    const cpuSeconds = await group?.cpuSeconds();
    await group?.remove();
    await jobUid?.release();
    return cpuSeconds === undefined ? result : { ...result, cpuSeconds };
  });
  return {
    pid: live.child.pid,
    get hasExited() {
      return exited;
    },
    exited: done,
    send: (text) => {
      if (!exited) live.child.stdin.write(text);
    },
    onLine: (listener) => lineListeners.push(listener),
    onStderr: (listener) => stderrListeners.push(listener),
    end: () => live.child.stdin.end(),
    kill: live.kill,
  };
}

/**
 * Fills a fresh compile cache by running the runner on a fixed one-scenario workspace (its step is
 * undefined, so no browser work and no code but ours). Undefined when that fails: jobs then compile
 * for themselves, slower but the same.
 */
async function warmCompileCache(runner: string): Promise<string | undefined> {
  const probed = await probeSandbox();
  const cache = await mkdtemp(path.join(tmpdir(), 'rehearse-compile-cache-'));
  // Synchronous: processes (worker threads) often leave through process.exit.
  process.once('exit', () => rmSync(cache, { recursive: true, force: true }));
  const dir = await createJobFolder('compile-cache');
  try {
    await mkdir(path.join(dir, 'features'));
    await writeFile(path.join(dir, 'features', 'warm.feature'), 'Feature: Warm\n\n  Scenario: Warm\n    Given a step nobody defined\n');
    await writeFile(path.join(dir, 'env.json'), JSON.stringify({ name: 'warm', baseUrl: 'http://127.0.0.1:9/' }));
    const spec: JobProcessSpec = {
      mode: 'sandboxed',
      workDir: dir,
      cwd: dir,
      nodeArgs: [runner, 'run', '--env', 'env.json', '--headless', '--out', path.join(dir, 'report'), 'features/warm.feature'],
      env: {},
      timeoutMs: 120_000,
    };
    await runSandboxed(spec, { dir: cache, writable: true });
    // From now on only we may change it; jobs see it read-only (and need to reach it to bind it).
    if (probed.ok && probed.dropsUser) await chownTree(cache, 0, 0);
    await chmod(cache, 0o755);
    return cache;
  } catch {
    await rm(cache, { recursive: true, force: true });
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The command line of a job's process, its working directory and environment, and the cgroup it
 * joins (none for an unsandboxed job on a machine that cannot make one).
 */
async function jobCommand(
  spec: JobProcessSpec,
  cache: CacheBind,
): Promise<{ group: JobCgroup | undefined; command: string[]; cwd: string; env: Record<string, string>; jobUid: JobUid | undefined }> {
  if (spec.mode === 'unsandboxed') {
    const env = jobEnvironment(spec, process.env.HOME ?? spec.workDir, process.env.TMPDIR ?? '/tmp');
    // Memory and task limits (and the CPU count) still apply where this machine lets us make a
    // cgroup; a machine that cannot is why jobs run unsandboxed at all, so then without.
    const layout = cgroupLayout();
    const group = layout ? await JobCgroup.create(layout, spec.limits ?? DEFAULT_LIMITS).catch(() => undefined) : undefined;
    return { group, command: [process.execPath, ...spec.nodeArgs], cwd: spec.cwd, env, jobUid: undefined };
  }
  const probe = await probeSandbox();
  if (!probe.ok) throw new Error(`Tenant code cannot be sandboxed on this machine: ${probe.missing}.`);
  const layout = cgroupLayout();
  if (!layout && probe.perJobCgroup !== false) throw new Error('Tenant code cannot be sandboxed on this machine: no cgroup.');
  const env = jobEnvironment(spec, JOB_HOME, JOB_TMP);
  const box = [BWRAP, ...bwrapArguments(spec, env, cache?.dir ? cache : undefined, probe.namesHost), process.execPath, ...spec.nodeArgs];
  // Under the container's limits the job has no cgroup of its own; bubblewrap's pid namespace still
  // takes every process of the job down with it.
  const group = probe.perJobCgroup === false ? undefined : await JobCgroup.create(layout!, spec.limits ?? DEFAULT_LIMITS);
  if (!probe.dropsUser) return { group, command: box, cwd: spec.workDir, env: { PATH: JOB_PATH }, jobUid: undefined };
  let jobUid: JobUid | undefined;
  try {
    jobUid = await claimJobUid();
    const { uid } = jobUid;
    await chownTree(spec.workDir, uid, uid);
    // The compile cache's warm-up writes it (as this job); every other job reads it.
    if (cache?.writable) await chown(cache.dir, uid, uid);
    const command = [SETPRIV, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', ...box];
    return { group, command, cwd: spec.workDir, env: { PATH: JOB_PATH }, jobUid };
  } catch (error) {
    await jobUid?.release();
    await group?.remove();
    throw error;
  }
}

async function runSandboxed(spec: JobProcessSpec, cache: CacheBind): Promise<JobResult> {
  const { group, command, cwd, env, jobUid } = await jobCommand(spec, cache);
  try {
    if (!group) return await runChild(command[0]!, command.slice(1), { cwd, env, timeoutMs: spec.timeoutMs, signal: spec.signal });
    return await runInCgroup(group, command, { cwd, env, spec });
  } finally {
    // The cgroup was emptied first: nothing of the job runs under its uid any more.
    await jobUid?.release();
  }
}

/**
 * Runs a command as a member of the job's cgroup, which it joins before it starts (through a
 * shell that execs it), so every process the job ever starts is counted and limited (a process
 * moved in after starting could fork first). Removes the cgroup afterwards.
 */
async function runInCgroup(
  group: JobCgroup,
  command: string[],
  options: { cwd: string; env: Record<string, string>; spec: JobProcessSpec },
): Promise<JobResult> {
  try {
    const files = group.procsFiles;
    const result = await runChild(SH, ['-c', CGROUP_JOIN, 'sh', String(files.length), ...files, ...command], {
      cwd: options.cwd,
      env: options.env,
      timeoutMs: options.spec.timeoutMs,
      signal: options.spec.signal,
      onKill: () => void group.killAll(),
    });
    const cpuSeconds = await group.cpuSeconds();
    return cpuSeconds === undefined ? result : { ...result, cpuSeconds };
  } finally {
    await group.remove();
  }
}
