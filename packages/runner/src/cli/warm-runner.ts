import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Messages, scenarioRunArgs, WarmRunnerAnswer, WarmRunnerRequest, type LiveStep, type RunResult } from '@rehearse/contract';
import { UsageError } from '../support/settings.js';
import { closeSharedBrowser } from '../support/world.js';
import { parse } from './args.js';
import { EXIT, type CliIo } from './io.js';
import { runPull } from './pull.js';
import { launchLikelyBrowser, runRun, SupportCache, warmUp } from './run.js';

export const WARM_RUNNER_OPTIONS = {
  server: { type: 'string' },
  project: { type: 'string' },
  branch: { type: 'string' },
} as const;

/** Where the workspace lives inside the runner's folder (its working directory). */
const WORKSPACE = 'workspace';

/**
 * `rehearse warm-runner --server S [--project P --branch B]` (issue 21): a long-lived runner the
 * server ("Run scenario") or a worker thread (execution jobs) starts in the job sandbox, one per
 * project, branch and commit. Started without a project (a worker thread's spare, started before
 * its run is known), it launches its browser and waits: its first `prepare` binds it to that
 * request's project and branch for good. It reads requests
 * (`WarmRunnerRequest`, JSON lines) on standard input and answers each (`WarmRunnerAnswer`) on
 * standard output, one at a time (a `run` also sends a `step` line as each step starts and ends): `prepare` pulls the commit with the request's token, loads the
 * support code and launches the browser; `run` runs one scenario with `rehearse run`'s own code,
 * its support code reused and the browser kept, a fresh context per scenario (the World opens
 * one), the request's token for its calls only. Anything else the process prints (step code
 * included) goes to standard error, so it cannot be mistaken for an answer. It never serves
 * another project or commit than it prepared; it ends when its input closes.
 */
export async function runWarmRunner(args: string[], io: CliIo): Promise<number> {
  const { values: opts, positionals } = parse(args, WARM_RUNNER_OPTIONS);
  if (!opts.server || !opts.project !== !opts.branch || positionals.length > 0)
    throw new UsageError('rehearse warm-runner takes --server, and --project with --branch (a server or a worker starts it)');
  const { server } = opts;
  // Unbound until the first `prepare` when started as a spare; never rebound after.
  let bound = opts.project && opts.branch ? { project: opts.project, branch: opts.branch } : undefined;
  // Answers are the only thing on standard output: everything else printed goes to standard error.
  const answerOut = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  const answer = (message: WarmRunnerAnswer) => answerOut(`${JSON.stringify(WarmRunnerAnswer.parse(message))}\n`);
  const quietIo: CliIo = { ...io, stdout: io.stderr };
  const root = path.resolve(io.cwd);
  const workspace = path.join(root, WORKSPACE);
  const scratch = mkdtempSync(path.join(root, 'support-'));
  const cache = new SupportCache(scratch);
  let prepared: string | undefined;
  const requestIo = (token: string): CliIo => ({ ...quietIo, env: { ...io.env, REHEARSE_TOKEN: token } });
  launchLikelyBrowser(io.env);

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (!line.trim()) continue;
      let request: WarmRunnerRequest;
      try {
        request = WarmRunnerRequest.parse(JSON.parse(line));
      } catch (error) {
        io.stderr.write(`warm-runner: not a request (${(error as Error).message})\n`);
        return EXIT.usage;
      }
      if (!bound && request.type === 'prepare') bound = { project: request.projectId, branch: request.branch };
      // One project and branch per runner, ever: a request for another is a server bug, and ends the runner.
      if (request.projectId !== bound?.project || (request.type === 'prepare' && request.branch !== bound.branch)) {
        io.stderr.write(
          `warm-runner: a request for project ${request.projectId} reached the runner of ${bound?.project ?? 'no project'}\n`,
        );
        return EXIT.usage;
      }
      const { project, branch } = bound;
      if (request.type === 'prepare') {
        if (prepared) {
          answer(prepared === request.commit ? { type: 'ready', commit: prepared } : { type: 'unprepared', reason: 'Already prepared.' });
          continue;
        }
        try {
          const pullArgs = ['--server', server, '--project', project, '--branch', branch, '--commit', request.commit, '--dir', workspace];
          const errors: string[] = [];
          const pulled = await runPull(pullArgs, { ...requestIo(request.token), stderr: { write: (text: string) => errors.push(text) } });
          if (pulled !== EXIT.ok) throw new Error(errors.join('').trim() || Messages.jobWorkspaceNotDownloaded);
          await warmUp(workspace, { ...quietIo, cwd: workspace }, cache);
          prepared = request.commit;
          answer({ type: 'ready', commit: request.commit });
        } catch (error) {
          await rm(workspace, { recursive: true, force: true });
          answer({ type: 'unprepared', reason: (error as Error).message });
        }
        continue;
      }
      const result = await runOne(request, prepared, server, branch, workspace, requestIo(request.token), cache, (step) =>
        answer({ type: 'step', id: request.id, step }),
      );
      answer({ type: 'result', id: request.id, result });
    }
    return EXIT.ok;
  } finally {
    // Whatever ends it (its input closed, a request it refuses), its browser and input go with it.
    process.stdin.destroy();
    await closeSharedBrowser();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** One `run` request: `rehearse run` for one scenario in the prepared workspace; never throws. */
async function runOne(
  request: Extract<WarmRunnerRequest, { type: 'run' }>,
  prepared: string | undefined,
  server: string,
  branch: string,
  workspace: string,
  io: CliIo,
  cache: SupportCache,
  onStep: (step: LiveStep) => void,
): Promise<RunResult> {
  const refused = (reason: string): RunResult => ({
    exitCode: EXIT.usage,
    runId: null,
    reportLink: null,
    errorClass: 'infrastructure',
    reason,
  });
  if (prepared !== request.commit) return refused(`This runner holds ${prepared ?? 'no commit'}, not ${request.commit}.`);
  const out = path.join(path.dirname(workspace), 'reports', request.id.replace(/[^\w-]/g, '_'));
  try {
    // `runRun` takes what follows `rehearse run`.
    const args = scenarioRunArgs({
      server,
      projectId: request.projectId,
      branch,
      commit: request.commit,
      envFile: request.envFile,
      heal: request.heal,
      browser: request.browser,
      viewport: request.viewport,
      appendTo: request.appendTo,
      scenarioName: request.scenarioName,
      out,
      resultFile: request.resultFile,
      featurePath: request.featurePath,
    }).slice(1);
    return await runRun(args, { ...io, cwd: workspace }, { keepBrowser: true, supportCache: cache, keptReportsOnly: true, onStep });
  } catch (error) {
    return refused((error as Error).message);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
