import { createHash } from 'node:crypto';
import {
  effectBetween,
  RecordedCommand,
  visibleLinesOfPage,
  type RecordedPage,
  type RecorderAssertion,
  type RecorderInput,
} from '@rehearse/contract';
import { REFUSAL_HEADER } from '@rehearse/egress';
import { launchBrowser } from '@rehearse/runner/browser';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { TestDataDigest } from '@rehearse/codegen';
import { captureScript } from './capture-script.js';

export { digestTestData } from '@rehearse/codegen';

export interface Frame {
  data: Buffer;
  width: number;
  height: number;
  /** Id of the latest input dispatched before this frame, for input-to-frame latency. */
  input?: number;
}

/** The assertions the next click on the page records instead of a click. */
export type AssertMode = Exclude<RecorderAssertion, 'verifyUrl' | 'verifyNoText'>;

/**
 * Something drawn inside the recorded browser that follows the recording (the local recorder's
 * panel). Installed before the first page opens, told of every change to the steps.
 */
export interface SessionPanel {
  install(context: BrowserContext, session: RecorderSession): Promise<void>;
  update(commands: RecordedCommand[]): void;
}

export interface RecorderSessionOptions {
  /** Where recording starts. */
  url: string;
  /** The environment's base URL; commands keep paths relative to it. */
  baseUrl: string;
  viewport: { width: number; height: number };
  headless: boolean;
  /** See LaunchOptions.debugPort. */
  debugPort?: number | undefined;
  testData?: TestDataDigest[];
  /** Stream the page as JPEG frames (cloud recorder); the local recorder shows a real window. */
  screencast?: boolean;
  jpegQuality?: number;
  /** The local recorder's in-page panel. */
  panel?: SessionPanel;
  onCommands?: (commands: RecordedCommand[]) => void;
  onFrame?: (frame: Frame) => void;
  onPage?: (page: RecordedPage) => void;
}

/** Path of a URL relative to the base URL, as the capture script computes it. */
export function relativePath(url: string, baseUrl: string): string {
  const href = url.split('#')[0] ?? url;
  if (baseUrl && href.startsWith(baseUrl)) return `/${href.slice(baseUrl.length).replace(/^\//, '')}`;
  try {
    const parsed = new URL(href);
    return parsed.pathname + parsed.search;
  } catch {
    return href;
  }
}

/**
 * One recording: a Chromium with the capture script in every frame, the commands it captured,
 * and (for the cloud recorder) a CDP screencast plus input dispatch.
 */
/**
 * The recorded page could not be opened from here: the egress proxy refused where it led (a
 * redirect to cloud metadata, a private address the server does not allow) or could not reach it.
 * The user's answer is "not reachable", not a server fault.
 */
export class NavigationRefused extends Error {
  constructor(url: string, why: string) {
    super(`${url} could not be opened: ${why}`);
    this.name = 'NavigationRefused';
  }
}

/** Chromium's words when the proxy answers a CONNECT with anything but 200 (refused, or could not connect). */
const TUNNEL_REFUSED = /net::ERR_TUNNEL_CONNECTION_FAILED/;

export class RecorderSession {
  readonly commands: RecordedCommand[] = [];
  private readonly pages = new Map<string, RecordedPage>();
  private cdp: CDPSession | undefined;
  private page!: Page;
  private lastInput: number | undefined;
  private closed = false;
  /** The page's visible lines as each step began (see add). */
  private readonly linesBefore = new WeakMap<RecordedCommand, string[]>();
  /** Mouse button held down on the stream, and modifier keys held (CDP bit mask). */
  private pressed: 'left' | 'right' | 'middle' | undefined;
  private modifiers = 0;

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly options: RecorderSessionOptions,
  ) {}

  /** Launches the browser, opens the start URL and records its navigation as the first step. */
  static async start(options: RecorderSessionOptions): Promise<RecorderSession> {
    const browser = await launchBrowser({ browser: 'chromium', headless: options.headless, debugPort: options.debugPort });
    try {
      const context = await browser.newContext({ viewport: options.viewport });
      const session = new RecorderSession(browser, context, options);
      await session.init();
      return session;
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
  }

  private async init(): Promise<void> {
    const { context, options } = this;
    // The recorded page can call the binding too, with anything: only a well-formed command is a step.
    await context.exposeBinding('__rehearseRecord', (_source, command: unknown, lines: unknown) => {
      const parsed = RecordedCommand.safeParse(command);
      const visible = Array.isArray(lines) ? lines.filter((line): line is string => typeof line === 'string').slice(0, 2000) : undefined;
      if (parsed.success) this.add(parsed.data, visible);
    });
    await context.addInitScript(captureScript({ baseUrl: options.baseUrl, testData: options.testData ?? [] }));
    await options.panel?.install(context, this);
    context.on('page', (page) => {
      // A link that opens a tab: follow it, as a person at the screen would.
      if (this.page && page !== this.page) void this.switchTo(page);
    });
    const page = await context.newPage();
    await this.switchTo(page);
    this.add({ type: 'navigate', value: relativePath(options.url, options.baseUrl).replace(/^\//, '') || '/', path: '/' });
    const response = await page.goto(options.url, { waitUntil: 'domcontentloaded' }).catch((error: unknown) => {
      if (error instanceof Error && TUNNEL_REFUSED.test(error.message))
        throw new NavigationRefused(options.url, 'the egress proxy refused the tunnel');
      throw error;
    });
    // A plain-http page (or a redirect) the proxy refused arrives as the proxy's own answer.
    if (response?.headers()[REFUSAL_HEADER]) throw new NavigationRefused(options.url, (await response.text()).slice(0, 300));
  }

  private async switchTo(page: Page): Promise<void> {
    if (this.cdp) {
      await this.cdp.send('Page.stopScreencast').catch(() => undefined);
      await this.cdp.detach().catch(() => undefined);
      this.cdp = undefined;
    }
    this.page = page;
    page.on('load', () => void this.rememberPage(page));
    if (!this.options.screencast) return;
    const cdp = await this.context.newCDPSession(page);
    this.cdp = cdp;
    cdp.on(
      'Page.screencastFrame',
      (event: { data: string; sessionId: number; metadata: { deviceWidth: number; deviceHeight: number } }) => {
        // Ack first: Chromium sends the next frame only after the previous one is acknowledged.
        cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
        const input = this.lastInput;
        this.lastInput = undefined;
        this.options.onFrame?.({
          data: Buffer.from(event.data, 'base64'),
          width: Math.round(event.metadata.deviceWidth),
          height: Math.round(event.metadata.deviceHeight),
          ...(input === undefined ? {} : { input }),
        });
      },
    );
    const { width, height } = this.options.viewport;
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: this.options.jpegQuality ?? 60,
      maxWidth: width,
      maxHeight: height,
      everyNthFrame: 1,
    });
  }

  /**
   * Adds a step. `lines` is the page's visible text as this step began, which is also how the
   * page stood after the step before: that step's effect is what changed in between.
   */
  private add(command: RecordedCommand, lines?: string[]): void {
    if (this.closed) return;
    const safe = lines && this.withoutSecrets(lines);
    const previous = this.commands.at(-1);
    const previousLines = previous && this.linesBefore.get(previous);
    if (previous && previousLines && safe) previous.effect = effectBetween(previousLines, safe);
    let startedWith = safe;
    // Typing into a field again replaces its earlier fill: one fill per field, not per change.
    const last = this.commands.at(-1);
    if (command.type === 'fill' && last?.type === 'fill' && sameElement(last, command))
      startedWith = this.linesBefore.get(this.commands.pop()!) ?? startedWith;
    // The browser reports a double-click as click, click, dblclick: the step is the double-click.
    if (command.type === 'doubleClick') {
      for (let taken = 0; taken < 2 && this.commands.at(-1)?.type === 'click' && sameElement(this.commands.at(-1)!, command); taken += 1) {
        startedWith = this.linesBefore.get(this.commands.pop()!) ?? startedWith;
      }
    }
    if (startedWith) this.linesBefore.set(command, startedWith);
    this.commands.push(command);
    this.changed();
    // The page now shows what the step before did: a list it filled is part of the app's map.
    void this.rememberPage(this.page);
  }

  private async rememberPage(page: Page): Promise<void> {
    try {
      const url = page.url();
      // about:blank (before the first navigation) and other non-web pages are no page of the app.
      if (!/^https?:/.test(url)) return;
      const path = relativePath(url, this.options.baseUrl);
      const ariaSnapshot = await page.locator('body').ariaSnapshot({ timeout: 3000 });
      // A step that navigates (Sign in) may have moved the page on while it was read: that snapshot
      // is of another route, and the next page's load remembers that one.
      if (page.url() !== url) return;
      const recorded = { path: path.split('?')[0] ?? path, url, title: await page.title(), ariaSnapshot };
      // A route keeps its fullest view: the todo list with rows says more of the app than the same
      // page empty (scenario ideas read it), and a later step that emptied it again takes nothing away.
      const known = this.pages.get(recorded.path);
      if (known && lineCount(known.ariaSnapshot) > lineCount(ariaSnapshot)) return;
      this.pages.set(recorded.path, recorded);
      this.options.onPage?.(recorded);
    } catch {
      // The page moved on before its snapshot was taken; the next load will be remembered.
    }
  }

  /** Pages seen so far (route → ARIA snapshot), for the application memory. */
  recordedPages(): RecordedPage[] {
    return [...this.pages.values()];
  }

  /** The page being recorded (tests and the local recorder drive it directly). */
  get activePage(): Page {
    return this.page;
  }

  /** Removes the last recorded step (never the opening navigation). */
  undo(): void {
    if (this.commands.length > 1) this.commands.pop();
    this.changed();
  }

  private changed(): void {
    this.options.onCommands?.([...this.commands]);
    this.options.panel?.update([...this.commands]);
  }

  /**
   * The next click on the page records an assertion on what was clicked instead of a click (null:
   * a click again). `frames: 'children'` leaves the top frame alone: the local panel arms it itself
   * the moment its button is clicked, and arming it again here, after the round trip, could arm a
   * page whose click had already made the assertion.
   */
  async assertNext(type: AssertMode | null, frames: 'all' | 'children' = 'all'): Promise<void> {
    const main = this.page.mainFrame();
    await Promise.all(
      this.page
        .frames()
        .filter((frame) => frames === 'all' || frame !== main)
        .map((frame) =>
          frame
            .evaluate((mode) => {
              (window as unknown as { __rehearseSetAssertMode?: (m: string | null) => void }).__rehearseSetAssertMode?.(mode);
            }, type)
            .catch(() => undefined),
        ),
    );
  }

  /**
   * The effect of the last step, from the page as it stands, when no later step from the page
   * gave it (an assertion the panel adds, or the end of the recording). Returns once it is set.
   */
  async settleLastEffect(): Promise<void> {
    // The last step is taken now, before a step the panel adds right after this call.
    await this.settleEffectOf(this.commands.at(-1));
    // The page as the recording leaves it, for the map (the last step's effect is only on screen).
    await this.rememberPage(this.page);
  }

  private async settleEffectOf(last: RecordedCommand | undefined): Promise<void> {
    const before = last && this.linesBefore.get(last);
    if (!last || !before || last.effect) return;
    const shown = await this.page.evaluate(visibleLinesOfPage).catch(() => undefined);
    const lines = shown && this.withoutSecrets(shown);
    if (!lines || last.effect) return;
    last.effect = effectBetween(before, lines);
    this.changed();
  }

  /**
   * Page lines without any that show a secret test-data value (a word of the line, or the line,
   * whose digest is a secret's): effects go into git, secrets never do.
   */
  private withoutSecrets(lines: string[]): string[] {
    const secrets = new Set((this.options.testData ?? []).filter((row) => row.secret).map((row) => row.sha256));
    if (secrets.size === 0) return lines;
    const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const words = (line: string) => [line, ...line.split(/\s+/).map((word) => word.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/g, ''))];
    return lines.filter((line) => !words(line).some((word) => word !== '' && secrets.has(digest(word))));
  }

  /** Records a text assertion the user typed (no element needed). */
  assertText(text: string): Promise<void> {
    return this.settleThenAdd({
      type: 'verifyText',
      value: text,
      path: relativePath(this.page.url(), this.options.baseUrl),
      url: this.page.url(),
    });
  }

  /** Records that the page must not show a text the user typed (what an action took away). */
  assertNoText(text: string): Promise<void> {
    return this.settleThenAdd({
      type: 'verifyNoText',
      value: text,
      path: relativePath(this.page.url(), this.options.baseUrl),
      url: this.page.url(),
    });
  }

  /**
   * Adds a step the panel made (no page event carries the page's lines): the step before it takes
   * its effect from the page first. The step is added at once; its predecessor's effect follows.
   */
  private settleThenAdd(command: RecordedCommand): Promise<void> {
    const settled = this.settleLastEffect();
    this.add(command);
    return settled;
  }

  /** Records that the address must contain the page's path and hash as they are now (`/#/active`). */
  assertUrl(): Promise<void> {
    const url = this.page.url();
    const path = relativePath(url, this.options.baseUrl);
    const hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
    // A route in the hash is what a hash-routed app's URL says; the page alone otherwise.
    return this.settleThenAdd({ type: 'verifyUrl', value: hash && hash !== '#' ? hash : path, path, url });
  }

  /** Applies one assertion a recorder's panel asked for: at once, or on the next click. */
  async assert(type: RecorderAssertion, text?: string): Promise<void> {
    if (type === 'verifyUrl') return this.assertUrl();
    if (type === 'verifyNoText') return text ? this.assertNoText(text) : undefined;
    if (type === 'verifyText' && text) return this.assertText(text);
    await this.assertNext(type);
  }

  /** Applies one input event from the streamed page to the browser. */
  async input(input: RecorderInput): Promise<void> {
    if (this.closed) return;
    if ('id' in input && input.id !== undefined) this.lastInput = input.id;
    const { page } = this;
    switch (input.kind) {
      case 'mouse':
        if (this.cdp) {
          // Straight to CDP: one round trip per event instead of Playwright's move-then-act pair,
          // which is what keeps input-to-frame latency low on the stream.
          const button = input.button ?? 'left';
          await this.cdp.send('Input.dispatchMouseEvent', {
            type: input.type === 'move' ? 'mouseMoved' : input.type === 'down' ? 'mousePressed' : 'mouseReleased',
            x: input.x,
            y: input.y,
            button: input.type === 'move' ? (this.pressed ?? 'none') : button,
            buttons: input.type === 'up' ? 0 : input.type === 'down' || this.pressed ? BUTTONS[button] : 0,
            clickCount: input.type === 'move' ? 0 : (input.clickCount ?? 1),
            modifiers: this.modifiers,
          });
          if (input.type === 'down') this.pressed = button;
          if (input.type === 'up') this.pressed = undefined;
        } else if (input.type === 'move') await page.mouse.move(input.x, input.y);
        else {
          await page.mouse.move(input.x, input.y);
          const options = { button: input.button ?? 'left', clickCount: input.clickCount ?? 1 };
          await (input.type === 'down' ? page.mouse.down(options) : page.mouse.up(options));
        }
        break;
      case 'wheel':
        if (this.cdp) {
          await this.cdp.send('Input.dispatchMouseEvent', {
            type: 'mouseWheel',
            x: input.x,
            y: input.y,
            deltaX: input.deltaX,
            deltaY: input.deltaY,
            modifiers: this.modifiers,
          });
        } else {
          await page.mouse.move(input.x, input.y);
          await page.mouse.wheel(input.deltaX, input.deltaY);
        }
        break;
      case 'key':
        if (MODIFIER_BITS[input.key])
          this.modifiers = input.type === 'down' ? this.modifiers | MODIFIER_BITS[input.key]! : this.modifiers & ~MODIFIER_BITS[input.key]!;
        try {
          await (input.type === 'down' ? page.keyboard.down(input.key) : page.keyboard.up(input.key));
        } catch {
          // A character outside the US layout (é, ß, emoji) is typed as text; other unknown keys
          // (dead keys, media keys) type nothing.
          if (input.type === 'down' && [...input.key].length === 1) await page.keyboard.insertText(input.key);
        }
        break;
      case 'paste':
        await page.keyboard.insertText(input.text);
        break;
      case 'viewport':
        this.options.viewport = { width: input.width, height: input.height };
        await page.setViewportSize(this.options.viewport);
        if (this.cdp) {
          await this.cdp.send('Page.stopScreencast');
          await this.cdp.send('Page.startScreencast', {
            format: 'jpeg',
            quality: this.options.jpegQuality ?? 60,
            maxWidth: input.width,
            maxHeight: input.height,
            everyNthFrame: 1,
          });
        }
        break;
      case 'navigate': {
        const target = new URL(input.url, this.options.baseUrl).toString();
        this.add({
          type: 'navigate',
          value: relativePath(target, this.options.baseUrl).replace(/^\//, '') || '/',
          path: relativePath(page.url(), this.options.baseUrl),
        });
        await page.goto(target, { waitUntil: 'domcontentloaded' });
        break;
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.browser.close().catch(() => undefined);
  }
}

const BUTTONS = { left: 1, right: 2, middle: 4 } as const;
const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

const lineCount = (text: string) => text.split('\n').length;

function sameElement(a: RecordedCommand, b: RecordedCommand): boolean {
  return a.path === b.path && JSON.stringify(a.element?.locators) === JSON.stringify(b.element?.locators);
}
