/**
 * Environment name and URL rules of spec 01 §5 ("Environment name", "Environment URL"), §4 (environment
 * dialog) and §9 (name max 32, port range 0-65535). The server checks with these before it writes
 * `{name}.json`, and the web app checks with them as the user types, so both say exactly the same thing.
 *
 * Plain TypeScript on purpose: no `URL` parser (browsers and Node differ in what they repair silently), no
 * Node built-ins, nothing outside this package.
 */
import { Limits } from './constants.js';

/** The characters an environment name cannot contain, in the order spec 01 §5 lists them. */
export const EnvironmentNameForbiddenCharacters = ['/', '.', '*', ':', '?', '"', '<', '>', '|', '\\'] as const;

/** The list as the name message shows it: the characters separated by single spaces, like the spec writes them. */
export const EnvironmentNameForbiddenList = '/ . * : ? " < > | \\';

/**
 * The list as the URL message shows it. Invisible characters are spelled out; the spec's CR, FF and VT are
 * written in full because users do not know the abbreviations.
 */
export const EnvironmentUrlForbiddenList = 'space, tab, newline, carriage return, form feed, vertical tab, < > " { } | \\ ^ `';

/** Highest port number (spec 01 §9: port range 0-65535). */
export const EnvironmentPortMax = 65535;

/** Every user-facing message of the environment dialog. Spec wording is kept exactly. */
export const EnvironmentMessages = {
  // Name (spec 01 §5)
  nameEmpty: 'Empty Name',
  nameTooLong: 'Environment name cannot be more than 32 characters.',
  nameForbiddenCharacters: 'Environment name cannot contain the following characters: / . * : ? " < > | \\',
  nameDuplicate: 'Environment cannot have the same case-insensitive name.',
  /** The toast shown with `nameDuplicate` when a save is refused. */
  nameDuplicateToast: 'Choose a unique name, discarding your changes.',
  /** Shown in the edit dialog: test data rows refer to environments by name. */
  renameWarning: 'Renaming environments makes test data inaccessible.',
  /** Tooltip of the disabled Save button when nothing changed (spec 01 §5). */
  noChanges: 'No changes detected',

  // URL (spec 01 §5), in the order they are checked; see `validateEnvironmentUrl`.
  urlEmpty: 'URL cannot be empty',
  urlForbiddenCharacters:
    'URL cannot contain the following characters: space, tab, newline, carriage return, form feed, vertical tab, < > " { } | \\ ^ `',
  urlScheme: 'URL must begin with http:// or https://',
  /** Ours, not the spec's: see "User-info" in `validateEnvironmentUrl`. */
  urlCredentials: 'URL cannot contain a username or password.',
  urlOnePort: 'Incorrect URL structure, only one port is allowed.',
  urlPortOutsideHost: 'Incorrect URL structure, the port must be specified within the host portion.',
  urlPortEmpty: 'Invalid URL: Port cannot be empty',
  urlPortNotNumber: 'Invalid URL: Port number must be a number',
  urlPortNotInteger: 'Incorrect URL structure, the port must be an integer.',
  urlPortOutOfRange: 'Incorrect URL structure, the port must be an integer between 0 and 65535.',
  urlPortTooLarge: 'Invalid URL: Port number cannot be greater than 65535',
  urlHostnameEmpty: 'Invalid URL: Hostname cannot be empty',
  urlHostnameCharacters: 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens',
  /** Ours, not the spec's: see "IP addresses" in `validateEnvironmentUrl`. */
  urlIpAddressInvalid: 'Invalid URL: IP address is not valid',
} as const;

export type EnvironmentMessageKey = keyof typeof EnvironmentMessages;
export type EnvironmentMessage = (typeof EnvironmentMessages)[EnvironmentMessageKey];

export interface EnvironmentNameResult {
  /** The name to save: trimmed, and cut to 32 characters when longer (even when `error` is set). */
  name: string;
  error: EnvironmentMessage | null;
}

export interface EnvironmentUrlResult {
  error: EnvironmentMessage | null;
}

const FILE_EXTENSION = '.json';

/** Control characters (C0, DEL, C1): never typed on purpose, and they break file names and git paths. */
const CONTROL = /\p{Cc}/u;

const NAME_FORBIDDEN = new Set<string>(EnvironmentNameForbiddenCharacters);

/** Characters of a name as a user counts them: code points, so an emoji is never cut in half. */
function characters(text: string): string[] {
  return Array.from(text);
}

/** The key two names collide on: file-name form dropped, case and Unicode composition ignored. */
function nameKey(name: string): string {
  return environmentDisplayName(name.trim()).normalize('NFC').toLowerCase();
}

/**
 * Checks an environment name, rules in the spec's order; the first broken rule wins.
 *
 * 1. The name is trimmed.
 * 2. Empty gives 'Empty Name'.
 * 3. Over 32 characters (code points) gives the too-long message, and `name` is cut to 32.
 * 4. Any of `/ . * : ? " < > | \` gives the forbidden-characters message. Control characters (tab, newline,
 *    NUL...) give it too: the spec's list is what users can type, and a newline in `{name}.json` would break
 *    the file and the git repository. Spaces, parentheses, hyphens and non-ASCII letters are fine.
 * 5. A case-insensitive duplicate of an existing name gives the duplicate message. `existingNames` may be
 *    display names (`staging`) or file names (`staging.json`, as the list call returns them): a valid name
 *    has no dot, so dropping `.json` is never wrong. `currentName` (when editing) is left out, so changing
 *    only the case of a name ('Staging' → 'staging') is allowed.
 *
 * `name` is what to save; do not write it back into the input on every keystroke (the trim would eat the
 * space a user is typing).
 */
export function validateEnvironmentName(
  rawName: string,
  existingNames: readonly string[],
  currentName?: string | null,
): EnvironmentNameResult {
  const name = rawName.trim();
  const chars = characters(name);
  if (chars.length === 0) return { name, error: EnvironmentMessages.nameEmpty };
  if (chars.length > Limits.environmentNameMax) {
    return { name: chars.slice(0, Limits.environmentNameMax).join(''), error: EnvironmentMessages.nameTooLong };
  }
  if (chars.some((c) => NAME_FORBIDDEN.has(c) || CONTROL.test(c))) {
    return { name, error: EnvironmentMessages.nameForbiddenCharacters };
  }
  const key = nameKey(name);
  const self = currentName ? nameKey(currentName) : null;
  const taken = existingNames.some((existing) => {
    const other = nameKey(existing);
    return other === key && other !== self;
  });
  if (taken) return { name, error: EnvironmentMessages.nameDuplicate };
  return { name, error: null };
}

/** Spaces (any Unicode space, line or paragraph separator), control characters and the spec's symbols. */
const URL_FORBIDDEN = /[\p{Z}\p{Cc}<>"{}|\\^`]/u;
const URL_SCHEME = /^https?:\/\//i;
/** A path segment that is nothing but a colon and digits: a port typed after the `/`. */
const MISPLACED_PORT = /^:\d+$/;
/** One host label: letters, combining marks and digits of any script (IDN), and hyphens. */
const HOST_LABEL = /^[\p{L}\p{M}\p{Nd}-]+$/u;
/** A last label the WHATWG URL parser reads as a number, which makes the whole host an IPv4 address. */
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/i;
/** A decimal IPv4 part without leading zeros (`010` would be octal 8 to a browser). */
const IPV4_PART = /^(0|[1-9]\d{0,2})$/;

function isDottedQuad(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => IPV4_PART.test(part) && Number(part) <= 255);
}

/** An IPv6 address (without brackets): 8 hex groups, one `::` at most, optionally ending in dotted IPv4. */
function isIpv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(text)) return false;
  let hex = text;
  if (text.includes('.')) {
    const cut = text.lastIndexOf(':');
    if (cut === -1 || !isDottedQuad(text.slice(cut + 1))) return false;
    hex = `${text.slice(0, cut + 1)}0:0`; // the IPv4 tail counts as two groups
  }
  const group = (g: string) => /^[0-9a-f]{1,4}$/i.test(g);
  const halves = hex.split('::');
  if (halves.length > 2) return false;
  if (halves.length === 1) {
    const groups = hex.split(':');
    return groups.length === 8 && groups.every(group);
  }
  const [left = '', right = ''] = halves;
  const groups = [...(left ? left.split(':') : []), ...(right ? right.split(':') : [])];
  return groups.length <= 7 && groups.every(group);
}

function hostError(host: string): EnvironmentMessage | null {
  if (host === '') return EnvironmentMessages.urlHostnameEmpty;
  if (host.startsWith('[')) {
    return host.endsWith(']') && isIpv6(host.slice(1, -1)) ? null : EnvironmentMessages.urlIpAddressInvalid;
  }
  const labels = (host.endsWith('.') ? host.slice(0, -1) : host).split('.');
  if (!labels.every((label) => HOST_LABEL.test(label))) return EnvironmentMessages.urlHostnameCharacters;
  const last = labels[labels.length - 1] ?? '';
  if (NUMERIC_LABEL.test(last) && !isDottedQuad(labels.join('.'))) return EnvironmentMessages.urlIpAddressInvalid;
  return null;
}

function portError(port: string): EnvironmentMessage | null {
  if (port === '') return EnvironmentMessages.urlPortEmpty;
  if (!/\d/.test(port)) return EnvironmentMessages.urlPortNotNumber;
  if (!/^-?\d+$/.test(port)) return EnvironmentMessages.urlPortNotInteger;
  if (port.startsWith('-')) return EnvironmentMessages.urlPortOutOfRange;
  const digits = port.replace(/^0+(?=\d)/, '');
  if (digits.length > 5 || Number(digits) > EnvironmentPortMax) return EnvironmentMessages.urlPortTooLarge;
  return null;
}

/**
 * Checks an environment base URL. The first broken rule in this table wins; rows 1-3 and 5-9 follow the
 * spec's order of concern, and the spec's "Also" messages are placed where their subject is checked.
 *
 * | #  | Rule (what triggers it)                                                        | Example input                   | Message                                                                        |
 * |----|--------------------------------------------------------------------------------|---------------------------------|--------------------------------------------------------------------------------|
 * | 1  | Empty or only whitespace                                                        | `''`, `'   '`                    | URL cannot be empty                                                            |
 * | 2  | Any space (incl. Unicode spaces), control character, or < > " { } \| \\ ^ `     | `http://a b`, `http://x/<p>`     | URL cannot contain the following characters: space, tab, newline, ...          |
 * | 3  | Does not start with `http://` or `https://` (scheme case-insensitive)           | `ftp://x`, `shop.com`, `http:/x` | URL must begin with http:// or https://                                        |
 * | 4  | `@` in the authority (user-info)                                                | `https://user:pw@host`          | URL cannot contain a username or password.                                     |
 * | 5  | More than one port: authority colons plus misplaced ports in the path > 1       | `http://h:1:2`, `http://h:1/:2`  | Incorrect URL structure, only one port is allowed.                             |
 * | 6  | A path segment that is only `:digits` (and no port in the authority)            | `http://h/:4000/shop`           | Incorrect URL structure, the port must be specified within the host portion.   |
 * | 7  | Port after `:` is empty                                                         | `http://h:`, `http://h:/x`       | Invalid URL: Port cannot be empty                                              |
 * | 8  | Port has no digit 0-9 at all                                                     | `http://h:abc`, `http://h:-`     | Invalid URL: Port number must be a number                                      |
 * | 9  | Port has digits but is not written as a whole number (`-` allowed in front)     | `http://h:8a`, `http://h:1.5`    | Incorrect URL structure, the port must be an integer.                          |
 * | 10 | Port is a negative whole number                                                 | `http://h:-1`                   | Incorrect URL structure, the port must be an integer between 0 and 65535.      |
 * | 11 | Port above 65535 (leading zeros ignored: `:0080` is 80)                         | `http://h:65536`                | Invalid URL: Port number cannot be greater than 65535                          |
 * | 12 | Host empty                                                                      | `http://`, `http://:80`, `http:///x` | Invalid URL: Hostname cannot be empty                                     |
 * | 13 | A host label with anything but letters, digits, marks, hyphens; or empty label  | `http://ho_st`, `http://a..b`    | Invalid URL: Hostname can only contain alphanumeric characters and hyphens     |
 * | 14 | Bad IP: last label numeric but not a.b.c.d (0-255, no leading zeros); bad `[v6]` | `http://1.2.3.256`, `http://[::g]` | Invalid URL: IP address is not valid                                          |
 *
 * Port rules 7-11 split every port text into exactly one bucket, so their relative order only matters
 * against the structural rules (5, 6) before them and the host rules (12-14) after them. Port 0 is accepted
 * (spec §9 gives the range as 0-65535).
 *
 * Decisions:
 * - Authority: the text after `://` up to the first `/`, `?` or `#`. Everything after it (path, query,
 *   fragment) may hold anything but the forbidden characters, so `https://x.com/a:b`,
 *   `/wiki/Special:Random`, `/item:42`, `/@user` and `?next=http://y` are accepted: a colon in the path is
 *   not a port. The one exception is a segment that is only `:digits` (`http://localhost/:4000/shop`),
 *   which no real site uses and which is always a port typed in the wrong place (rule 6).
 * - User-info: rejected (rule 4). The URL is saved in `{name}.json` in the project's git repository and is
 *   shown to every member and sent to the cloud recorder, so a password in it leaks; credentials belong in
 *   test data as secrets. `https://shop.example.com@evil.test` also goes to evil.test, which hides the
 *   real host from reviewers. `@` in the path or query is fine.
 * - Hosts: `localhost` and any single-label name (`demo-shop`) are fine. Labels may use letters and digits
 *   of any script, so IDN hosts (`bücher.example`) and punycode (`xn--bcher-kva.example`) pass; hyphen
 *   placement and punycode validity are left to DNS. One trailing dot (`example.com.`) is allowed.
 *   Underscores are refused, as the spec's message says, even though Docker service names sometimes use
 *   them: name the service with a hyphen.
 * - IP addresses (rule 14, ours): a host whose last label is a number is an IPv4 address to every browser,
 *   which also reads `127.1`, `0x7f.0.0.1` and `010.0.0.1` (octal) as addresses. Only the plain dotted form
 *   with four parts 0-255 and no leading zeros is accepted, so what is saved is what gets visited. IPv6
 *   literals in brackets are accepted (`http://[::1]:3000`), zone ids (`%25eth0`) are not. An IPv6 address
 *   without brackets (`http://::1`) has several colons and gets rule 5.
 * - The URL is not trimmed: surrounding spaces give rule 2 rather than being dropped silently, so what is
 *   saved is exactly what the user sees.
 */
export function validateEnvironmentUrl(rawUrl: string): EnvironmentUrlResult {
  return { error: environmentUrlError(rawUrl) };
}

function environmentUrlError(url: string): EnvironmentMessage | null {
  if (url.trim() === '') return EnvironmentMessages.urlEmpty;
  if (URL_FORBIDDEN.test(url)) return EnvironmentMessages.urlForbiddenCharacters;
  const scheme = URL_SCHEME.exec(url);
  if (!scheme) return EnvironmentMessages.urlScheme;

  const rest = url.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  if (authority.includes('@')) return EnvironmentMessages.urlCredentials;

  const afterAuthority = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  const path = afterAuthority.startsWith('/') ? (afterAuthority.split(/[?#]/, 1)[0] ?? '') : '';
  const misplacedPorts = path.split('/').filter((segment) => MISPLACED_PORT.test(segment)).length;

  // Split host and port. An IPv6 literal keeps its colons inside the brackets.
  let host = authority;
  let tail = '';
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close !== -1) {
      host = authority.slice(0, close + 1);
      tail = authority.slice(close + 1);
    }
  } else {
    const colon = authority.indexOf(':');
    if (colon !== -1) {
      host = authority.slice(0, colon);
      tail = authority.slice(colon);
    }
  }
  // Something other than `:port` right after `]`, as in `[::1]x`: the literal is malformed.
  const hostTailBroken = tail !== '' && !tail.startsWith(':');
  const port = tail.startsWith(':') ? tail.slice(1) : null;

  const ports = (port === null ? 0 : 1 + (port.match(/:/g)?.length ?? 0)) + misplacedPorts;
  if (ports > 1) return EnvironmentMessages.urlOnePort;
  if (misplacedPorts > 0) return EnvironmentMessages.urlPortOutsideHost;
  if (port !== null) {
    const error = portError(port);
    if (error) return error;
  }
  if (hostTailBroken) return EnvironmentMessages.urlIpAddressInvalid;
  return hostError(host);
}

/**
 * Labels that sit under a two-letter country TLD as a registry's own level (`co.uk`, `com.au`, `ac.jp`,
 * `gob.mx`...). Only these short parts are dropped after the TLD, so `shop.ibm.com` keeps `ibm`.
 */
const SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'go', 'gob', 'gov', 'ltd', 'mil', 'ne', 'net', 'nom', 'or', 'org', 'plc', 'sch']);

/**
 * Tidies a suggestion into a valid name: each run of other characters becomes one hyphen, hyphens at the
 * ends go, and it is cut to 32. Hyphens already there stay, so punycode keeps its `xn--`.
 */
function tidyName(text: string): string {
  const dashed = text.replace(/[^\p{L}\p{M}\p{Nd}-]+/gu, '-').replace(/^-+/, '');
  return characters(dashed).slice(0, Limits.environmentNameMax).join('').replace(/-+$/, '');
}

/**
 * Suggests an environment name from a URL's host, as the create dialog does while the user types the URL
 * (spec 01 §5: "auto-suggested from the URL host (dropping www and short suffix parts)").
 *
 * - Lenient on purpose: works on partial input (`shop.exa`, no scheme yet); returns '' when there is no host
 *   yet (`''`, `http:/`).
 * - The port, path, user-info and case are dropped: `http://localhost:4000/demo` → 'localhost'.
 * - A leading `www.` (or `www2.`...) is dropped, then the TLD, then one registry level under a country TLD
 *   (see `SECOND_LEVEL`); the remaining labels are joined with '-':
 *   `https://www.shop.example.com` → 'shop-example', `https://sub-domain.example.co.uk` →
 *   'sub-domain-example', `https://example.com` → 'example'. A single label stays: `http://demo-shop` →
 *   'demo-shop'.
 * - Loopback addresses (`127.x.x.x`, `[::1]`) give 'localhost'; other IP addresses keep their numbers
 *   joined by '-' (`192.168.1.20` → '192-168-1-20').
 * - Punycode is not decoded: `xn--bcher-kva.example` → 'xn--bcher-kva'.
 *
 * The result never breaks a name rule (no forbidden characters, at most 32 characters) but may be taken:
 * pass it through `uniqueEnvironmentName`.
 */
export function suggestEnvironmentName(url: string): string {
  const text = url.trim();
  const lower = text.toLowerCase();
  if ('http://'.startsWith(lower) || 'https://'.startsWith(lower)) return '';

  let authority = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#\\]/, 1)[0] ?? '';
  authority = authority.slice(authority.lastIndexOf('@') + 1).toLowerCase();

  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    const address = close === -1 ? authority.slice(1) : authority.slice(1, close);
    return /^[0:]*:0*1$/.test(address) ? 'localhost' : tidyName(address);
  }

  const host = authority.split(':', 1)[0] ?? '';
  const labels = host.split('.').filter((label) => label !== '');
  if (labels.length === 4 && labels.every((label) => /^\d{1,3}$/.test(label))) {
    return labels[0] === '127' ? 'localhost' : tidyName(labels.join('-'));
  }
  if (labels.length > 1 && /^www\d*$/.test(labels[0] ?? '')) labels.shift();
  if (labels.length > 1) {
    const tld = labels.pop() ?? '';
    if (/^[a-z]{2}$/.test(tld) && labels.length > 1 && SECOND_LEVEL.has(labels[labels.length - 1] ?? '')) labels.pop();
  }
  return tidyName(labels.join('-'));
}

/**
 * Makes a name unique among `existing` (case-insensitively, display or file names), for the demo option and
 * suggestions (spec 01 §5: "a taken name gets a numbered suffix in parentheses").
 *
 * 'demo' → 'demo' when free, else 'demo (1)', then 'demo (2)'... the first free one. A taken base that
 * already ends in ` (n)` is renumbered rather than suffixed twice ('demo (1)' → 'demo (2)'). The stem is
 * shortened so the result stays within 32 characters. The base is trimmed but otherwise assumed valid;
 * an empty base gives ''.
 */
export function uniqueEnvironmentName(base: string, existing: readonly string[]): string {
  const first = characters(base.trim()).slice(0, Limits.environmentNameMax).join('').trim();
  if (first === '') return '';
  const taken = new Set(existing.map(nameKey));
  if (!taken.has(nameKey(first))) return first;
  const stem = first.replace(/\s*\(\d+\)$/, '') || first;
  for (let n = 1; ; n++) {
    const suffix = ` (${n})`;
    const room = Limits.environmentNameMax - characters(suffix).length;
    const candidate = `${characters(stem).slice(0, room).join('').trimEnd()}${suffix}`;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}

/**
 * The name shown for a stored environment file: `staging.json` → 'staging' (spec 02: the last 5 characters,
 * the extension, are cut). A value without `.json` is returned as is rather than losing 5 real characters.
 */
export function environmentDisplayName(fileName: string): string {
  return fileName.endsWith(FILE_EXTENSION) ? fileName.slice(0, -FILE_EXTENSION.length) : fileName;
}

/** The file an environment is stored in: 'staging' → `staging.json` (spec 01 §3). */
export function environmentFileName(name: string): string {
  return `${name}${FILE_EXTENSION}`;
}
