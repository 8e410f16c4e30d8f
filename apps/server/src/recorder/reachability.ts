import { EgressRefused, guardedLookup, resolveAllowed, type RefusalReason } from '@rehearse/egress';
import { Agent, fetch } from 'undici';

export type TargetVerdict = { ok: true } | { ok: false; reason: 'invalid' | 'metadata' | 'private' | 'unreachable' };

const VERDICT_OF: Record<RefusalReason, Exclude<TargetVerdict, { ok: true }>['reason']> = {
  metadata: 'metadata',
  private: 'private',
  unresolvable: 'unreachable',
};

/** One connection pool per setting; each connection checks the address it is about to use. */
const agents = new Map<boolean, Agent>();
function agentFor(allowPrivate: boolean): Agent {
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup({ allowPrivate }) } });
    agents.set(allowPrivate, agent);
  }
  return agent;
}

/**
 * Whether a URL may be opened by a recorder browser: every address the host resolves to is
 * checked (a name pointing at 169.254.169.254, in any spelling, is refused like the address).
 */
export async function checkTarget(rawUrl: string, allowPrivate: boolean): Promise<TargetVerdict> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'invalid' };
  try {
    await resolveAllowed(url.hostname, Number(url.port || (url.protocol === 'https:' ? 443 : 80)), { allowPrivate });
    return { ok: true };
  } catch (error) {
    if (error instanceof EgressRefused) return { ok: false, reason: VERDICT_OF[error.reason] };
    throw error;
  }
}

/**
 * Checks the URL, then asks it for a page: any HTTP answer counts as reachable. The request's own
 * connection is checked again at connect time (a name that rebinds between the two is refused),
 * and redirects are not followed, so a reachable page cannot bounce the check to a refused address.
 */
export async function probe(rawUrl: string, allowPrivate: boolean, timeoutMs = 5000): Promise<TargetVerdict & { statusCode?: number }> {
  const verdict = await checkTarget(rawUrl, allowPrivate);
  if (!verdict.ok) return verdict;
  try {
    const response = await fetch(rawUrl, {
      method: 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher: agentFor(allowPrivate),
    });
    await response.body?.cancel();
    return { ok: true, statusCode: response.status };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof EgressRefused) return { ok: false, reason: VERDICT_OF[cause.reason] };
    return { ok: false, reason: 'unreachable' };
  }
}
