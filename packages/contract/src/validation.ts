import { z } from 'zod';
import { Limits } from './constants.js';
import { Messages } from './messages.js';

/** A required string field whose absence and emptiness both give `message`. */
export function requiredText(message: string, max?: { length: number; message: string }) {
  const base = z.string({ error: message }).trim().min(1, message);
  return max ? base.max(max.length, max.message) : base;
}

export const EmailAddress = z
  .string({ error: Messages.emailInvalid })
  .trim()
  .toLowerCase()
  .max(254, Messages.emailInvalid)
  .pipe(z.email({ error: Messages.emailInvalid }));

export const Password = z
  .string({ error: Messages.passwordTooShort })
  .min(Limits.passwordMin, Messages.passwordTooShort)
  .max(Limits.passwordMax, Messages.passwordTooLong);

export const ProjectId = z.uuid({ error: Messages.projectIdInvalid });

/** True for an absolute http or https URL with a host (the create-project rule of spec 01 §5). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const ProjectName = requiredText(Messages.projectNameEmpty, {
  length: Limits.projectNameMax,
  message: Messages.projectNameTooLong,
});

export const ProjectUrl = z.string({ error: Messages.projectUrlInvalid }).trim().refine(isHttpUrl, Messages.projectUrlInvalid);

export const AccessKeyName = requiredText(Messages.tokenNameEmpty, {
  length: Limits.accessKeyNameMax,
  message: Messages.tokenNameTooLong,
});

/** Names that would reach an object's prototype when used as a key (`obj[name]`). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Half of a UTF-16 surrogate pair without its other half: JSON's `\ud800` escape parses to one, and no database stores it faithfully. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first problem of an incoming value: a NUL character or a lone surrogate in any string or
 * key, or a reserved key.
 */
export function unsafeTextProblem(value: unknown): 'nul' | 'binaryContent' | 'loneSurrogate' | 'reservedKey' | undefined {
  // Each value with the key it sits under: NUL in a file's `content` means the file is binary.
  const pending: Array<[unknown, string | undefined]> = [[value, undefined]];
  while (pending.length > 0) {
    const [item, under] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return under === 'content' ? 'binaryContent' : 'nul';
      if (LONE_SURROGATE.test(item)) return 'loneSurrogate';
    } else if (Array.isArray(item)) {
      for (const entry of item as unknown[]) pending.push([entry, under]);
    } else if (item && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        if (key.includes('\u0000')) return 'nul';
        if (LONE_SURROGATE.test(key)) return 'loneSurrogate';
        if (RESERVED_KEYS.has(key)) return 'reservedKey';
        pending.push([(item as Record<string, unknown>)[key], key]);
      }
    }
  }
  return undefined;
}

/**
 * A name the server uses as a key of a map (an environment name, a test data key): never one
 * that reaches the prototype.
 */
export const RecordKey = z.string().refine((name) => !RESERVED_KEYS.has(name.trim()), Messages.reservedName);

/** 0001-01-01T00:00:00Z: PostgreSQL has no year 0. */
const EARLIEST_TIMESTAMP = -62135596800000;

/** An ISO 8601 date-time with a zone (as the runner writes them), from year 1 to 9999. */
export const IsoTimestamp = z
  .string({ error: Messages.dateInvalid })
  .max(40, Messages.dateInvalid)
  .pipe(z.iso.datetime({ offset: true, error: Messages.dateInvalid }))
  .refine((text) => {
    const time = Date.parse(text);
    return Number.isFinite(time) && time >= EARLIEST_TIMESTAMP;
  }, Messages.dateInvalid);
