import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPlainApp, startTodoMvcApp } from '@rehearse/recorder/testing';
import { launchBrowser } from '@rehearse/runner/browser';
import { recorderCalls, workspaceCalls as ws } from '@rehearse/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';
import { processesOfSession, StreamDriver } from './testing/stream-driver.js';

const VIEWPORT = { width: 1280, height: 800 };

/** The steps of a scenario's text, as the runner runs them. */
function stepCount(content: string | undefined): number {
  return (content ?? '').split('\n').filter((line) => /^\s*(Given|When|Then|And|But|\*)\s/.test(line)).length;
}

function inFutureDays(days: number): { iso: string; typed: string } {
  const date = new Date(Date.now() + days * 86_400_000);
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  const dd = String(date.getDate()).padStart(2, '0');
  return { iso: `${date.getFullYear()}-${mm}-${dd}`, typed: `${mm}${dd}${date.getFullYear()}` };
}

/**
 * The test sends input only to the stream. To know *where* to click it keeps a reference page (same
 * Chromium, same viewport, same actions) and reads element positions there, as a person reads
 * them off the screen.
 */
class Mirror {
  constructor(
    readonly ref: Page,
    readonly stream: StreamDriver,
  ) {}

  async click(locate: (page: Page) => ReturnType<Page['getByRole']>): Promise<void> {
    const target = locate(this.ref);
    await target.scrollIntoViewIfNeeded();
    const scroll = await this.ref.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    if (scroll > 0) {
      // Scroll the stream the same way, with the wheel, before clicking.
      this.stream.send({ kind: 'wheel', x: 600, y: 400, deltaX: 0, deltaY: scroll });
      await this.stream.settled();
      await this.ref.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
      await this.ref.mouse.wheel(0, scroll);
      await this.ref.waitForTimeout(300);
    }
    const after = (await target.boundingBox())!;
    this.stream.click(after.x + after.width / 2, after.y + after.height / 2);
    await target.click();
  }

  async type(text: string): Promise<void> {
    this.stream.type(text);
    await this.ref.keyboard.type(text);
  }
}

describe('the cloud recorder, driven through its stream', () => {
  let test: TestApp;
  let serverUrl: string;
  let user: Awaited<ReturnType<typeof signUp>>;
  let browser: Browser;

  beforeAll(async () => {
    test = await startTestApp('pglite', { WORKER_PROCESSES: '1', RECORDER_CAPACITY: '3' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    serverUrl = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    user = await signUp(test, { email: 'recorder@acme.test' });
    await user.api.call(ws.pushEnv, { body: { projectId: user.projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } } });
    await user.api.call(ws.changeTestData, {
      body: {
        projectId: user.projectId,
        testData: [
          { key: 'user', value: 'demo@rehearse.dev', DataType: 'string', environment: '*' },
          { key: 'password', value: 'rehearse123', DataType: 'secret', environment: '*' },
        ],
      },
    });
    browser = await launchBrowser({ browser: 'chromium', headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await test?.close();
  });

  it(
    'records log in, add to cart and check out from stream input, publishes, and the self-check replays the scenario',
    { timeout: 300_000 },
    async () => {
      const { session } = await user.api.call(recorderCalls.createConnection, {
        body: { projectId: user.projectId, env: 'shop', viewport: VIEWPORT },
      });
      expect(session.state).toBe('connected');
      const again = await user.api.call(recorderCalls.activeSession, { query: { projectId: user.projectId } });
      expect(again.session?.connectionId).toBe(session.connectionId);
      const stream = await StreamDriver.connect(serverUrl, user.token, session.connectionId);
      const context = await browser.newContext({ viewport: VIEWPORT });
      const ref = await context.newPage();
      const mirror = new Mirror(ref, stream);
      try {
        await ref.goto(`${serverUrl}/demo-shop/`);
        await stream.settled();
        expect(stream.frames).toBeGreaterThan(0);

        await mirror.click((p) => p.getByRole('link', { name: 'Sign in' }));
        await ref.getByLabel('Email').waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByLabel('Email'));
        await mirror.type('demo@rehearse.dev');
        await mirror.click((p) => p.getByLabel('Password'));
        await mirror.type('rehearse123');
        await mirror.click((p) => p.getByRole('button', { name: 'Sign in' }));
        await ref.getByRole('button', { name: 'Sign out' }).waitFor();
        await ref.getByRole('link', { name: 'Trail Backpack', exact: true }).waitFor();
        await stream.settled();

        await mirror.click((p) => p.getByRole('link', { name: 'Trail Backpack', exact: true }));
        await ref.getByLabel('Colour').waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByLabel('Colour'));
        // A native select's list is not part of the page; the keyboard picks the option.
        await ref.keyboard.press('Escape');
        stream.press('Escape');
        await mirror.type('S');
        await mirror.click((p) => p.getByRole('button', { name: 'Add to cart' }));
        await ref.getByTestId('toast').getByText('Added').waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByRole('link', { name: /^Cart/ }));
        await ref.getByRole('link', { name: 'Proceed to checkout' }).waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByRole('link', { name: 'Proceed to checkout' }));
        await ref.getByLabel('Full name').waitFor();
        await stream.settled();
        for (const [label, text] of [
          ['Full name', 'Dana Demo'],
          ['Address', 'Hauptstrasse 1'],
          ['City', 'Berlin'],
          ['Postal code', '10115'],
        ] as const) {
          await mirror.click((p) => p.getByLabel(label, { exact: true }));
          await mirror.type(text);
        }
        await mirror.click((p) => p.getByLabel('Country'));
        await ref.keyboard.press('Escape');
        stream.press('Escape');
        await mirror.type('G');
        await mirror.click((p) => p.getByLabel('Delivery date'));
        await ref.keyboard.press('Home');
        await mirror.type(inFutureDays(3).typed);
        await mirror.click((p) => p.getByText('I agree to the terms and conditions'));
        await mirror.click((p) => p.getByRole('button', { name: 'Place order' }));
        await ref.getByRole('dialog', { name: 'Confirm your order' }).waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByRole('dialog').getByRole('button', { name: 'Confirm' }));
        await ref.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
        const commands = await stream.stepsUntil((c) => c.some((x) => x.type === 'click' && x.element?.name === 'Confirm'));
        await stream.settled();

        // Add assertion: the next click on the stream becomes "should be visible".
        expect(await stream.socket.emitWithAck('assert', { type: 'verifyVisible' })).toEqual({ status: true });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await mirror.click((p) => p.getByRole('heading', { name: 'Thank you for your order' }));
        await stream.stepsUntil((c) => c.at(-1)?.type === 'verifyVisible');
        expect(commands.find((c) => c.element?.name === 'Password')).toMatchObject({ value: '{{password}}', secret: true });
        expect(JSON.stringify(stream.commands)).not.toContain('rehearse123');

        const published = await user.api.call(recorderCalls.publish, {
          body: {
            projectId: user.projectId,
            connectionId: session.connectionId,
            featureName: 'Cloud shop',
            scenarioName: 'Buy a backpack',
          },
        });
        expect(published.missingTestData).toEqual([]);
        const { features } = await user.api.call(ws.getFeatureList, { body: { projectId: user.projectId } });
        const feature = features.find((f) => f.featureName === 'Cloud shop');
        expect(feature?.scenarios.map((s) => s.name)).toEqual(['Buy a backpack']);
        expect(feature?.scenarios[0]?.content).toContain('I fill in "Email" with "{{user}}"');

        // The self-check after Publish is the proof it replays: "Run scenario" on the recorded environment.
        await expect.poll(() => stream.checks.find((check) => check.commit === published.commit)?.state).toBe('checking');
        expect(await stream.checked(published.commit)).toMatchObject({
          state: 'passed',
          steps: stepCount(feature?.scenarios[0]?.content),
        });
      } finally {
        stream.close();
        await context.close();
        await user.api.call(recorderCalls.deleteConnection, { body: { connectionName: session.connectionId } }).catch(() => undefined);
      }
      expect(await processesOfSession(session.connectionId)).toEqual([]);
    },
  );

  it(
    'records a plain HTML app it was not written for (form, table, dialog) from stream input; the self-check replays the published scenario',
    { timeout: 300_000 },
    async () => {
      const roster = await startPlainApp();
      await user.api.call(ws.pushEnv, { body: { projectId: user.projectId, name: 'roster', data: { baseUrl: roster.baseUrl } } });
      const { session } = await user.api.call(recorderCalls.createConnection, {
        body: { projectId: user.projectId, env: 'roster', viewport: VIEWPORT },
      });
      const stream = await StreamDriver.connect(serverUrl, user.token, session.connectionId);
      const context = await browser.newContext({ viewport: VIEWPORT });
      const ref = await context.newPage();
      const mirror = new Mirror(ref, stream);
      try {
        await ref.goto(roster.baseUrl);
        await stream.settled();
        await mirror.click((p) => p.getByLabel('Member name'));
        await mirror.type('Ada');
        await mirror.click((p) => p.getByLabel('Team', { exact: true }));
        await ref.keyboard.press('Escape');
        stream.press('Escape');
        await mirror.type('Q');
        await mirror.click((p) => p.getByLabel('Team lead'));
        await mirror.click((p) => p.getByRole('button', { name: 'Add member' }));
        await ref.getByRole('button', { name: 'Remove Ada' }).waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByRole('button', { name: 'Remove Ada' }));
        await ref.getByRole('dialog', { name: 'Remove member?' }).waitFor();
        await stream.settled();
        await mirror.click((p) => p.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }));
        await ref.getByText('Ada removed').waitFor();
        await stream.settled();
        // A client asking for an assertion the recorder does not have is refused, and records nothing.
        expect(await stream.socket.emitWithAck('assert', { type: 'runScript' })).toEqual({
          status: false,
          error: 'This recorder session does not exist or has ended.',
        });
        expect(await stream.socket.emitWithAck('assert', { type: 'verifyVisible' })).toEqual({ status: true });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await mirror.click((p) => p.getByText('Ada removed'));
        const commands = await stream.stepsUntil((c) => c.at(-1)?.type === 'verifyVisible');
        expect(commands.map((c) => c.type)).toEqual(['navigate', 'fill', 'select', 'check', 'click', 'click', 'click', 'verifyVisible']);

        const published = await user.api.call(recorderCalls.publish, {
          body: {
            projectId: user.projectId,
            connectionId: session.connectionId,
            featureName: 'Roster',
            scenarioName: 'Add and remove a member',
          },
        });
        const { features } = await user.api.call(ws.getFeatureList, { body: { projectId: user.projectId } });
        const feature = features.find((f) => f.featureName === 'Roster');
        expect(feature?.scenarios.map((s) => s.name)).toEqual(['Add and remove a member']);
        expect(await stream.checked(published.commit)).toMatchObject({ state: 'passed', steps: stepCount(feature?.scenarios[0]?.content) });
      } finally {
        stream.close();
        await context.close();
        await user.api.call(recorderCalls.deleteConnection, { body: { connectionName: session.connectionId } }).catch(() => undefined);
        await roster.app.close();
      }
      expect(await processesOfSession(session.connectionId)).toEqual([]);
    },
  );

  it(
    'replays each Publish once on the recorded app: a clean recording passes, and a step the app no longer does is flagged with its text and the runner’s reason',
    { timeout: 240_000 },
    async () => {
      // TodoMVC as written, and the same app with one bug of the mutation bench: its counter says
      // one more item left than there is. The recording is made on the first; the environment then
      // points at the second, as after a deploy, and the same steps are published again.
      const clean = await startTodoMvcApp();
      const broken = await startTodoMvcApp('counter-off-by-one');
      await user.api.call(ws.pushEnv, { body: { projectId: user.projectId, name: 'todomvc', data: { baseUrl: clean.baseUrl } } });
      const { session } = await user.api.call(recorderCalls.createConnection, {
        body: { projectId: user.projectId, env: 'todomvc', viewport: VIEWPORT },
      });
      const stream = await StreamDriver.connect(serverUrl, user.token, session.connectionId);
      const context = await browser.newContext({ viewport: VIEWPORT });
      const ref = await context.newPage();
      const mirror = new Mirror(ref, stream);
      try {
        await ref.goto(clean.baseUrl);
        await stream.settled();
        await mirror.click((p) => p.getByPlaceholder('What needs to be done?'));
        await mirror.type('feed the cat');
        stream.press('Enter');
        await ref.keyboard.press('Enter');
        await ref.getByText('1 item left').waitFor();
        await stream.settled();
        // Text typed into Add assertion (TodoMVC's filters lie over its counter, so a click there picks the filters).
        expect(await stream.socket.emitWithAck('assert', { type: 'verifyText', text: '1 item left' })).toEqual({ status: true });
        await stream.stepsUntil((c) => c.at(-1)?.type === 'verifyText');
        await mirror.click((p) => p.getByRole('listitem').filter({ hasText: 'feed the cat' }).getByRole('checkbox'));
        const commands = await stream.stepsUntil((c) => c.at(-1)?.type === 'check');
        expect(commands.map((c) => c.type)).toEqual(['navigate', 'fill', 'press', 'verifyText', 'check']);

        const first = await user.api.call(recorderCalls.publish, {
          body: { projectId: user.projectId, connectionId: session.connectionId, featureName: 'TodoMVC', scenarioName: 'Add a todo' },
        });
        expect(await stream.checked(first.commit)).toMatchObject({ state: 'passed', steps: 5 });

        await user.api.call(ws.editEnv, { body: { projectId: user.projectId, name: 'todomvc', newData: { baseUrl: broken.baseUrl } } });
        const second = await user.api.call(recorderCalls.publish, {
          body: {
            projectId: user.projectId,
            connectionId: session.connectionId,
            featureName: 'TodoMVC',
            scenarioName: 'Add a todo on the new build',
          },
        });
        await expect.poll(() => stream.checks.find((check) => check.commit === second.commit)?.state).toBe('checking');
        const flagged = await stream.checked(second.commit);
        const { features } = await user.api.call(ws.getFeatureList, { body: { projectId: user.projectId } });
        const lines = features
          .find((f) => f.featureName === 'TodoMVC')!
          .scenarios.find((s) => s.name === 'Add a todo on the new build')!
          .content.split('\n')
          .map((line) => line.trim());
        writeFileSync('/tmp/self-check-cloud.json', JSON.stringify(flagged, null, 2));
        expect(flagged).toMatchObject({ state: 'failed', step: 4 });
        if (flagged.state !== 'failed') throw new Error('not flagged');
        // The flag names the scenario's own fourth step, and says what the runner found instead.
        expect(lines.filter((line) => /^(Given|When|Then|And|But) /.test(line))[3]).toBe(flagged.stepText);
        expect(flagged.stepText).toContain('1 item left');
        expect(flagged.reason).toBe('The page does not show "1 item left" (waited 10000 ms)');
        expect(flagged.reportLink).toMatch(/\/run-report\//);
        // A page attaching now is told the outcome at once.
        const late = await StreamDriver.connect(serverUrl, user.token, session.connectionId);
        try {
          await expect.poll(() => late.checks.at(-1)).toEqual(flagged);
        } finally {
          late.close();
        }
      } finally {
        stream.close();
        await context.close();
        await user.api.call(recorderCalls.deleteConnection, { body: { connectionName: session.connectionId } }).catch(() => undefined);
        await clean.app.close();
        await broken.app.close();
      }
    },
  );

  it(
    'refuses a third session, a full server, unreachable and metadata URLs, each with the spec’s message; no browser is left',
    { timeout: 180_000 },
    async () => {
      const other = await signUp(test, { email: 'limits@acme.test' });
      await other.api.call(ws.pushEnv, {
        body: { projectId: other.projectId, name: 'shop', data: { baseUrl: `${serverUrl}/demo-shop/` } },
      });
      await other.api.call(ws.pushEnv, { body: { projectId: other.projectId, name: 'gone', data: { baseUrl: 'http://127.0.0.1:9/' } } });
      await other.api.call(ws.pushEnv, {
        body: { projectId: other.projectId, name: 'metadata', data: { baseUrl: 'http://169.254.169.254/latest/' } },
      });
      const start = () => other.api.call(recorderCalls.createConnection, { body: { projectId: other.projectId, env: 'shop' } });

      const metadata = await failure(
        other.api.call(recorderCalls.checkReachable, { body: { url: 'http://169.254.169.254/latest/meta-data/' } }),
      );
      expect([metadata.httpStatus, metadata.message]).toEqual([
        400,
        'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
      ]);
      const metadataEnv = await failure(
        other.api.call(recorderCalls.createConnection, { body: { projectId: other.projectId, env: 'metadata' } }),
      );
      expect([metadataEnv.httpStatus, metadataEnv.message]).toEqual([
        400,
        'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
      ]);
      // A reachable page that redirects to metadata: refused at once with the same sentence, not a 500 after a wait.
      const redirector = createServer((request, response) => {
        const scheme = request.url === '/tls' ? 'https' : 'http';
        response.writeHead(302, { location: `${scheme}://169.254.169.254/latest/meta-data/` }).end();
      });
      await new Promise<void>((ready) => redirector.listen(0, '127.0.0.1', () => ready()));
      try {
        const port = (redirector.address() as AddressInfo).port;
        for (const [name, path] of [
          ['to-metadata', '/'],
          ['to-metadata-tls', '/tls'],
        ] as const) {
          await other.api.call(ws.pushEnv, {
            body: { projectId: other.projectId, name, data: { baseUrl: `http://127.0.0.1:${port}${path}` } },
          });
          const refused = await failure(
            other.api.call(recorderCalls.createConnection, { body: { projectId: other.projectId, env: name } }),
          );
          expect([name, refused.httpStatus, refused.message]).toEqual([
            name,
            400,
            'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
          ]);
        }
      } finally {
        redirector.close();
      }
      expect((await other.api.call(recorderCalls.concurrentSessions, { query: {} })).activeSessions).toBe(0);
      const unreachable = await failure(
        other.api.call(recorderCalls.createConnection, { body: { projectId: other.projectId, env: 'gone' } }),
      );
      expect([unreachable.httpStatus, unreachable.message]).toEqual([
        400,
        'The environment URL that you provided is not reachable from the cloud servers, please check the URL and try again. If the issue persists, switch to local recording.',
      ]);
      expect(await other.api.call(recorderCalls.checkReachable, { body: { url: `${serverUrl}/demo-shop/` } })).toMatchObject({
        reachable: true,
        statusCode: 200,
      });

      const first = await start();
      const second = await start();
      expect((await other.api.call(recorderCalls.concurrentSessions, { query: {} })).activeSessions).toBe(2);
      const third = await failure(start());
      expect([third.httpStatus, third.message]).toEqual([
        429,
        'Only 2 concurrent sessions per user are allowed. Please end ongoing sessions and try again.',
      ]);

      // Capacity 3: the first user's session fills the server, so their second one finds it full.
      const filler = await user.api.call(recorderCalls.createConnection, { body: { projectId: user.projectId, env: 'shop' } });
      const overloaded = await failure(user.api.call(recorderCalls.createConnection, { body: { projectId: user.projectId, env: 'shop' } }));
      expect([overloaded.httpStatus, overloaded.message]).toEqual([
        503,
        'Server is overloaded with recorder requests, please try again at a later time',
      ]);

      // Another user cannot see, stream or end these sessions.
      const stranger = await failure(
        user.api.call(recorderCalls.deleteConnection, { body: { connectionName: first.session.connectionId } }),
      );
      expect(stranger.httpStatus).toBe(403);
      await expect(StreamDriver.connect(serverUrl, user.token, first.session.connectionId)).rejects.toThrow(
        'This recorder session does not exist or has ended.',
      );

      await user.api.call(recorderCalls.deleteConnection, { body: { connectionName: filler.session.connectionId } });
      await other.api.call(recorderCalls.deleteConnection, { body: { connectionName: first.session.connectionId } });
      await other.api.call(recorderCalls.deleteConnection, { body: { connectionName: second.session.connectionId } });
      expect((await other.api.call(recorderCalls.concurrentSessions, { query: {} })).activeSessions).toBe(0);
      for (const id of [first, second, filler].map((s) => s.session.connectionId)) expect(await processesOfSession(id)).toEqual([]);
    },
  );

  it('warns in the last minute and ends a session at its time limit, freeing the browser', { timeout: 120_000 }, async () => {
    const short = await startTestApp('pglite', { RECORDER_SESSION_SECONDS: '8' });
    try {
      await short.app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(short.app.server.address() as AddressInfo).port}`;
      const someone = await signUp(short, { email: 'timeout@acme.test' });
      await someone.api.call(ws.pushEnv, { body: { projectId: someone.projectId, name: 'shop', data: { baseUrl: `${url}/demo-shop/` } } });
      const { session } = await someone.api.call(recorderCalls.createConnection, { body: { projectId: someone.projectId, env: 'shop' } });
      const stream = await StreamDriver.connect(url, someone.token, session.connectionId);
      for (let i = 0; i < 200 && !stream.ended; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      stream.close();
      expect(stream.warnings).toContain('Session expires soon, publish the recording before session ends');
      expect(stream.ended).toBe('Session has ended, to record a new scenario, please start a new session');
      const gone = await failure(someone.api.call(recorderCalls.deleteConnection, { body: { connectionName: session.connectionId } }));
      expect([gone.httpStatus, gone.message]).toEqual([404, 'This recorder session does not exist or has ended.']);
      for (let i = 0; i < 50 && (await processesOfSession(session.connectionId)).length > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await processesOfSession(session.connectionId)).toEqual([]);
    } finally {
      await short.close();
    }
  });
});
