import { useEgressProxyFromEnv } from '@rehearse/egress';
import { UsageError, WorkspaceFileError } from '../support/settings.js';
import { USAGE } from './args.js';
import { EXIT, processIo, type CliIo, type CliParts } from './io.js';
import { runOpen, runSetup } from './link-handler.js';
import { runPull } from './pull.js';
import { unreachableServer } from './server.js';

export { DEFAULT_SERVER, EXIT, type CliIo, type CliParts } from './io.js';
export { readProjectFile } from './project-file.js';
export { resolveProject, warnOnVersionMismatch } from './server.js';
export { ensureLoaders } from './loaders.js';
export { recordArgumentsOf } from './link-handler.js';

/**
 * The `rehearse` command line: `run`, `pull`, `worker`, `warm-runner` (started by a server), `record`, `setup` and `open`. Answers the exit code (0 passed, 1 a scenario or
 * the upload failed, 2 usage or setup error) instead of exiting, so tests and workers call it
 * in-process. `run` and `pull` need nothing more; the commands that start `rehearse` again or record
 * need the parts the composed CLI (packages/cli) passes.
 */
export async function runCli(argv: string[], io: Partial<CliIo> = {}, parts?: CliParts): Promise<number> {
  const full: CliIo = { ...processIo(), ...io };
  const [command, ...args] = argv;
  try {
    // What these commands fetch and browse for a user goes through the egress proxy a job is given.
    if (command === 'run' || command === 'pull' || command === 'record' || command === 'open' || command === 'warm-runner')
      await useEgressProxyFromEnv(full.env);
    switch (command) {
      case 'run':
        // run, warm-runner and worker are imported when asked for: with cucumber-js, Playwright and
        // the report they cost a cold process ~1.2 s of CPU to load, which `pull` (the first of a
        // job's two sandboxed processes), `setup`, `open` and `--help` never use.
        return (await (await import('./run.js')).runRun(args, full)).exitCode;
      case 'pull':
        return await runPull(args, full);
      case 'warm-runner':
        return await (await import('./warm-runner.js')).runWarmRunner(args, full);
      case 'worker':
        return await (await import('./worker.js')).runWorker(args, full, composed(parts, command));
      case 'record':
        return await composed(parts, command).record(args, full);
      case 'setup':
        return await runSetup(args, full, composed(parts, command));
      case 'open':
        return await runOpen(args, full, composed(parts, command));
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        full.stdout.write(USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    const unreachable = unreachableServer(error);
    if (unreachable) {
      full.stderr.write(`rehearse: ${unreachable}\n`);
      return EXIT.usage;
    }
    if (!(error instanceof UsageError)) throw error;
    full.stderr.write(`rehearse: ${error.message}\n${error instanceof WorkspaceFileError ? '' : `\n${USAGE}`}`);
    return EXIT.usage;
  }
}

function composed(parts: CliParts | undefined, command: string): CliParts {
  if (!parts)
    throw new Error(`rehearse ${command} runs in the composed CLI (@rehearse/cli), which passes the recorder and its own executable`);
  return parts;
}
