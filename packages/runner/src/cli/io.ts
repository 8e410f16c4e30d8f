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
