import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import type { BrowserContext } from 'playwright-core';
import type { TracePolicy } from './settings.js';

/**
 * Which try of each scenario this process is on. cucumber-js reruns a failed test case (`--retry`)
 * in the process that ran it, parallel workers included, so a count per pickle is the attempt.
 */
const attemptsByPickle = new Map<string, number>();

/** 0 for a scenario's first try, 1 for its first retry, … */
export function nextAttempt(pickleId: string): number {
  const attempt = attemptsByPickle.get(pickleId) ?? 0;
  attemptsByPickle.set(pickleId, attempt + 1);
  return attempt;
}

/** Whether this try records a trace at all (Playwright Test's meaning of each policy). */
export function recordsTrace(policy: TracePolicy | undefined, attempt: number): boolean {
  if (policy === 'on' || policy === 'retain-on-failure') return true;
  return policy === 'on-first-retry' && attempt === 1;
}

/** Whether a recorded trace is kept once the try has ended. */
export function keepsTrace(policy: TracePolicy | undefined, failed: boolean): boolean {
  return policy === 'retain-on-failure' ? failed : policy === 'on' || policy === 'on-first-retry';
}

/**
 * A scenario's trace: started with its browser context, stopped before the context closes. Kept
 * traces are written with every secret masked in every file of the zip (actions, DOM snapshots,
 * network bodies, console) before anything else can read them.
 */
export class ScenarioTrace {
  private constructor(private readonly context: BrowserContext) {}

  static async start(context: BrowserContext, title: string): Promise<ScenarioTrace> {
    // DOM snapshots, not the screencast: a frame is a picture, where a secret typed into a field
    // that shows its text cannot be masked (snapshots are text, masked with the rest), and the
    // report already has a screenshot per command. It also halves what tracing costs a run.
    await context.tracing.start({ screenshots: false, snapshots: true, title });
    return new ScenarioTrace(context);
  }

  /**
   * Groups the actions of one Gherkin step under its text, so the trace reads as the scenario
   * does; the step's failure snapshot (AfterStep) falls inside its group, which is therefore last
   * when a step fails and where the viewer opens.
   */
  async beginStep(text: string): Promise<void> {
    await this.context.tracing.group(text);
  }

  async endStep(): Promise<void> {
    await this.context.tracing.groupEnd();
  }

  /** Stops tracing; answers the masked trace's file when it is to be kept. */
  async stop(keep: boolean, redact: (bytes: Buffer) => Buffer): Promise<string | undefined> {
    if (!keep) {
      await this.context.tracing.stop();
      return undefined;
    }
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rehearse-trace-')), 'trace.zip');
    await this.context.tracing.stop({ path: file });
    writeFileSync(file, redactZip(readFileSync(file), redact));
    return file;
  }
}

/** Every entry of a zip passed through `redact`, zipped again (entries stay in their order). */
export function redactZip(zip: Buffer, redact: (bytes: Buffer) => Buffer): Buffer {
  const entries = unzipSync(zip);
  const out: Zippable = {};
  for (const [name, bytes] of Object.entries(entries)) {
    const redacted = redact(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    // Images and fonts are already compressed; deflating them again costs time for nothing.
    out[name] = [
      new Uint8Array(redacted.buffer, redacted.byteOffset, redacted.byteLength),
      { level: /\.(jpe?g|png|woff2?)$/i.test(name) ? 0 : 6 },
    ];
  }
  return Buffer.from(zipSync(out));
}
