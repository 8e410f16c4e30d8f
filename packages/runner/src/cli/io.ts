/** Where the CLI reads and writes; the bin passes the process's, tests pass their own. */
export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  fetch: typeof fetch;
}

export function processIo(): CliIo {
  return { cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, fetch: globalThis.fetch.bind(globalThis) };
}

/**
 * What the composed `rehearse` (packages/cli) hands the runner's commands. The recorder builds on
 * this package, so the runner cannot import it; the composer imports both and passes it in.
 */
export interface CliParts {
  /** The `rehearse` executable itself: worker threads, jobs and the link handler start it again. */
  bin: string;
  /** `rehearse record`: the recorder's CLI. */
  record: (args: string[], io: CliIo) => Promise<number>;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Where `--token` without `--server` goes: a single-machine install (DESIGN §1). */
export const DEFAULT_SERVER = 'http://localhost:4000';

/**
 * Set while `rehearse run` reads a workspace's cucumber profile: it brings its own support code,
 * formatters (behind its redaction step) and settings, so `@rehearse/runner/profile` then adds
 * nothing — else the run would load the report formatter twice into the same folder and fetch
 * test data twice. It lives here, not in profile.ts: importing that module is what builds the
 * profile (reading the workspace, asking the server for test data).
 */
export const RUN_CLI_READING_PROFILE = Symbol.for('rehearse.run-cli.reading-profile');
