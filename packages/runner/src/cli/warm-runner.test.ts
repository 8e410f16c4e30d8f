import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WarmRunnerAnswer, type WarmRunnerRequest } from '@rehearse/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from './io.js';

const BIN = fileURLToPath(new URL('../../../cli/bin/rehearse.mjs', import.meta.url));
/** Nothing answers there: a pull fails at once, which is all these tests need of a server. */
const NO_SERVER = 'http://127.0.0.1:9';
const folders: string[] = [];

/** `rehearse warm-runner` as a worker thread starts it, with `args` after `--server`. */
function startRunner(args: string[]) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'warm-runner-test-'));
  folders.push(cwd);
  const child = spawn(process.execPath, [BIN, 'warm-runner', '--server', NO_SERVER, ...args], { cwd, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const waiting: ((answer: WarmRunnerAnswer) => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    let newline: number;
    while ((newline = stdout.indexOf('\n')) >= 0) {
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      const answer = WarmRunnerAnswer.parse(JSON.parse(line));
      // News of a running request, not an answer.
      if (answer.type !== 'step') waiting.shift()?.(answer);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    ask(request: WarmRunnerRequest): Promise<WarmRunnerAnswer> {
      const answer = new Promise<WarmRunnerAnswer>((resolve) => waiting.push(resolve));
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return answer;
    },
    send(request: WarmRunnerRequest): void {
      child.stdin.write(`${JSON.stringify(request)}\n`);
    },
    exited,
    stderr: () => stderr,
    kill: () => child.kill('SIGKILL'),
  };
}

const prepare = (projectId: string, branch = 'main'): WarmRunnerRequest => ({
  type: 'prepare',
  projectId,
  branch,
  commit: 'c0ffee',
  token: 'rh_job_key',
});

const run = (projectId: string): WarmRunnerRequest => ({
  type: 'run',
  id: 'job-1',
  projectId,
  commit: 'c0ffee',
  token: 'rh_job_key',
  featurePath: 'features/shop.feature',
  scenarioName: 'Any',
  envFile: '',
  heal: false,
  resultFile: 'result.json',
});

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// A worker thread starts its next runner before it knows the run (a spare): the first `prepare`
// names the project and branch it serves, for good, even when that preparing fails.
describe('a spare warm runner (started without a project)', () => {
  it('is bound by its first prepare, and ends at a prepare for another project', { timeout: 60_000 }, async () => {
    const runner = startRunner([]);
    try {
      const first = await runner.ask(prepare('project-a'));
      expect(first.type).toBe('unprepared');
      runner.send(prepare('project-b'));
      expect(await runner.exited).toBe(EXIT.usage);
      expect(runner.stderr()).toContain('a request for project project-b reached the runner of project-a');
    } finally {
      runner.kill();
    }
  });

  it('ends at a prepare for another branch of its project', { timeout: 60_000 }, async () => {
    const runner = startRunner([]);
    try {
      await runner.ask(prepare('project-a', 'main'));
      runner.send(prepare('project-a', 'feature/other'));
      expect(await runner.exited).toBe(EXIT.usage);
    } finally {
      runner.kill();
    }
  });

  it('ends at a scenario to run before any prepare: it serves nobody yet', { timeout: 60_000 }, async () => {
    const runner = startRunner([]);
    try {
      runner.send(run('project-a'));
      expect(await runner.exited).toBe(EXIT.usage);
      expect(runner.stderr()).toContain('reached the runner of no project');
    } finally {
      runner.kill();
    }
  });

  it('is refused a project without its branch', { timeout: 60_000 }, async () => {
    const runner = startRunner(['--project', 'project-a']);
    expect(await runner.exited).toBe(EXIT.usage);
    expect(runner.stderr()).toContain('rehearse warm-runner takes --server, and --project with --branch');
  });
});
