import { parseArgs } from 'node:util';
import { createApiClient } from '@rehearse/api-client';
import { recorderCalls, runnerCalls, workspaceCalls, type RecordedCommand } from '@rehearse/contract';
import { digestTestData } from '../digest.js';
import { RecorderSession } from '../session.js';

/** Where the CLI writes; the runner's `CliIo` satisfies it. */
export interface RecordIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  fetch: typeof fetch;
}

export const RECORD_USAGE = `Usage: rehearse record --server URL --token T --project ID --env <name> [--feature f] [--scenario s] [--branch b] [--headless]

Opens Chromium with the recorder. Use the page; each step is printed here as it is recorded.
Type "v" + Enter to make your next click an assertion that the element is visible, "u" + Enter
to undo the last step, "p" + Enter (or close the browser) to publish.
`;

export interface RecordHooks {
  /** Drives the session instead of a person (tests); publishing follows when it resolves. */
  drive?: (session: RecorderSession) => Promise<void>;
  /** Lines a person types (defaults to stdin). */
  input?: AsyncIterable<string>;
}

function describe(command: RecordedCommand): string {
  const name = command.element?.name ? ` "${command.element.name}"` : '';
  const value = command.secret ? ' ****' : command.value ? ` ${JSON.stringify(command.value)}` : '';
  return `${command.type}${name}${value}`;
}

/**
 * `rehearse record` (DESIGN §7, local recorder): a headed Chromium with the same capture script as
 * the cloud recorder, the steps printed as they come, published through the same call as the
 * cloud recorder's Publish. Answers an exit code (0 published, 1 failed, 2 usage).
 */
export async function runRecord(args: string[], io: RecordIo, hooks: RecordHooks = {}): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        project: { type: 'string' },
        env: { type: 'string' },
        feature: { type: 'string' },
        scenario: { type: 'string' },
        branch: { type: 'string' },
        headless: { type: 'boolean' },
      },
    }));
  } catch (error) {
    io.stderr.write(`rehearse record: ${(error as Error).message}\n\n${RECORD_USAGE}`);
    return 2;
  }
  const server = values.server ?? io.env.REHEARSE_SERVER ?? 'http://localhost:4000';
  const token = values.token ?? io.env.REHEARSE_TOKEN;
  const projectId = values.project ?? io.env.REHEARSE_PROJECT;
  if (!token || !projectId || !values.env) {
    io.stderr.write(`rehearse record: --token, --project and --env are required\n\n${RECORD_USAGE}`);
    return 2;
  }
  const api = createApiClient({ baseUrl: server, getToken: () => token, getProjectId: () => projectId, fetch: io.fetch });
  const branch = values.branch;
  const { allEnv } = await api.call(workspaceCalls.getEnvList, { body: { projectId, ...(branch ? { branch } : {}) } });
  const env = allEnv.find((e) => e.name === values.env || e.name === `${values.env}.json` || e.data.name === values.env);
  if (!env) {
    io.stderr.write(`rehearse record: no environment "${values.env}" in the project\n`);
    return 2;
  }
  const envName = env.data.name ?? values.env;
  // Plain values stay on this machine: the page only gets their digests to match typed text.
  const { testData } = await api.call(runnerCalls.runTestData, { body: { projectId, environment: envName, ...(branch ? { branch } : {}) } });
  const session = await RecorderSession.start({
    url: env.data.baseUrl,
    baseUrl: env.data.baseUrl,
    viewport: { width: 1280, height: 800 },
    headless: values.headless ?? false,
    testData: digestTestData(testData.filter((r) => r.DataType !== 'totp').map((r) => ({ key: r.key, value: r.value, secret: r.DataType === 'secret' }))),
    onCommands: (commands) => {
      const last = commands.at(-1);
      if (last) io.stdout.write(`  ${commands.length}. ${describe(last)}\n`);
    },
  });
  try {
    io.stdout.write(`Recording ${env.data.baseUrl} — ${hooks.drive ? 'driven' : 'use the browser window'}.\n`);
    if (hooks.drive) await hooks.drive(session);
    else await untilDone(session, hooks.input ?? stdinLines());
    const commands = [...session.commands];
    const published = await api.call(recorderCalls.publish, {
      body: {
        projectId,
        ...(branch ? { branch } : {}),
        env: envName,
        featureName: values.feature ?? 'Recorded',
        scenarioName: values.scenario ?? `Recorded ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
        commands,
        pages: session.recordedPages(),
      },
    });
    io.stdout.write(`Published "${published.scenarioName}" to feature "${published.featureName}" (${published.commit.slice(0, 8)}).\n`);
    if (published.missingTestData.length > 0) io.stdout.write(`Add these test data keys before running: ${published.missingTestData.join(', ')}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`rehearse record: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await session.close();
  }
}

async function untilDone(session: RecorderSession, lines: AsyncIterable<string>): Promise<void> {
  const closed = new Promise<void>((resolve) => session.activePage.context().once('close', () => resolve()));
  const typed = (async () => {
    for await (const line of lines) {
      const command = line.trim().toLowerCase();
      if (command === 'p') return;
      if (command === 'u') session.undo();
      if (command === 'v') await session.assertNext('verifyVisible');
    }
  })();
  await Promise.race([closed, typed]);
}

async function* stdinLines(): AsyncIterable<string> {
  const { createInterface } = await import('node:readline');
  yield* createInterface({ input: process.stdin });
}
