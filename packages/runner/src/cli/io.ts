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

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Where `--token` without `--server` goes: a single-machine install (DESIGN §1). */
export const DEFAULT_SERVER = 'http://localhost:4000';
