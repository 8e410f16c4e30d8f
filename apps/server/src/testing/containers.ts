import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The image as a team gets it: built by deploy/image/build.sh (no registry: a Debian base from
// mmdebstrap, Node from the npm registry) and run with Podman, with only the privilege
// docs/deploy.md asks for. Tests that need it share one build per test process.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BUILD_SCRIPT = `${ROOT}deploy/image/build.sh`;
const POSTGRES_SCRIPT = `${ROOT}deploy/image/build-postgres.sh`;
const CONTAINERS_CONF = `${ROOT}deploy/image/containers.conf`;
/** Building the base (first time on a machine) and the image on two cores. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

/**
 * How long a started container may take to answer /api/health. Quiet, the image answers in ~6 s
 * (8 CPU-s: PGlite's migrations half of it); inside the whole suite on two cores it once took
 * over 60 s, its log still empty, so the bound is generous and the tests print what it took.
 */
export const CONTAINER_START_MS = 180_000;

/** Podman's environment for these tests: the repository's containers.conf (runc, cgroupfs). */
export const podmanEnv = (): NodeJS.ProcessEnv => ({ ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF });

/** Whether this machine can build and run the image (Podman and mmdebstrap installed, as .ci/run does). */
export function canRunContainers(): boolean {
  const found = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  return found('podman') && found('mmdebstrap');
}

/** Runs podman with these arguments; its output, or a rejection carrying what it printed. */
export function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('podman', args, { env: podmanEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`podman ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

/** Runs a container to its end (podman run --rm); its exit code and everything it printed. */
export function runToEnd(args: string[], timeoutMs = 120_000): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('podman', ['run', '--rm', ...args], { env: podmanEnv(), timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** Runs one of deploy/image's scripts; the image name it prints last. */
function runBuildScript(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(script, args, { env: podmanEnv(), timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed: ${error.message}\n${stderr.slice(-4000)}`));
      else resolve(stdout.trim().split('\n').at(-1)!);
    });
  });
}

/**
 * The image built from this checkout; its tag. build.sh reuses an image built from the same
 * sources, so test files in parallel processes build it once between them.
 */
export function buildImage(): Promise<string> {
  // An image already built by hand, for a quicker loop while changing only the tests.
  if (process.env.REHEARSE_TEST_IMAGE) return Promise.resolve(process.env.REHEARSE_TEST_IMAGE);
  return runBuildScript(BUILD_SCRIPT, ['localhost/rehearse:test']);
}

/** The registry-free PostgreSQL image (Debian's postgresql) the compose test runs. */
export function buildPostgresImage(): Promise<string> {
  return runBuildScript(POSTGRES_SCRIPT, []);
}

/** Removes containers (and their anonymous volumes) whatever state they are in. */
export async function removeContainers(...names: string[]): Promise<void> {
  if (names.length) await podman(['rm', '--force', '--volumes', '--ignore', ...names]).catch(() => undefined);
}

/** Polls `url` until it answers 2xx; the milliseconds that took. Throws with `logs()` when it never does. */
export async function waitForHealthy(url: string, timeoutMs: number, logs: () => Promise<string>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer in ${timeoutMs / 1000} s:\n${await logs()}`);
}
