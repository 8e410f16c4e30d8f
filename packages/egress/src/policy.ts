import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, METADATA_HOST_NAMES, type AddressClass } from './addresses.js';

/** What a user's outbound connection may reach. */
export interface EgressPolicy {
  /** Private and loopback addresses (an app under test on the company network). Metadata never. */
  allowPrivate: boolean;
  /**
   * Private endpoints always reachable, whatever `allowPrivate` says: the Rehearse server itself
   * (its API, the demo apps it serves). Matched on the resolved address and port.
   */
  alwaysAllow?: ReadonlyArray<{ address: string; port: number }>;
}

export type RefusalReason = Exclude<AddressClass, 'public'> | 'unresolvable';

/** A connection the egress rules refused; the message names the host and why, never a secret. */
export class EgressRefused extends Error {
  constructor(
    readonly host: string,
    readonly reason: RefusalReason,
  ) {
    super(
      reason === 'metadata'
        ? `Refused by the egress rules: ${host} is a cloud metadata or link-local address.`
        : reason === 'private'
          ? `Refused by the egress rules: ${host} is a private network address, and this server does not allow private targets (REHEARSE_ALLOW_PRIVATE_TARGETS).`
          : `Refused by the egress rules: ${host} could not be resolved.`,
    );
    this.name = 'EgressRefused';
  }
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

const sameAddress = (a: string, b: string) => a.replace(/^\[|\]$/g, '').toLowerCase() === b.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Resolves a host once and returns the address to connect to, after checking every address the
 * name has: a name with any metadata address is refused (a rebinding name cannot hide one among
 * good ones), and the caller connects to the returned literal, so no second lookup can differ.
 */
export async function resolveAllowed(
  host: string,
  port: number,
  policy: EgressPolicy,
  lookup: Lookup = systemLookup,
): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (METADATA_HOST_NAMES.has(bare)) throw new EgressRefused(host, 'metadata');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare);
  } catch {
    throw new EgressRefused(host, 'unresolvable');
  }
  if (addresses.length === 0) throw new EgressRefused(host, 'unresolvable');
  const classes = addresses.map((entry) => classifyAddress(entry.address));
  if (classes.includes('metadata')) throw new EgressRefused(host, 'metadata');
  const allowed = addresses.find(
    (entry, index) =>
      classes[index] === 'public' ||
      policy.allowPrivate ||
      (policy.alwaysAllow ?? []).some((allow) => allow.port === port && sameAddress(allow.address, entry.address)),
  );
  if (!allowed) throw new EgressRefused(host, 'private');
  return { address: allowed.address, family: allowed.family === 6 ? 6 : 4 };
}

/**
 * A `lookup` for Node's `net`/`http`/undici connect options that applies the rules to whatever the
 * connection resolves, at connect time: the check and the connection use the same answer. It does
 * not see the port, so `alwaysAllow` does not apply here; use it where private targets are allowed.
 */
export function guardedLookup(policy: EgressPolicy, lookup: Lookup = systemLookup) {
  return (
    hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (error: Error | null, address: string | Array<{ address: string; family: number }>, family?: number) => void,
  ): void => {
    resolveAllowed(hostname, 0, policy, lookup).then(
      ({ address, family }) => {
        if (typeof options === 'object' && options?.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

/** The addresses and port a server URL reaches (for `alwaysAllow`: the Rehearse server itself). */
export async function endpointsOf(serverUrl: string, lookup: Lookup = systemLookup): Promise<Array<{ address: string; port: number }>> {
  const url = new URL(serverUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host).catch(() => [])).map((entry) => entry.address);
  return addresses.map((address) => ({ address, port }));
}

/** The operator's switch for private targets, read by workers (the server reads it with its settings). */
export const ALLOW_PRIVATE_TARGETS_ENV = 'REHEARSE_ALLOW_PRIVATE_TARGETS';

/** Private targets are allowed unless the variable says 0, false, no or off. */
export function allowPrivateTargets(env: NodeJS.ProcessEnv): boolean {
  const value = env[ALLOW_PRIVATE_TARGETS_ENV];
  return value === undefined || !/^(0|false|no|off)$/i.test(value.trim());
}
