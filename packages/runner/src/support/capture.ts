import type { NetworkEntry, WebLogEntry } from '@rehearse/contract';
import type { BrowserContext, ConsoleMessage, Request, Response } from 'playwright-core';

interface Tagged<T> {
  testStepId: string | null;
  entry: T;
}

/** How long the end of a scenario waits for response sizes still being read. */
const SETTLE_MS = 1_000;

/**
 * Records every request and every console warning or error of a browser context, each tagged with
 * the step that was running when it started, until {@link take} hands them over.
 */
export class Capture {
  private readonly pending = new Map<Request, Tagged<NetworkEntry>>();
  /** Responses as their events arrived, so a finished request need not ask the browser for its own. */
  private readonly responses = new WeakMap<Request, Response>();
  private readonly inFlight = new Set<Promise<void>>();
  private network: Tagged<NetworkEntry>[] = [];
  private webLog: Tagged<WebLogEntry>[] = [];

  constructor(private readonly currentStep: () => string | null) {}

  /** Starts listening on a context: its pages, popups included. */
  listen(context: BrowserContext): void {
    context.on('request', (request) => this.onRequest(request));
    context.on('response', (response) => this.responses.set(response.request(), response));
    context.on('requestfinished', (request) => this.track(this.onFinished(request)));
    context.on('requestfailed', (request) => this.onFailed(request));
    context.on('console', (message) => this.onConsole(message));
    context.on('weberror', (error) => this.log('error', error.error().message));
  }

  /** Requests of the running step that the server answered with a 5xx (a "server" failure, not a locator one). */
  serverErrorsOfCurrentStep(): NetworkEntry[] {
    const step = this.currentStep();
    return this.network
      .filter((tagged) => tagged.testStepId === step && tagged.entry.status !== null && tagged.entry.status >= 500)
      .map((tagged) => tagged.entry);
  }

  /** Adds a request made outside the browser (an API step). */
  record(entry: NetworkEntry): void {
    this.network.push({ testStepId: this.currentStep(), entry });
  }

  /**
   * Everything finished since the last call, grouped by step. With `final`, waits briefly for
   * sizes still being read and also hands over requests that never finished (no status, no time).
   */
  async take(final: boolean): Promise<{ network: Map<string | null, NetworkEntry[]>; webLog: Map<string | null, WebLogEntry[]> }> {
    if (final && this.inFlight.size > 0) {
      await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, SETTLE_MS))]);
    }
    const network = this.network;
    const webLog = this.webLog;
    this.network = [];
    this.webLog = [];
    if (final) {
      network.push(...this.pending.values());
      this.pending.clear();
    }
    return { network: groupByStep(network), webLog: groupByStep(webLog) };
  }

  private onRequest(request: Request): void {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    this.pending.set(request, {
      testStepId: this.currentStep(),
      entry: {
        requestUrl: url,
        method: request.method(),
        status: null,
        responseTime: null,
        size: null,
        type: request.resourceType(),
        startTime: new Date().toISOString(),
      },
    });
  }

  private async onFinished(request: Request): Promise<void> {
    const tagged = this.pending.get(request);
    if (!tagged) return;
    const { entry } = tagged;
    // The response event came first; asking with request.response() would be one more round trip
    // per request (a few dozen per scenario), only for the rare request that had no such event.
    const response = this.responses.get(request) ?? (await request.response().catch(() => null));
    if (response) {
      entry.status = response.status();
      entry.statusText = response.statusText();
    }
    const timing = request.timing();
    entry.responseTime = timing.responseEnd >= 0 ? round(timing.responseEnd) : round(Date.now() - Date.parse(entry.startTime!));
    entry.size = await request
      .sizes()
      .then((sizes) => sizes.responseBodySize)
      .catch(() => {
        const length = Number(response?.headers()['content-length']);
        return Number.isFinite(length) ? length : null;
      });
    // Only now: until the size is known the entry is not finished, and take() must not see it.
    this.pending.delete(request);
    this.network.push(tagged);
  }

  private onFailed(request: Request): void {
    const tagged = this.pending.get(request);
    if (!tagged) return;
    this.pending.delete(request);
    tagged.entry.failed = true;
    tagged.entry.failureText = request.failure()?.errorText ?? 'failed';
    this.network.push(tagged);
  }

  private onConsole(message: ConsoleMessage): void {
    const type = message.type();
    if (type === 'warning' || type === 'error') this.log(type, message.text());
  }

  private log(type: 'warning' | 'error', text: string): void {
    this.webLog.push({ testStepId: this.currentStep(), entry: { type, text, time: new Date().toISOString() } });
  }

  private track(work: Promise<void>): void {
    const settled = work.catch(() => undefined).finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function groupByStep<T>(items: Tagged<T>[]): Map<string | null, T[]> {
  const groups = new Map<string | null, T[]>();
  for (const { testStepId, entry } of items) {
    const list = groups.get(testStepId);
    if (list) list.push(entry);
    else groups.set(testStepId, [entry]);
  }
  return groups;
}
