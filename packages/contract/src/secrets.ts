// The two rules every place that handles a secret value shares: how it is hidden in reports and
// how a TOTP secret is written down. The server (stored reports, test data, mail users) and the
// runner (its reports, traces, attachments) both call these, so they cannot drift apart.

/** What a hidden secret becomes in a report (spec 02 §5: `secret:****`, `mask:****`). */
export const MASKED_VALUE = '****';

/**
 * Secrets shorter than this are hidden only where they are a whole value: masking a 2-letter
 * secret inside every word would turn "timeout" into "t****out" and every "1" in a report into
 * `****`, and would tell a reader the secret's letters besides.
 */
export const MIN_SUBSTRING_SECRET = 4;

/** Secrets worth looking for: distinct, not empty, longest first (one containing another is hidden whole). */
function searchOrder(secrets: Iterable<string>): string[] {
  return [...new Set(secrets)].filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
}

function maskOrdered(text: string, ordered: readonly string[]): string {
  let out = text;
  for (const secret of ordered) {
    if (secret.length >= MIN_SUBSTRING_SECRET) {
      if (out.includes(secret)) out = out.split(secret).join(MASKED_VALUE);
    } else if (out === secret) out = MASKED_VALUE;
  }
  return out;
}

/** `text` with every secret hidden: one of 4 or more characters wherever it appears, a shorter one where it is all of `text`. */
export function maskText(text: string, secrets: Iterable<string>): string {
  return maskOrdered(text, searchOrder(secrets));
}

/** A deep copy of a JSON value with {@link maskText} applied to every string in it. */
export function maskDeep<T>(value: T, secrets: Iterable<string>): T {
  const ordered = searchOrder(secrets);
  if (ordered.length === 0) return value;
  const mask = (item: unknown): unknown => {
    if (typeof item === 'string') return maskOrdered(item, ordered);
    if (Array.isArray(item)) return item.map(mask);
    if (item && typeof item === 'object' && !ArrayBuffer.isView(item))
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, mask(inner)]));
    return item;
  };
  return mask(value) as T;
}

/**
 * A TOTP secret as authenticator apps and sites print it (`jbsw-y3dp ehpk 3pxp`, with `=` padding
 * or without) in the bare upper-case base32 codes are computed from: spaces, dashes and trailing
 * padding ignored, case folded.
 */
export function normalizeTotpSecret(secret: string): string {
  return secret
    .replace(/[\s-]+/g, '')
    .replace(/=+$/, '')
    .toUpperCase();
}

/** Whether a normalised secret is base32 at all (letters A-Z and digits 2-7). */
export function isBase32(normalized: string): boolean {
  return /^[A-Z2-7]+$/.test(normalized);
}
