import type { Page } from 'playwright-core';
import { chromiumSession, evaluateInSession } from './cdp.js';

/**
 * The page's HTML as a fingerprint (its length and two 32-bit FNV-style hashes), computed in the
 * page: the HTML itself would cost more to send than the hash does to compute.
 */
const FINGERPRINT = `(() => {
  const text = document.documentElement ? document.documentElement.outerHTML : '';
  let a = 0x811c9dc5, b = 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return text.length + ':' + (a >>> 0).toString(16) + ':' + (b >>> 0).toString(16);
})()`;

/** Pages remembered per process: a warm runner's scenarios start on a handful of pages. */
const REMEMBERED = 100;

/** The last snapshot per page (URL and viewport) this process took, with the HTML it was taken of. */
const snapshots = new Map<string, { fingerprint: string; snapshot: string }>();

/**
 * The ARIA snapshot of the first page a scenario reaches (the application map's picture of that
 * page), taken with `take` unless this process took one of the same URL, viewport and HTML before:
 * then that one, which `take` would answer again. Why: on the demo shop's home page the snapshot
 * is ~90 ms of browser CPU, a third of what a one-step scenario costs a warm runner beyond raw
 * Playwright (issue 48), while the fingerprint costs about a millisecond. A page whose HTML
 * differs in any character (a new product, a timestamp) is snapshotted again. Only on Chromium,
 * where the page's CDP session reads the fingerprint outside the user's trace.
 */
export async function initialAriaSnapshot(
  page: Page,
  viewport: { width: number; height: number },
  take: () => Promise<string | undefined>,
): Promise<string | undefined> {
  const session = await chromiumSession(page);
  if (!session) return take();
  const key = `${page.url()}\n${viewport.width}x${viewport.height}`;
  const fingerprintNow = async (): Promise<string | undefined> => {
    const value = await evaluateInSession(session, FINGERPRINT).catch(() => undefined);
    return typeof value === 'string' ? value : undefined;
  };
  const fingerprint = await fingerprintNow();
  if (fingerprint === undefined) return take();
  const known = snapshots.get(key);
  if (known?.fingerprint === fingerprint) return known.snapshot;
  const snapshot = await take();
  if (snapshot === undefined) return undefined;
  // Taken after the fingerprint: the page may have changed meanwhile, so check it still matches.
  if ((await fingerprintNow()) === fingerprint) {
    snapshots.delete(key);
    snapshots.set(key, { fingerprint, snapshot });
    if (snapshots.size > REMEMBERED) snapshots.delete(snapshots.keys().next().value!);
  }
  return snapshot;
}
