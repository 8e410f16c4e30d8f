import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { World, type IWorldOptions } from '@cucumber/cucumber';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { MediaTypes, type AriaAttachment, type ScenarioAttachment, type TraceAttachment } from '../attachments.js';
import { Capture } from './capture.js';
import { chromiumSession } from './cdp.js';
import { initialAriaSnapshot } from './initial-aria.js';
import { settingsFromWorkspace, type RunSettings } from './settings.js';
import { TestData } from './test-data.js';
import type { LocatorCandidate } from './elements.js';
import { effectsFileOf, StepEffectsFile, type CommandHealing, type RecordedEffect } from '@rehearse/contract';
import { keepsTrace, nextAttempt, recordsTrace, ScenarioTrace } from './trace.js';

/** World parameters the CLI passes; plain cucumber-js may pass `rehearse` too, or nothing. */
export interface RehearseParameters {
  rehearse?: RunSettings;
}

/** The last response of an API step, for the assertion steps after it. */
export interface ApiResponseRecord {
  method: string;
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  text: string;
  data: unknown;
}

/**
 * The process's browser and why its last launch failed (until a run takes it, see
 * takeLaunchFailure). On globalThis: the support code cucumber imports and the CLI that opens,
 * keeps and closes the browser may be two instances of this module (the source run through a
 * loader beside a test runner's own), and both must see one browser, or a close through one
 * leaves the other's kept browser running.
 */
const SHARED_BROWSER = Symbol.for('rehearse.sharedBrowser');
const LAUNCH_FAILURE = Symbol.for('rehearse.launchFailure');
const processWide = globalThis as {
  [SHARED_BROWSER]?: { key: string; browser: Promise<Browser> } | undefined;
  [LAUNCH_FAILURE]?: string | undefined;
};
let workspaceSettings: RunSettings | undefined;

/**
 * One browser per run (per process), launched by the first scenario that needs it; with
 * `keepBrowser` (a worker thread) it outlives the run and serves the process's next runs.
 */
async function browserFor(settings: Pick<RunSettings, 'browser' | 'headless'>): Promise<Browser> {
  const key = `${settings.browser}:${String(settings.headless)}`;
  const current = await processWide[SHARED_BROWSER]?.browser.catch(() => undefined);
  // A browser that crashed is replaced, so one crash fails one scenario, not the rest of the run.
  if (processWide[SHARED_BROWSER]?.key !== key || !current?.isConnected()) {
    const previous = processWide[SHARED_BROWSER]?.browser;
    processWide[SHARED_BROWSER] = { key, browser: launchBrowser({ browser: settings.browser, headless: settings.headless }) };
    void previous?.then((browser) => browser.close()).catch(() => undefined);
  }
  const launched = processWide[SHARED_BROWSER].browser;
  // A failed launch must not poison every later scenario of a long-lived process.
  launched.catch((error: unknown) => {
    processWide[LAUNCH_FAILURE] = error instanceof Error ? error.message : String(error);
    if (processWide[SHARED_BROWSER]?.browser === launched) processWide[SHARED_BROWSER] = undefined;
  });
  return launched;
}

/**
 * Opens (or reuses) the browser this process's next run will use and rejects when it cannot, so a
 * run whose browser endpoint does not answer stops before its first scenario.
 */
export async function openSharedBrowser(options: Pick<RunSettings, 'browser' | 'headless'>): Promise<void> {
  await browserFor(options);
}

/**
 * Why a browser launch failed since the last call, and forgets it: `rehearse run` asks before and
 * after its scenarios, so a scenario that failed because its browser never started is an
 * infrastructure error, not a failed test.
 */
export function takeLaunchFailure(): string | undefined {
  const failure = processWide[LAUNCH_FAILURE];
  delete processWide[LAUNCH_FAILURE];
  return failure;
}

/** Closes the run's browser (AfterAll). */
export async function closeSharedBrowser(): Promise<void> {
  const current = processWide[SHARED_BROWSER];
  processWide[SHARED_BROWSER] = undefined;
  if (current) await (await current.browser.catch(() => undefined))?.close();
}

/** Run settings from the world parameters, else from the working directory (plain cucumber-js). */
export function resolveSettings(parameters: RehearseParameters | undefined): RunSettings {
  if (parameters?.rehearse) return parameters.rehearse;
  workspaceSettings ??= settingsFromWorkspace(process.cwd());
  return workspaceSettings;
}

/**
 * The cucumber World of a Rehearse run: a fresh browser context and page per scenario, test data,
 * and the capture of requests and console messages. Step definitions reach it as `this`.
 */
export class RehearseWorld extends World<RehearseParameters> {
  readonly settings: RunSettings;
  readonly data: TestData;
  browserContext!: BrowserContext;
  page!: Page;
  /** The cucumber test step running now; null before the first one. */
  currentStepId: string | null = null;
  readonly capture = new Capture(() => this.currentStepId);
  /** Elements that received a secret: masked in every later screenshot of the scenario. */
  readonly maskedElements: Locator[] = [];
  /**
   * Elements healed earlier in this scenario, by locator file entry: a later command on the same
   * element (the Enter after a healed fill) finds it the same way instead of healing again.
   */
  readonly healedElements = new Map<string, { locators: LocatorCandidate[]; healing: CommandHealing; assertable: boolean }>();
  /**
   * What the running step visibly did when it was recorded (the feature's effects file): a step
   * that acts on a healed element is held to it. Undefined when nothing was recorded.
   */
  stepEffect: RecordedEffect | undefined;
  private scenarioEffects: Record<string, (RecordedEffect | null)[]> | undefined;
  private readonly stepOccurrences = new Map<string, number>();
  /** Headers the next API request sends (`I set the request header …`). */
  apiHeaders: Record<string, string> = {};
  lastResponse: ApiResponseRecord | undefined;
  /** The media type of the running step's doc string ("""json), read by the API steps. */
  docStringMediaType: string | undefined;
  scenarioStartedAt = 0;
  private initialAria: Promise<void> | undefined;
  private readonly attachedScreenshots = new Set<string>();
  private trace: ScenarioTrace | undefined;

  constructor(options: IWorldOptions<RehearseParameters>) {
    super(options);
    this.settings = resolveSettings(options.parameters);
    this.data = new TestData(this.settings.testData, this.settings.env);
  }

  /** Reads the recorded effects of the scenario's steps, when the feature has an effects file (Before hook). */
  loadRecordedEffects(featureUri: string, scenarioName: string): void {
    this.scenarioEffects = undefined;
    this.stepOccurrences.clear();
    const file = path.resolve(this.settings.workspaceDir ?? process.cwd(), effectsFileOf(featureUri));
    if (!existsSync(file)) return;
    try {
      const parsed = StepEffectsFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) this.scenarioEffects = parsed.data[scenarioName];
    } catch {
      // An unreadable effects file only means healed steps are not held to their effects.
    }
  }

  /** Notes the step that begins and finds its recorded effect (BeforeStep hook). */
  beginStep(text: string): void {
    const occurrence = (this.stepOccurrences.get(text) ?? 0) + 1;
    this.stepOccurrences.set(text, occurrence);
    this.stepEffect = this.scenarioEffects?.[text]?.[occurrence - 1] ?? undefined;
  }

  /** Opens the scenario's browser context and page and starts capturing (Before hook). */
  async openPage(pickle?: { id: string; name: string }): Promise<void> {
    this.scenarioStartedAt = Date.now();
    this.browserContext = await this.newContext();
    this.browserContext.setDefaultTimeout(this.settings.commandTimeoutMs);
    this.browserContext.setDefaultNavigationTimeout(Math.max(this.settings.commandTimeoutMs, 30_000));
    this.capture.listen(this.browserContext);
    if (pickle && recordsTrace(this.settings.trace, nextAttempt(pickle.id))) {
      // A trace is an aid: one that cannot start (a remote browser that refuses it) fails no scenario.
      this.trace = await ScenarioTrace.start(this.browserContext, pickle.name).catch((error: unknown) => {
        process.stderr.write(`rehearse: no trace for "${pickle.name}": ${(error as Error).message}\n`);
        return undefined;
      });
    }
    this.page = await this.browserContext.newPage();
    const scenario: ScenarioAttachment = { env: this.settings.env, browser: this.settings.browser, viewport: this.settings.viewport };
    this.attachJson(MediaTypes.scenario, scenario);
  }

  private async newContext(): Promise<BrowserContext> {
    const browser = await browserFor(this.settings);
    const options = { viewport: this.settings.viewport, ...(this.settings.reducedMotion ? { reducedMotion: 'reduce' as const } : {}) };
    try {
      return await browser.newContext(options);
    } catch (error) {
      // A browser kept between runs (a worker thread) may have died before Playwright noticed:
      // the failed call reveals it, and one relaunch serves this scenario.
      if (browser.isConnected()) throw error;
      return (await browserFor(this.settings)).newContext(options);
    }
  }

  /** Sends what the capture collected; `final` also waits for late sizes and unfinished requests. */
  async flush(final: boolean): Promise<void> {
    if (final) await this.initialAria;
    const { network, webLog } = await this.capture.take(final);
    for (const [testStepId, entries] of network) this.attachJson(MediaTypes.network, { testStepId, entries });
    for (const [testStepId, entries] of webLog) this.attachJson(MediaTypes.webLog, { testStepId, entries });
  }

  /** The page's ARIA snapshot, or undefined when there is no page worth describing. */
  async ariaSnapshot(): Promise<string | undefined> {
    const page = this.page as Page | undefined;
    if (!page || page.isClosed() || page.url() === 'about:blank') return undefined;
    return page
      .locator('body')
      .ariaSnapshot({ timeout: 5_000 })
      .catch(() => undefined);
  }

  /**
   * Starts the ARIA snapshot of the first page the scenario reached, once, without waiting for it
   * (it takes ~200 ms on a shop page, unless this process saw the same page before: see
   * initial-aria.ts); {@link flush} with `final` waits for it.
   */
  startInitialAriaSnapshot(): void {
    if (this.initialAria) return;
    const page = this.page as Page | undefined;
    if (!page || page.isClosed() || page.url() === 'about:blank') return;
    const url = page.url();
    this.initialAria = initialAriaSnapshot(page, this.settings.viewport, () => this.ariaSnapshot()).then((snapshot) => {
      if (snapshot === undefined) {
        // A navigation got in the way; the next step tries again.
        this.initialAria = undefined;
        return;
      }
      this.attachJson(MediaTypes.aria, { kind: 'initial', testStepId: null, url, snapshot } satisfies AriaAttachment);
    });
  }

  attachAria(kind: AriaAttachment['kind'], snapshot: string): void {
    const aria: AriaAttachment = { kind, testStepId: this.currentStepId, url: this.page.url(), snapshot };
    this.attachJson(MediaTypes.aria, aria);
  }

  /**
   * Takes a screenshot and sends it; its id is the sha256 of the PNG, so a formatter can store it
   * content-addressed and identical screenshots are stored once.
   */
  async screenshot(): Promise<string | undefined> {
    const page = this.page as Page | undefined;
    if (!page || page.isClosed()) return undefined;
    const { png, base64 } = await this.capturePng(page);
    const id = createHash('sha256').update(png).digest('hex');
    if (!this.attachedScreenshots.has(id)) {
      this.attachedScreenshots.add(id);
      // Chromium's picture arrives as base64, which is what the attachment carries: handed over as
      // it came, it is not encoded a second time (a few ms a picture, issue 48).
      if (base64) this.attach(base64, { mediaType: `base64:${MediaTypes.screenshot}`, fileName: `${id}.png` });
      else this.attach(png, { mediaType: MediaTypes.screenshot, fileName: `${id}.png` });
    }
    return id;
  }

  /**
   * Chromium encodes a PNG 2.5x faster when asked to favour speed over size (~40 ms instead of
   * ~100 ms at 1024x768), which decides whether a screenshot per command fits the runner's
   * budget. Playwright does not expose that switch, so Chromium gets it through CDP; other
   * browsers, and pages with elements to mask, go through Playwright. Answers the PNG, and the
   * base64 it came as when it came through CDP.
   */
  private async capturePng(page: Page): Promise<{ png: Buffer; base64?: string }> {
    if (this.maskedElements.length === 0) {
      const session = await chromiumSession(page);
      if (session) {
        const shot = await session.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true }).catch(() => undefined);
        if (shot) return { png: Buffer.from(shot.data, 'base64'), base64: shot.data };
      }
    }
    // The fields a secret went into, and whatever on the page now shows it as text (a search page
    // echoing the query, a profile showing the token): a picture cannot be redacted afterwards.
    const echoes = this.data.secretTexts().map((secret) => page.getByText(secret));
    return { png: await page.screenshot({ type: 'png', mask: [...this.maskedElements, ...echoes], timeout: 10_000 }) };
  }

  /** Attaches JSON for the formatter, with every secret this run knows scrubbed from it. */
  attachJson(mediaType: string, payload: unknown): void {
    this.attach(JSON.stringify(this.data.redactDeep(payload)), mediaType);
  }

  /** Continues the scenario in another page of its context (a tab the page opened). */
  usePage(page: Page): void {
    this.page = page;
  }

  /** Opens the step's group in the trace (BeforeStep); its text is shown with secrets masked. */
  async traceStepStarted(text: string): Promise<void> {
    await this.trace?.beginStep(this.data.redact(text)).catch(() => undefined);
  }

  async traceStepEnded(): Promise<void> {
    await this.trace?.endStep().catch(() => undefined);
  }

  /** Stops the scenario's trace and hands a kept one, secrets masked, to the report (After hook). */
  async finishTrace(failed: boolean): Promise<void> {
    const trace = this.trace;
    this.trace = undefined;
    try {
      const file = await trace?.stop(keepsTrace(this.settings.trace, failed), (bytes) => this.data.redactBytes(bytes));
      if (file) this.attachJson(MediaTypes.trace, { file } satisfies TraceAttachment);
    } catch (error) {
      process.stderr.write(`rehearse: the trace could not be kept: ${(error as Error).message}\n`);
    }
  }

  /** Closes the scenario's context (After hook). */
  async closePage(): Promise<void> {
    const context = this.browserContext as BrowserContext | undefined;
    await context?.close().catch(() => undefined);
  }
}
