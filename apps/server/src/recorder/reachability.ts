import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Cloud metadata endpoints: refused always, whatever the private-targets setting (DESIGN §9). */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

export type TargetVerdict = { ok: true } | { ok: false; reason: 'invalid' | 'metadata' | 'private' | 'unreachable' };

function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : null;
}

/** Link-local (169.254/16, which holds every cloud's metadata address), Alibaba's and AWS's IPv6 one. */
export function isMetadataAddress(address: string): boolean {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  const v4 = ipv4Parts(lower.replace(/^::ffff:/, ''));
  if (v4) return (v4[0] === 169 && v4[1] === 254) || lower.endsWith('100.100.100.200');
  return lower.startsWith('fe80:') || lower === 'fd00:ec2::254';
}

/** Loopback, RFC 1918, CGNAT, unique-local and unspecified addresses. */
export function isPrivateAddress(address: string): boolean {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  const v4 = ipv4Parts(lower.replace(/^::ffff:/, ''));
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  return lower === '::1' || lower === '::' || lower.startsWith('fc') || lower.startsWith('fd');
}

/**
 * Whether a URL may be opened by a recorder browser: every address the host resolves to is checked
 * (a name pointing at 169.254.169.254 is refused like the address itself).
 */
export async function checkTarget(rawUrl: string, allowPrivate: boolean): Promise<TargetVerdict> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'invalid' };
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) return { ok: false, reason: 'metadata' };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (addresses.some(isMetadataAddress)) return { ok: false, reason: 'metadata' };
  if (!allowPrivate && addresses.some(isPrivateAddress)) return { ok: false, reason: 'private' };
  return { ok: true };
}

/**
 * Checks the URL, then asks it for a page: any HTTP answer counts as reachable. Redirects are not
 * followed, so a reachable page cannot bounce the check to a refused address.
 */
export async function probe(rawUrl: string, allowPrivate: boolean, timeoutMs = 5000): Promise<TargetVerdict & { statusCode?: number }> {
  const verdict = await checkTarget(rawUrl, allowPrivate);
  if (!verdict.ok) return verdict;
  try {
    const response = await fetch(rawUrl, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { ok: true, statusCode: response.status };
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
}
