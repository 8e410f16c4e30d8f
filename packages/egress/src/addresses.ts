import { isIPv4, isIPv6 } from 'node:net';

/**
 * What an IP address is to the egress rules. `metadata`: link-local and the cloud instance-metadata
 * addresses, never reachable; `private`: loopback, RFC 1918, CGNAT, unique-local and other
 * non-public ranges, reachable only where the operator allows private targets; `public`: the rest.
 */
export type AddressClass = 'metadata' | 'private' | 'public';

/** Host names that name a metadata service on every cloud, refused before any lookup. */
export const METADATA_HOST_NAMES: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

type Range = readonly [first: number[], prefixBits: number];

const V4_METADATA: Range[] = [
  [[169, 254, 0, 0], 16], // link-local: AWS, GCP, Azure, OpenStack, DigitalOcean metadata
  [[100, 100, 100, 200], 32], // Alibaba Cloud
];
const V4_PRIVATE: Range[] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved and broadcast
];
const V6_METADATA: Range[] = [
  [[0xfe, 0x80], 10], // link-local
  [[0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128], // AWS IMDS over IPv6
];
const V6_PRIVATE: Range[] = [
  [[], 127], // :: and ::1
  [[0xfc], 7], // unique-local
  [[0xfe, 0xc0], 10], // site-local (deprecated, still routable inside networks)
  [[0xff], 8], // multicast
];

function inRange(bytes: number[], [first, prefixBits]: Range): boolean {
  for (let bit = 0; bit < prefixBits; bit += 1) {
    const index = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[index] ?? 0) & mask) !== ((first[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 address (zone id dropped; a trailing dotted quad allowed). */
function ipv6Bytes(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (quad) {
    tail = quad[1]!.split('.').map(Number);
    text = `${text.slice(0, -quad[1]!.length)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const all = [...head, ...Array<string>(Math.max(missing, 0)).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  if (quad) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyV4(bytes: number[]): AddressClass {
  if (V4_METADATA.some((range) => inRange(bytes, range))) return 'metadata';
  if (V4_PRIVATE.some((range) => inRange(bytes, range))) return 'private';
  return 'public';
}

const STRICTNESS: Record<AddressClass, number> = { public: 0, private: 1, metadata: 2 };
const stricter = (a: AddressClass, b: AddressClass): AddressClass => (STRICTNESS[a] >= STRICTNESS[b] ? a : b);

/**
 * IPv4 addresses an IPv6 address carries and that a host may route to: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48).
 */
function embeddedV4(bytes: number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 15)) return bytes.slice(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return null;
}

/**
 * Classifies a literal IP address as written by a resolver or a socket (not a URL host: spellings
 * such as `0xA9FEA9FE` or `2852039166` are names until resolved, and resolve to what they mean).
 * Anything that is not an address is treated as metadata, the strictest class.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return classifyV4(bare.split('.').map(Number));
  if (!isIPv6(bare.replace(/%.*$/, ''))) return 'metadata';
  const bytes = ipv6Bytes(bare);
  if (!bytes) return 'metadata';
  let verdict: AddressClass = 'public';
  if (V6_METADATA.some((range) => inRange(bytes, range))) verdict = 'metadata';
  else if (V6_PRIVATE.some((range) => inRange(bytes, range))) verdict = 'private';
  const v4 = embeddedV4(bytes);
  return v4 ? stricter(verdict, classifyV4(v4)) : verdict;
}
