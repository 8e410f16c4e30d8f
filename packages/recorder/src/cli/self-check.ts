import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { environmentFileName, recordingCheckOf, RunReport, type RecordingCheck } from '@rehearse/contract';
import { runCli } from '@rehearse/runner/cli';

/** What the local self-check replays: the commit a Publish made, on the machine that recorded it. */
export interface LocalCheckTarget {
  server: string;
  token: string;
  projectId: string;
  branch?: string | undefined;
  /** The publish's commit: the replay pulls exactly it. */
  commit: string;
  /** The environment's name (without .json). */
  env: string;
  /** The feature file, relative to the workspace (the first file the publish wrote). */
  featurePath: string;
  scenarioName: string;
  /** The run's test data as the server gave it for the recording (plain values, this machine only). */
  testData: { key: string; value: string; DataType: string }[];
}

/** Where the check's runner writes; nothing of its output is shown but the outcome. */
export interface LocalCheckIo {
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
}

/**
 * The local recorder's self-check (DESIGN §7): the published commit is pulled into a temporary
 * folder and its scenario run once, in this process, headless, on this machine, so an app on the
 * user's localhost is reachable as it was while recording. The run uploads nothing (no server
 * token reaches it) and the folder, with the test data file, is removed afterwards. Never throws:
 * a replay that could not run is an `error` check.
 */
export async function replayLocally(target: LocalCheckTarget, io: LocalCheckIo): Promise<RecordingCheck> {
  const { commit } = target;
  const dir = await mkdtemp(path.join(tmpdir(), 'rehearse-check-'));
  const output: string[] = [];
  const sink = { write: (text: string) => output.push(text) };
  // The run must neither upload nor fetch with the key: only the pull uses it.
  const env = { ...io.env };
  delete env.REHEARSE_TOKEN;
  delete env.REHEARSE_SERVER;
  delete env.REHEARSE_PROJECT;
  try {
    const workspace = path.join(dir, 'workspace');
    const pulled = await runCli(
      [
        'pull',
        '--server',
        target.server,
        '--token',
        target.token,
        '--project',
        target.projectId,
        ...(target.branch ? ['--branch', target.branch] : []),
        '--commit',
        commit,
        '--dir',
        workspace,
      ],
      { cwd: dir, env, stdout: sink, stderr: sink, fetch: io.fetch },
    );
    if (pulled !== 0) return { state: 'error', commit, reason: lastLine(output), reportLink: null };
    const dataFile = path.join(dir, 'test-data.json');
    await writeFile(dataFile, JSON.stringify(target.testData), { mode: 0o600 });
    const reportDir = path.join(dir, 'report');
    await runCli(
      [
        'run',
        '--env',
        `environments/${environmentFileName(target.env)}`,
        '--data',
        dataFile,
        '--headless',
        '--screenshots',
        'off',
        '--trace',
        'off',
        '--scenario',
        target.scenarioName,
        '--out',
        reportDir,
        target.featurePath,
      ],
      { cwd: workspace, env, stdout: sink, stderr: sink, fetch: io.fetch },
    );
    const report = RunReport.safeParse(
      JSON.parse(await readFile(path.join(reportDir, 'report.json'), 'utf8').catch(() => '{}')) as unknown,
    );
    const testCase = report.success ? report.data.testCases.find((c) => c.scenarioName === target.scenarioName) : undefined;
    return recordingCheckOf(commit, testCase, testCase ? null : lastLine(output));
  } catch (error) {
    return { state: 'error', commit, reason: error instanceof Error ? error.message : String(error), reportLink: null };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function lastLine(output: string[]): string {
  return (
    output
      .join('')
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1)
      ?.trim() ?? ''
  );
}
