import { Agent, ProxyAgent, setGlobalDispatcher } from 'undici';
import { guardedLookup } from './policy.js';
import { startRelay } from './relay.js';

/** Environment a job is given: the egress proxy's unix socket (sandboxed) or its URL. */
export const EGRESS_SOCKET_ENV = 'REHEARSE_EGRESS_SOCKET';
export const EGRESS_PROXY_ENV = 'REHEARSE_EGRESS_PROXY';

let configured: Promise<string | null> | undefined;

/**
 * Sends this process's outbound traffic through the egress proxy the environment names: every
 * `fetch` (API steps, calls to the Rehearse server) from now on, and the returned URL for browser
 * launches. Where the environment names none (a run on the user's own machine), `fetch` still never
 * connects to a metadata address, checked on the address it connects to; null is returned.
 */
export function useEgressProxyFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  configured ??= (async () => {
    const socket = env[EGRESS_SOCKET_ENV];
    const url = socket ? (await startRelay(socket)).url : (env[EGRESS_PROXY_ENV] ?? null);
    setGlobalDispatcher(url ? new ProxyAgent(url) : new Agent({ connect: { lookup: guardedLookup({ allowPrivate: true }) } }));
    return url;
  })();
  return configured;
}
