/**
 * Records the Getting Started video (spec 01 §9: 3:59) from the real product: a fresh server with
 * the built web app, a headless Chromium driven through sign-up → demo project → a scenario →
 * its run → the report → executions → Code Review → Get Started, with captions and a visible
 * pointer drawn into the page. Frames come from the CDP screencast; ffmpeg turns them into
 * `public/getting-started.webm` (VP9) and a poster. Re-run it when the screens change:
 *
 *   npm run build --workspace apps/web && npx tsx apps/web/scripts/getting-started-video.ts
 *
 * Needs ffmpeg on PATH (Debian: apt-get install ffmpeg). Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Locator, type Page } from 'playwright-core';
import { startTestApp } from '../../server/src/testing/test-app.js';
import { FeatureStrings as S } from '../src/features/scenarios/strings';
import { GETTING_STARTED_VIDEO_SECONDS } from '../src/lib/getting-started';
import { Strings } from '../src/lib/strings';
import { ExecutionStrings, ReportStrings } from '../src/lib/strings-reports';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VIEWPORT = { width: 1280, height: 800 };
const MAX_STILL_SECONDS = 1;
/** At most this share of the film is movement; the rest is time to read the captions. */
const MOVEMENT_SHARE = 0.45;

interface Frame {
  file: string;
  /** Seconds (screencast clock). */
  at: number;
}

/** Captions and a pointer, drawn by the page itself so they are in every screencast frame. */
const OVERLAY = `(() => {
  if (window.__gsOverlay) return;
  window.__gsOverlay = true;
  const install = () => {
    const caption = document.createElement('div');
    caption.id = 'gs-caption';
    caption.style.cssText = 'position:fixed;left:50%;bottom:28px;transform:translateX(-50%);max-width:80%;padding:12px 22px;border-radius:12px;background:rgba(15,23,42,.88);color:#fff;font:600 20px/1.4 system-ui,sans-serif;text-align:center;z-index:2147483647;pointer-events:none;display:none';
    const pointer = document.createElement('div');
    pointer.id = 'gs-pointer';
    pointer.style.cssText = 'position:fixed;left:-40px;top:-40px;width:22px;height:22px;margin:-11px 0 0 -11px;border-radius:50%;background:rgba(79,70,229,.35);border:2px solid #4f46e5;z-index:2147483647;pointer-events:none;transition:transform .12s';
    document.documentElement.append(caption, pointer);
    addEventListener('mousemove', (e) => { pointer.style.left = e.clientX + 'px'; pointer.style.top = e.clientY + 'px'; }, true);
    addEventListener('mousedown', () => { pointer.style.transform = 'scale(.7)'; }, true);
    addEventListener('mouseup', () => { pointer.style.transform = ''; }, true);
  };
  if (document.documentElement) install(); else addEventListener('DOMContentLoaded', install);
})()`;

class Film {
  readonly frames: Frame[] = [];
  /** Pauses to add after a frame index (seconds, weights for the final pacing). */
  readonly holds = new Map<number, number>();
  private count = 0;
  private pending = 0;

  constructor(
    private readonly page: Page,
    private readonly dir: string,
  ) {}

  async start(): Promise<void> {
    const cdp = await this.page.context().newCDPSession(this.page);
    cdp.on('Page.screencastFrame', (event) => {
      const file = path.join(this.dir, `f${String(this.count++).padStart(5, '0')}.jpg`);
      writeFileSync(file, Buffer.from(event.data, 'base64'));
      this.frames.push({ file, at: event.metadata.timestamp ?? Date.now() / 1000 });
      void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    });
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 82, maxWidth: VIEWPORT.width, maxHeight: VIEWPORT.height });
  }

  /**
   * Shows a caption once the screen has settled, and asks for `seconds` of reading time. The time
   * goes to the last frame before the next action, so it holds the settled screen with this
   * caption, not a loading state the screencast delivered late.
   */
  async caption(text: string, seconds = 6): Promise<void> {
    this.settleHold();
    await this.page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
    await this.page.waitForTimeout(700);
    await this.page.evaluate(OVERLAY);
    await this.page.evaluate((t) => {
      const el = document.getElementById('gs-caption');
      if (!el) return;
      el.textContent = t;
      el.style.display = t ? 'block' : 'none';
    }, text);
    await this.page.waitForTimeout(900);
    this.pending += seconds;
  }

  /** Gives the pending reading time to the frame on screen now. */
  settleHold(): void {
    if (this.pending === 0) return;
    const last = this.frames.length - 1;
    this.holds.set(last, (this.holds.get(last) ?? 0) + this.pending);
    this.pending = 0;
  }

  /** Moves the visible pointer to the element, then clicks it. */
  async click(target: Locator): Promise<void> {
    this.settleHold();
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (box) await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 18 });
    await this.page.waitForTimeout(150);
    await target.click();
  }

  async type(target: Locator, text: string): Promise<void> {
    await this.click(target);
    await target.pressSequentially(text, { delay: 45 });
  }
}

/** Frame durations from the screencast clock plus the holds, scaled so the film lasts exactly `total`. */
function timeline(film: Film, total: number): number[] {
  // A still screen longer than a second is the product waiting (a run, a page load on a busy
  // machine): it is cut to a second. Movement keeps its real pace unless it would crowd out the
  // captions, then it is sped up evenly.
  const gaps = film.frames.map((frame, i) => Math.min(MAX_STILL_SECONDS, Math.max(0, (film.frames[i + 1]?.at ?? frame.at + 1) - frame.at)));
  const gapSum = gaps.reduce((a, b) => a + b, 0);
  const speed = Math.max(1, gapSum / (total * MOVEMENT_SHARE));
  const natural = gaps.map((gap) => gap / speed);
  const naturalSum = gapSum / speed;
  const holdSum = [...film.holds.values()].reduce((a, b) => a + b, 0);
  // The holds absorb the difference, in proportion to how long each was meant to be.
  const scale = (total - naturalSum) / holdSum;
  return natural.map((d, i) => d + (film.holds.get(i) ?? 0) * scale);
}

function encode(film: Film, durations: number[], out: string, poster: string): void {
  const list = path.join(path.dirname(film.frames[0]!.file), 'list.txt');
  const lines = film.frames.flatMap((frame, i) => [`file '${frame.file}'`, `duration ${durations[i]!.toFixed(4)}`]);
  lines.push(`file '${film.frames.at(-1)!.file}'`);
  writeFileSync(list, lines.join('\n') + '\n');
  execFileSync(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-vf',
      `fps=12,scale=${VIEWPORT.width}:-2:flags=lanczos,format=yuv420p`,
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '0',
      '-crf',
      '40',
      '-deadline',
      'good',
      '-cpu-used',
      '5',
      '-row-mt',
      '1',
      '-t',
      String(GETTING_STARTED_VIDEO_SECONDS),
      out,
    ],
    { stdio: 'inherit' },
  );
  copyFileSync(film.frames[Math.min(film.frames.length - 1, 40)]!.file, poster);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  // The demo project's environment points at PUBLIC_URL's demo shop, so the server must know its own address.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const test = await startTestApp('pglite', { WEB_DIST_DIR: path.join(WEB, 'dist'), WORKER_PROCESSES: '1', PUBLIC_URL: base });
  await test.app.listen({ host: '127.0.0.1', port });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'getting-started-'));
  try {
    const context = await browser.newContext({ baseURL: base, viewport: VIEWPORT });
    context.setDefaultTimeout(20_000);
    await context.addInitScript(OVERLAY);
    const page = await context.newPage();
    const film = new Film(page, dir);
    await page.goto('/login');
    await film.start();

    // 1. Account
    await film.caption('Welcome to Rehearse: record, write, run and review end-to-end tests as Gherkin.', 10);
    await film.click(page.getByRole('tab', { name: Strings.signUpTab }));
    await film.caption('Create your account. It comes with a Default project.', 6);
    await film.type(page.getByLabel(Strings.fieldFirstName), 'Ada');
    await film.type(page.getByLabel(Strings.fieldLastName), 'Lovelace');
    await film.type(page.getByLabel(Strings.fieldEmail, { exact: true }), 'ada@example.test');
    await film.type(page.getByLabel(Strings.fieldPassword, { exact: true }), 'correct horse battery');
    await film.click(page.locator('form').getByRole('button', { name: Strings.signUpSubmit, exact: true }));
    await page.waitForURL(/\/dashboard/);
    await film.caption('The dashboard sums up your project: scenarios, runs, executions and fixes to review.', 10);

    // 2. A project on the demo shop
    film.settleHold();
    await page.goto('/projects/new');
    await film.caption('A project points at the application you test. Here we use the demo shop that ships with Rehearse.', 10);
    await film.click(page.getByLabel(Strings.projectUseDemo));
    await film.caption('The project gets a default environment with the app’s URL.', 6);
    await film.click(page.getByRole('button', { name: Strings.projectCreate }));
    await page.waitForURL(/\/dashboard/, { timeout: 60_000 });
    const projectId = new URL(page.url()).pathname.split('/')[1]!;
    await film.caption('Your new project is ready.', 5);

    // 3. A scenario
    await film.click(page.getByRole('link', { name: Strings.navFeatures }).first());
    await page.getByRole('button', { name: S.newScenario }).first().waitFor();
    await film.caption('Features hold your scenarios. Record one with the AI Recorder, or write it.', 8);
    await film.click(page.getByRole('button', { name: S.newScenario }).first());
    const dialog = page.getByTestId('create-scenario-dialog');
    await film.caption('Three ways to add a scenario: record it, write it in Gherkin, or describe it and let the AI engine draft it.', 12);
    await film.click(dialog.getByRole('button', { name: new RegExp(S.createBdd) }));
    await film.type(dialog.getByLabel(S.featureNameLabel), 'Shop smoke');
    await film.type(dialog.getByLabel(S.scenarioNameLabel), 'Home lists products');
    await film.click(dialog.getByRole('button', { name: S.create }));
    await page.getByRole('button', { name: S.edit, exact: true }).waitFor();
    await film.click(page.getByRole('button', { name: S.edit, exact: true }));
    const editor = page.getByTestId('gherkin-editor').locator('.cm-content');
    await film.click(editor);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await film.caption('Plain-English steps run without any code: open, click, fill, select, see…', 8);
    film.settleHold();
    for (const line of [
      '@smoke',
      'Scenario: Home lists products',
      '  Given I open "/"',
      '  Then I should see "Enamel Camp Mug"',
      '  When I click "Enamel Camp Mug"',
      '  Then I should see "Add to cart"',
    ]) {
      await page.keyboard.type(line, { delay: 35 });
      await page.keyboard.press('Enter');
      await page.keyboard.press('Home');
    }
    await film.click(page.getByRole('button', { name: S.save, exact: true }));
    await page.getByTestId('steps').getByText(S.builtIn, { exact: true }).first().waitFor();
    await film.caption('Saved as a commit in the project’s git workspace. Each step shows where its code comes from.', 10);

    // 4. A run
    await film.click(page.getByRole('button', { name: S.runScenario, exact: true }));
    await film.caption('Run scenario: a worker runs it in a real Chromium and uploads the report.', 6);
    const status = page.getByTestId('run-status');
    await page.waitForFunction((el) => /passed|failed|error/i.test(el?.textContent ?? ''), await status.elementHandle(), {
      timeout: 180_000,
      polling: 1000,
    });
    await film.caption('Done. Open the report from here or from Reports.', 6);

    // 5. The report
    await film.click(page.getByRole('link', { name: Strings.navReports }).first());
    await film.caption('Reports lists every run, newest first, with search, time ranges and grouping by failed step.', 10);
    const runRow = page.getByRole('link', { name: /Home lists products/ }).first();
    await runRow.waitFor();
    await film.click(runRow);
    await page.waitForURL(/report/);
    await film.caption('A run report: duration, status and steps, the values used, and every command with its screenshot.', 12);
    for (const tab of [ReportStrings.reportTabNetwork, ReportStrings.reportTabConsole]) {
      const t = page.getByRole('tab', { name: tab, exact: true });
      if (await t.count()) {
        await film.click(t.first());
        await film.caption(
          tab === ReportStrings.reportTabNetwork ? 'Network calls of each step, with status and timing.' : 'And the browser console.',
          7,
        );
      }
    }

    // 6. Executions
    await film.click(page.getByRole('link', { name: Strings.navExecutions }).first());
    await film.caption('Executions run many scenarios in parallel threads: by tag, in flows and groups, on a schedule or from CI/CD.', 12);
    const plan = page.getByRole('button', { name: ExecutionStrings.execPlan }).first();
    if (await plan.count()) {
      await film.click(plan);
      await film.caption('The planner picks scenarios by tag, the environment, the branch and a schedule.', 10);
      film.settleHold();
      await page.keyboard.press('Escape');
    }

    // 7. Code Review and Get Started
    await film.click(page.getByRole('link', { name: Strings.navCodeReview }).first());
    await film.caption(
      'Run with AI recovery heals broken locators. Each fix waits here for your review: see the diff, then accept it as a commit.',
      14,
    );
    film.settleHold();
    await page.goto(`/onboarding`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await film.caption('Get Started, in the account menu, ticks off these steps as your project does them.', 10);
    film.settleHold();
    await page.goto(`/${projectId}/dashboard`);
    await page.getByRole('link', { name: Strings.navFeatures }).first().waitFor();
    await film.caption('That’s it: record or write a scenario, run it, read the report, plan an execution.', 12);
    await film.caption('', 2);
    await page.waitForTimeout(500);
    film.settleHold();

    const durations = timeline(film, GETTING_STARTED_VIDEO_SECONDS);
    const out = path.join(WEB, 'public', 'getting-started.webm');
    encode(film, durations, out, path.join(WEB, 'public', 'getting-started.jpg'));
    process.stdout.write(`Wrote ${out} from ${film.frames.length} frames.\n`);
  } finally {
    await browser.close();
    await test.close();
    // KEEP_FRAMES=1 leaves the frames to look at (the captions, the pacing) before committing.
    if (process.env.KEEP_FRAMES === '1') process.stdout.write(`Frames kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
