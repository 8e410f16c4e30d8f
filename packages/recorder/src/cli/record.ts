import { parseArgs } from 'node:util';
import { createApiClient } from '@rehearse/api-client';
import { digestTestData } from '@rehearse/codegen';
import { DEFAULT_SERVER, readProjectFile, resolveProject, warnOnVersionMismatch } from '@rehearse/runner/cli';
import {
  describeRecordingCheck,
  Messages,
  recorderCalls,
  runnerCalls,
  workspaceCalls,
  type CallResponse,
  type RecordedCommand,
  type RecordingCheck,
} from '@rehearse/contract';
import { LocalPanel, type PublishNames } from '../panel/local-panel.js';
import { RecorderSession } from '../session.js';
import { replayLocally } from './self-check.js';

/** Where the CLI writes; the runner's `CliIo` satisfies it. */
export interface RecordIo {
  /** Where the command runs (default the process's): a pulled folder names its server and project. */
  cwd?: string;
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  fetch: typeof fetch;
}

export const RECORD_USAGE = `Usage: rehearse record --token T --env <name> [--server URL] [--project ID] [--feature f] [--scenario s] [--branch b] [--headless] [--debug-port N]

Opens Chromium with the recorder. Use the page; the recorder panel at its top right shows the
steps as they are recorded and has Add assertion (Visible, Text, Value: then click the element),
Undo last and Publish (feature new or existing, scenario name). Each step is also printed here.
From this terminal: "v" + Enter makes your next click an assertion that the element is visible,
"u" + Enter undoes the last step, "p" + Enter (or closing the browser) publishes under the names
in the panel (--feature/--scenario by default); the end of standard input (no terminal) publishes
nothing. After Publish the recording is replayed once on this machine, headless, and the panel
and this terminal say whether every step passed or which step did not replay, and why; after a
flagged step the browser stays open until you close it. In a folder \`rehearse pull\` made, the server, project and branch default to the ones in
its .rehearse/project.json, as for \`rehearse run\`. --debug-port N lets DevTools clients on this
machine (your own automation) drive the recorder's Chromium at http://127.0.0.1:N.
`;

export interface RecordHooks {
  /** Drives the session instead of a person (tests); publishing follows when it resolves. */
  drive?: (session: RecorderSession) => Promise<void>;
  /** Lines a person types (defaults to stdin). */
  input?: AsyncIterable<string>;
}

type PublishRecordingResponse = CallResponse<typeof recorderCalls.publish>;

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
        'debug-port': { type: 'string' },
      },
    }));
  } catch (error) {
    io.stderr.write(`rehearse record: ${(error as Error).message}\n\n${RECORD_USAGE}`);
    return 2;
  }
  // As `rehearse run` does: a pulled folder remembers its server, project and branch.
  const pulled = readProjectFile(io.cwd ?? process.cwd());
  const server = values.server ?? io.env.REHEARSE_SERVER ?? pulled?.server ?? DEFAULT_SERVER;
  const token = values.token ?? io.env.REHEARSE_TOKEN;
  if (!token || !values.env) {
    io.stderr.write(`rehearse record: --token and --env are required\n\n${RECORD_USAGE}`);
    return 2;
  }
  const debugPort = values['debug-port'] === undefined ? undefined : Number(values['debug-port']);
  if (debugPort !== undefined && !(Number.isInteger(debugPort) && debugPort >= 1 && debugPort <= 65_535)) {
    io.stderr.write(`rehearse record: --debug-port must be a port number (1-65535)\n\n${RECORD_USAGE}`);
    return 2;
  }
  await warnOnVersionMismatch(io, server);
  // An access key names its project; --project, when given, must be that one.
  const projectId = await resolveProject(io, server, token, {
    given: values.project ?? io.env.REHEARSE_PROJECT,
    remembered: pulled?.projectId,
  });
  const api = createApiClient({ baseUrl: server, getToken: () => token, getProjectId: () => projectId, fetch: io.fetch });
  const branch = values.branch ?? pulled?.branch;
  const { allEnv } = await api.call(workspaceCalls.getEnvList, { body: { projectId, ...(branch ? { branch } : {}) } });
  const env = allEnv.find((e) => e.name === values.env || e.name === `${values.env}.json` || e.data.name === values.env);
  if (!env) {
    io.stderr.write(`rehearse record: no environment "${values.env}" in the project\n`);
    return 2;
  }
  const envName = env.data.name ?? values.env;
  // Plain values stay on this machine: the page only gets their digests to match typed text.
  const { testData } = await api.call(runnerCalls.runTestData, {
    body: { projectId, environment: envName, ...(branch ? { branch } : {}) },
  });

  let published: PublishRecordingResponse | undefined;
  // The self-check of the one publish (DESIGN §7): it runs while the window stays open.
  let checked: Promise<RecordingCheck> | undefined;
  const selfCheck = (answer: PublishRecordingResponse, scenarioName: string): Promise<RecordingCheck> => {
    const started: RecordingCheck = { state: 'checking', commit: answer.commit };
    panel.showCheck(started);
    io.stdout.write(`${describeRecordingCheck(started)}\n`);
    return replayLocally(
      {
        server,
        token,
        projectId,
        branch,
        commit: answer.commit,
        env: envName,
        featurePath: answer.files[0] ?? `features/${answer.featureName}.feature`,
        scenarioName,
        testData,
      },
      io,
    ).then((check) => {
      panel.showCheck(check);
      io.stdout.write(`${describeRecordingCheck(check)}\n`);
      if (check.state === 'failed') io.stdout.write(`${Messages.recorderCheckFix}\n`);
      return check;
    });
  };
  let publishedFromPanel: () => void = () => undefined;
  const panelPublished = new Promise<void>((resolve) => (publishedFromPanel = resolve));
  // The one publish: the panel's button, "p" in the terminal, a closed window or the end of a
  // test's drive all come here, and only the first one writes.
  const publish = async (names: PublishNames): Promise<PublishRecordingResponse> => {
    if (published) return published;
    // The last step's effect, from the page as the user leaves it.
    await session.settleLastEffect();
    const answer = await api.call(recorderCalls.publish, {
      body: {
        projectId,
        ...(branch ? { branch } : {}),
        env: envName,
        ...names,
        commands: [...session.commands],
        pages: session.recordedPages(),
      },
    });
    published = answer;
    io.stdout.write(`Published "${answer.scenarioName}" to feature "${answer.featureName}" (${answer.commit.slice(0, 8)}).\n`);
    if (answer.missingTestData.length > 0)
      io.stdout.write(`Add these test data keys before running: ${answer.missingTestData.join(', ')}\n`);
    checked = selfCheck(answer, answer.scenarioName);
    return answer;
  };
  const panel = new LocalPanel({
    featureName: values.feature ?? 'Recorded',
    scenarioName: values.scenario ?? `Recorded ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
    features: async () =>
      (await api.call(workspaceCalls.getFeatureList, { body: { projectId, ...(branch ? { branch } : {}) } })).features.map(
        (f) => f.featureName,
      ),
    publish: async (names) => {
      try {
        const answer = await publish(names);
        publishedFromPanel();
        const missing =
          answer.missingTestData.length > 0 ? ` Add these test data keys before running: ${answer.missingTestData.join(', ')}.` : '';
        return `Published to the workspace: ${answer.featureName} › ${answer.scenarioName}.${missing}`;
      } catch (error) {
        io.stderr.write(`rehearse record: publishing failed: ${(error as Error).message}\n`);
        throw error;
      }
    },
  });
  // The panel and the publish above only use the session once it exists (they run on clicks).
  let session: RecorderSession;
  try {
    session = await RecorderSession.start({
      url: env.data.baseUrl,
      baseUrl: env.data.baseUrl,
      viewport: { width: 1280, height: 800 },
      headless: values.headless ?? false,
      debugPort,
      testData: digestTestData(
        testData.filter((r) => r.DataType !== 'totp').map((r) => ({ key: r.key, value: r.value, secret: r.DataType === 'secret' })),
      ),
      panel,
      onCommands: (commands) => {
        const last = commands.at(-1);
        if (last) io.stdout.write(`  ${commands.length}. ${describe(last)}\n`);
      },
    });
  } catch (error) {
    // launchBrowser says why in one sentence; anything after the launch keeps its first line.
    io.stderr.write(`rehearse record: ${((error as Error).message ?? String(error)).split('\n')[0]}\n`);
    return 2;
  }
  const windowClosed = new Promise<void>((resolve) => session.activePage.context().once('close', () => resolve()));
  try {
    if (debugPort !== undefined) io.stdout.write(`DevTools endpoint: http://127.0.0.1:${debugPort}\n`);
    io.stdout.write(
      `Recording ${env.data.baseUrl} — ${hooks.drive ? 'driven' : 'use the browser window; the recorder panel in the page has Add assertion, Undo last and Publish'}.\n`,
    );
    let how: 'panel' | 'terminal' | 'closed' | 'driven' = 'driven';
    if (hooks.drive) await hooks.drive(session);
    else how = await untilDone(session, hooks.input ?? stdinLines(), panelPublished, io);
    await publish(panel.names);
    // The user is told how the replay went before the recorder goes: the window stays open meanwhile.
    const check = await checked;
    if (how !== 'driven' && how !== 'closed') {
      if (check?.state === 'passed') await new Promise((resolve) => setTimeout(resolve, 1500));
      else {
        io.stdout.write('The recorder window stays open so you can read this: close it when you are done.\n');
        await windowClosed;
      }
    }
    return 0;
  } catch (error) {
    io.stderr.write(`rehearse record: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await session.close();
  }
}

/** Waits for the person to finish: Publish in the panel, "p" in the terminal, or a closed browser. */
async function untilDone(
  session: RecorderSession,
  lines: AsyncIterable<string>,
  panelPublished: Promise<void>,
  io: Pick<RecordIo, 'stdout'>,
): Promise<'panel' | 'terminal' | 'closed'> {
  const closed = new Promise<'closed'>((resolve) => session.activePage.context().once('close', () => resolve('closed')));
  const typed = (async (): Promise<'terminal'> => {
    for await (const line of lines) {
      const command = line.trim().toLowerCase();
      if (command === 'p') return 'terminal';
      if (command === 'u') session.undo();
      if (command === 'v') await session.assertNext('verifyVisible');
    }
    // The end of input is no "p": without a terminal (a CI shell, \`< /dev/null\`, a desktop link
    // opening the recorder) standard input ends at once, before anything was recorded, and
    // publishing then would commit an empty scenario, or fail. The person records in the window,
    // so the recorder keeps going until they publish from the panel or close the window (Ctrl+C
    // ends it without publishing).
    io.stdout.write('Standard input ended: publish from the recorder panel in the page, or close the browser window.\n');
    return new Promise<never>(() => undefined);
  })();
  return Promise.race([closed, typed, panelPublished.then(() => 'panel' as const)]);
}

async function* stdinLines(): AsyncIterable<string> {
  const { createInterface } = await import('node:readline');
  yield* createInterface({ input: process.stdin });
}
