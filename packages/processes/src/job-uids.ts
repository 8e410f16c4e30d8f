import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Host user ids for jobs, one per running job (DESIGN §6). A worker that runs as root drops each
 * job to its own unprivileged uid, so a job that escaped its sandbox still finds every other job's
 * folder (mode 700, owned by that job's uid) closed, where one shared `nobody` would open them all.
 * Inside the sandbox every job is still `nobody` (bubblewrap maps the host uid to 65534).
 *
 * The range: `REHEARSE_JOB_UIDS` (`<first>:<count>`), else root's subordinate range in /etc/subuid,
 * else 2,000,000,000 to 2,000,065,535 (no account, below 2^31, outside systemd's container ranges).
 * A uid is claimed by creating a file named after it (exclusive create, so the worker processes and
 * threads of one machine never share one), holding the claimer's pid: a claim whose process is gone
 * is taken over.
 */
export const JOB_UIDS_VARIABLE = 'REHEARSE_JOB_UIDS';
const DEFAULT_RANGE = { first: 2_000_000_000, count: 65_536 };
/** One file per uid in use, named after it. */
export const JOB_UID_CLAIMS = path.join(tmpdir(), 'rehearse-job-uids');

export interface JobUidRange {
  first: number;
  count: number;
}

/** A uid (and the same-numbered gid) held by one job until `release`. */
export interface JobUid {
  uid: number;
  release(): Promise<void>;
}

/** The range jobs' uids come from; a malformed `REHEARSE_JOB_UIDS` is an error naming it. */
export function jobUidRange(env: NodeJS.ProcessEnv = process.env, subuidFile = '/etc/subuid'): JobUidRange {
  const setting = env[JOB_UIDS_VARIABLE]?.trim();
  if (setting) {
    const match = /^(\d+):(\d+)$/.exec(setting);
    const first = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || first < 1000 || count < 1 || first + count > 2 ** 32 - 2) {
      throw new Error(
        `${JOB_UIDS_VARIABLE} must be <first uid>:<count> (first at least 1000, the range below 4294967294), got "${setting}".`,
      );
    }
    return { first, count };
  }
  try {
    for (const line of readFileSync(subuidFile, 'utf8').split('\n')) {
      const [owner, first, count] = line.trim().split(':');
      if ((owner === 'root' || owner === '0') && Number(first) >= 1000 && Number(count) >= 1)
        return { first: Number(first), count: Number(count) };
    }
  } catch {
    // No /etc/subuid: the default range.
  }
  return DEFAULT_RANGE;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims a free uid of `range` for one job. */
export async function claimJobUid(range: JobUidRange = jobUidRange()): Promise<JobUid> {
  await mkdir(JOB_UID_CLAIMS, { recursive: true, mode: 0o700 });
  // A random start spreads claimers, so they rarely meet on the same file.
  const start = Math.floor(Math.random() * range.count);
  for (let tried = 0; tried < range.count; tried++) {
    const uid = range.first + ((start + tried) % range.count);
    const file = path.join(JOB_UID_CLAIMS, String(uid));
    if (await claimFile(file)) {
      return {
        uid,
        release: async () => {
          await unlink(file).catch(() => undefined);
        },
      };
    }
  }
  throw new Error(`Every job uid of ${range.first}:${range.count} is in use (${JOB_UIDS_VARIABLE}).`);
}

/** A claim this old whose process is gone was left by a crash; a younger one may be a claim in the making. */
const STALE_AFTER_MS = 10_000;

/** Creates the claim file; a claim left by a process that is gone is taken over once. */
async function claimFile(file: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(file, 'utf8').catch(() => ''));
      if (!Number.isInteger(holder) || holder <= 0 || processAlive(holder)) return false;
      const made = (await stat(file).catch(() => undefined))?.mtimeMs ?? Date.now();
      if (Date.now() - made < STALE_AFTER_MS) return false;
      await unlink(file).catch(() => undefined);
    }
  }
  return false;
}
