import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { ISupportCodeLibrary } from '@cucumber/cucumber/api';
import type { Envelope } from './builder.js';
import { hideMaskedLiterals } from './builder.js';

// cucumber-js has no public API to run its formatters on a message stream of one's own, which a
// redaction step needs: these are its internals, pinned by the exact @cucumber/cucumber version in
// package.json (formats.test.ts fails if a new version moves them).
const require = createRequire(import.meta.url);
const { initializeFormatters } = require('@cucumber/cucumber/lib/api/formatters') as {
  initializeFormatters: (options: Record<string, unknown>) => Promise<() => Promise<void>>;
};
const { EventDataCollector } = require('@cucumber/cucumber/lib/formatter/helpers/index') as {
  EventDataCollector: new (broadcaster: EventEmitter) => unknown;
};
const { PluginManager } = require('@cucumber/cucumber/lib/plugin/index') as {
  PluginManager: new (environment: unknown) => { emit: (event: 'message', value: unknown) => void; cleanup: () => Promise<void> };
};
const { makeEnvironment } = require('@cucumber/cucumber/lib/environment/index') as {
  makeEnvironment: (environment: Record<string, unknown>) => Record<string, unknown>;
};
const { splitFormatDescriptor } = require('@cucumber/cucumber/lib/configuration/index') as {
  splitFormatDescriptor: (logger: unknown, descriptor: string) => [string, string?];
};

/** The cucumber formatters every `rehearse run` writes into its output folder, by file name. */
export const DEFAULT_FORMATS = {
  'junit.xml': 'junit',
  'cucumber.json': 'json',
  'report.html': 'html',
  'messages.ndjson': 'message',
} as const;

/** Formatters of a run: at most one on stdout, the rest to files (paths absolute or relative to cwd). */
export interface FormatPlan {
  stdout?: string;
  files: Record<string, string>;
  options: Record<string, unknown>;
}

/**
 * The formatters of a run: cucumber's defaults (`defaults`: all of DEFAULT_FORMATS unless a
 * caller needs fewer) into `outDir`, then what a profile or `--format` asks for. A format naming a default formatter with a file of its own replaces that default
 * (`--format junit:ci/results.xml` moves the JUnit file); anything else is added (third-party
 * formatters included, cucumber's `name:path` syntax). Nothing goes to stdout unless asked.
 */
export function planFormats(
  outDir: string,
  formats: ReadonlyArray<string | readonly [string, string?]>,
  options: Record<string, unknown>,
  defaults: Partial<typeof DEFAULT_FORMATS> = DEFAULT_FORMATS,
): FormatPlan {
  const logger = { warn: () => undefined, debug: () => undefined, info: () => undefined, error: () => undefined };
  const asked = formats.map((item) => (typeof item === 'string' ? splitFormatDescriptor(logger, item) : ([item[0], item[1]] as const)));
  const files: Record<string, string> = {};
  const replaced = new Set(asked.filter(([, target]) => target).map(([specifier]) => specifier));
  for (const [file, specifier] of Object.entries(defaults)) if (!replaced.has(specifier)) files[path.join(outDir, file)] = specifier;
  for (const [specifier, target] of asked) if (target) files[target] = specifier;
  const stdout = [...asked].reverse().find(([, target]) => !target)?.[0];
  return { ...(stdout ? { stdout } : {}), files, options };
}

/** What must not reach a formatter: one function applied to every text of every message. */
export type Redact = (text: string) => string;

/**
 * A deep copy of a cucumber message with `redact` and {@link hideMaskedLiterals} applied to every
 * string, except the bodies of base64 attachments (bytes, which a text replacement would corrupt).
 */
export function redactEnvelope(envelope: Envelope, redact: Redact): Envelope {
  const scrub = (text: string) => redact(hideMaskedLiterals(text));
  const copy = (value: unknown, key?: string, parent?: Record<string, unknown>): unknown => {
    if (typeof value === 'string') {
      if (key === 'body' && parent && (parent.contentEncoding as string) === 'BASE64') return value;
      return scrub(value);
    }
    if (Array.isArray(value)) return value.map((item) => copy(item));
    if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, copy(v, k, record)]));
    }
    return value;
  };
  return copy(envelope) as Envelope;
}

export interface FormatterHostOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: Writable;
  plan: FormatPlan;
  supportCodeLibrary: ISupportCodeLibrary;
  redact: Redact;
}

/**
 * cucumber's own formatters (JUnit, JSON, HTML, messages, and any other, legacy or plugin) fed a
 * redacted copy of every message, so no formatter ever sees a secret. Start it before the run,
 * pass each message to {@link emit}, and {@link finish} it after.
 */
export class FormatterHost {
  private readonly broadcaster = new EventEmitter();
  private streamError = false;

  private constructor(
    private readonly plugins: InstanceType<typeof PluginManager>,
    private readonly redact: Redact,
    private cleanup: () => Promise<void> = async () => undefined,
  ) {}

  static async start(options: FormatterHostOptions): Promise<FormatterHost> {
    // cucumber always runs a stdout formatter; when none was asked for, its output goes nowhere.
    const stdout = options.plan.stdout ? options.stdout : new Writable({ write: (_chunk, _encoding, done) => done() });
    const environment = makeEnvironment({ cwd: options.cwd, env: options.env, stdout, stderr: options.stderr });
    const host = new FormatterHost(new PluginManager(environment), options.redact);
    host.cleanup = await initializeFormatters({
      env: options.env,
      cwd: options.cwd,
      stdout,
      stderr: options.stderr,
      logger: environment.logger,
      onStreamError: () => (host.streamError = true),
      eventBroadcaster: host.broadcaster,
      eventDataCollector: new EventDataCollector(host.broadcaster),
      configuration: { stdout: options.plan.stdout ?? 'summary', files: options.plan.files, options: options.plan.options },
      supportCodeLibrary: options.supportCodeLibrary,
      pluginManager: host.plugins,
    });
    return host;
  }

  /** Hands one message, redacted, to every formatter. */
  emit(envelope: Envelope): void {
    const redacted = redactEnvelope(envelope, this.redact);
    this.broadcaster.emit('envelope', redacted);
    this.plugins.emit('message', redacted);
  }

  /** Lets every formatter write its end and close its file; false when a file could not be written. */
  async finish(): Promise<boolean> {
    await this.plugins.cleanup();
    await this.cleanup();
    return !this.streamError;
  }
}
