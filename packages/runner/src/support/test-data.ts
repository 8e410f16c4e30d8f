import { maskDeep, maskText, MASKED_SECRET, MASKED_VALUE, MIN_SUBSTRING_SECRET } from '@rehearse/contract';
import { totpCode } from './totp.js';

export type DataType = 'string' | 'secret' | 'totp';

/** One test data value, as `data/data.json` and the runs service's `runTestData` hold it. */
export interface TestDataRow {
  key: string;
  /** null when the workspace keeps it encrypted and no server gave the plain value. */
  value: string | null;
  DataType: DataType;
}

/** `data/data.json`: rows per environment name, `"*"` for every environment. */
export type TestDataFile = Record<string, Array<{ key: string; value: string; DataType: DataType }>>;

/** What reports show instead of a secret or totp value (spec 02 §5, DESIGN §11). */
export const SECRET_DISPLAY = MASKED_SECRET;
/** What reports show instead of a value a step marked as masked. */
export const MASK_DISPLAY = `mask:${MASKED_VALUE}`;
const MASK_PREFIX = 'mask:';
/** How the workspace stores secret and totp values: encrypted, only the server can read them. */
const ENCRYPTED_PREFIX = 'secret:';
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/**
 * The rows of `data/data.json` a run in `environment` uses: the `"*"` rows, then the environment's
 * own rows over them (DESIGN §11). Encrypted values become unavailable (null) rather than garbage.
 */
export function rowsForEnvironment(file: TestDataFile, environment: string): TestDataRow[] {
  const rows = [...(file['*'] ?? []), ...(environment === '*' ? [] : (file[environment] ?? []))];
  return mergeRows(
    rows.map((row) => ({
      key: row.key,
      DataType: row.DataType,
      value: row.DataType !== 'string' && row.value.startsWith(ENCRYPTED_PREFIX) ? null : row.value,
    })),
  );
}

/** Later rows win by key; an unavailable (null) value never hides an available one. */
export function mergeRows(...layers: ReadonlyArray<readonly TestDataRow[]>): TestDataRow[] {
  const byKey = new Map<string, TestDataRow>();
  for (const layer of layers) {
    for (const row of layer) {
      if (row.value === null && typeof byKey.get(row.key)?.value === 'string') continue;
      byKey.set(row.key, row);
    }
  }
  return [...byKey.values()];
}

/** A value ready to use, and what a report may show of it. */
export interface ResolvedValue {
  value: string;
  /** `value`, or `secret:****` / `mask:****` when any part of it must not be shown. */
  display: string;
  secret: boolean;
}

/**
 * Resolves `{{key}}` and `{{env.baseUrl}}` when a step runs, and remembers every secret it hands
 * out so that {@link redact} can scrub it from whatever is written afterwards.
 */
export class TestData {
  private readonly rows = new Map<string, TestDataRow>();
  private readonly secrets = new Set<string>();
  /** Values a scenario kept with "I remember … as "name"" (scenario-long: each scenario has its own TestData). */
  private readonly kept = new Map<string, string>();

  constructor(
    rows: readonly TestDataRow[],
    private readonly env: { name: string; baseUrl: string },
    private readonly processEnv: Readonly<Record<string, string | undefined>> = process.env,
  ) {
    for (const row of rows) {
      this.rows.set(row.key, row);
      if (row.DataType !== 'string' && row.value) this.secrets.add(row.value);
      const override = processEnv[row.key];
      if (row.DataType !== 'string' && override) this.secrets.add(override);
    }
  }

  /**
   * Resolves every placeholder of `text`. `params` (a step's own values) win over test data. A
   * text starting with `mask:` is used without the prefix and shown as `mask:****`.
   */
  resolve(text: string, params: Readonly<Record<string, unknown>> = {}): ResolvedValue {
    let secret = false;
    let masked = false;
    let source = text;
    if (source.startsWith(MASK_PREFIX)) {
      masked = true;
      source = source.slice(MASK_PREFIX.length);
    }
    const value = source.replace(PLACEHOLDER, (_, key: string) => {
      const found = this.lookup(key, params);
      secret ||= found.secret;
      return found.value;
    });
    if (masked) this.remember(value);
    return { value, secret: secret || masked, display: secret ? SECRET_DISPLAY : masked ? MASK_DISPLAY : value };
  }

  /** Keeps `value` as `{{key}}` for the rest of the scenario; it wins over a test data row of that name. */
  keep(key: string, value: string): void {
    this.kept.set(key, value);
  }

  /** Marks a value as not to be shown (a step passed `{ mask: true }`). */
  remember(value: string): void {
    if (value) this.secrets.add(value);
  }

  /** The secret values long enough to look for inside other text (what {@link redact} replaces). */
  secretTexts(): string[] {
    return [...this.secrets].filter((secret) => secret.length >= MIN_SUBSTRING_SECRET);
  }

  /** `text` with every secret value this run knows replaced by `****`. */
  redact(text: string): string {
    return maskText(text, this.secrets);
  }

  /**
   * `bytes` (a file's content: a trace's actions, DOM snapshots and network bodies) with every
   * secret replaced by `****`, as written raw, inside a JSON string, URL-encoded and
   * form-encoded. Secrets shorter than a substring may safely be are left to {@link redact}.
   */
  redactBytes(bytes: Buffer): Buffer {
    const forms = new Set<string>();
    for (const secret of this.secrets) {
      if (secret.length < MIN_SUBSTRING_SECRET) continue;
      forms.add(secret);
      forms.add(JSON.stringify(secret).slice(1, -1));
      forms.add(encodeURIComponent(secret));
      forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
    }
    let out = bytes;
    for (const form of [...forms].sort((a, b) => b.length - a.length)) out = replaceAll(out, Buffer.from(form), REDACTED_BYTES);
    return out;
  }

  /** Deep copy of a JSON value with {@link redact} applied to every string. */
  redactDeep<T>(value: T): T {
    return maskDeep(value, this.secrets);
  }

  private lookup(key: string, params: Readonly<Record<string, unknown>>): { value: string; secret: boolean } {
    const param = Object.hasOwn(params, key) ? params[key] : undefined;
    if (typeof param === 'string') return { value: param, secret: false };
    if (typeof param === 'number' || typeof param === 'boolean' || typeof param === 'bigint') return { value: `${param}`, secret: false };
    if (param !== undefined && param !== null) return { value: JSON.stringify(param), secret: false };
    const kept = this.kept.get(key);
    if (kept !== undefined) return { value: kept, secret: false };
    if (key === 'env.baseUrl') return { value: this.env.baseUrl, secret: false };
    if (key === 'env.name') return { value: this.env.name, secret: false };
    const row = this.rows.get(key);
    const override = this.processEnv[key];
    if (row) {
      const raw = override ?? row.value;
      if (raw === null) {
        throw new Error(
          `Test data "${key}" is a ${row.DataType} kept encrypted in the workspace: run with --server and --token, or set the environment variable ${key}`,
        );
      }
      if (row.DataType === 'string') return { value: raw, secret: false };
      const value = row.DataType === 'totp' ? totpCode(raw) : raw;
      this.secrets.add(value);
      return { value, secret: true };
    }
    // A CI secret handed over as an environment variable: nothing says it is harmless, so it is masked.
    if (override !== undefined) {
      this.secrets.add(override);
      return { value: override, secret: true };
    }
    throw new Error(`Test data "${key}" is not defined for environment "${this.env.name}"`);
  }
}

const REDACTED_BYTES = Buffer.from(MASKED_VALUE);

/** `haystack` with every `needle` replaced (a new buffer only when one was found). */
function replaceAll(haystack: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  let at = haystack.indexOf(needle);
  if (at === -1) return haystack;
  const parts: Buffer[] = [];
  let from = 0;
  while (at !== -1) {
    parts.push(haystack.subarray(from, at), replacement);
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  parts.push(haystack.subarray(from));
  return Buffer.concat(parts);
}
