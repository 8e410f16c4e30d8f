import { fileURLToPath } from 'node:url';
import { runCli as runRunnerCli, type CliIo } from '@rehearse/runner/cli';

/**
 * The `rehearse` executable. In the source tree and in the built package alike it is
 * `bin/rehearse.mjs` one folder up from this module (src/ here, dist/ there: pack/build.ts).
 */
export const REHEARSE_BIN = fileURLToPath(new URL('../bin/rehearse.mjs', import.meta.url));

/**
 * The `rehearse` command line: the runner's commands, with the recorder's `record` and this
 * executable handed to the ones that need them. The recorder is loaded only when a command records,
 * so `rehearse run` starts without it.
 */
export function runCli(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  return runRunnerCli(argv, io, {
    bin: REHEARSE_BIN,
    record: async (args, recordIo) => (await import('@rehearse/recorder/cli')).runRecord(args, recordIo),
  });
}
