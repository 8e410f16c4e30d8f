import { describe, expect, it } from 'vitest';
import { Limits } from './constants.js';
import {
  EnvironmentMessages as M,
  EnvironmentNameForbiddenCharacters,
  EnvironmentNameForbiddenList,
  EnvironmentUrlForbiddenList,
  environmentDisplayName,
  environmentFileName,
  suggestEnvironmentName,
  uniqueEnvironmentName,
  validateEnvironmentName,
  validateEnvironmentUrl,
} from './environment-rules.js';

const urlError = (url: string) => validateEnvironmentUrl(url).error;

/** 01 §5 ends these two messages with "..." after naming the characters; the whole sentence as users read it. */
const NAME_FORBIDDEN = 'Environment name cannot contain the following characters: / . * : ? " < > | \\';
const URL_FORBIDDEN =
  'URL cannot contain the following characters: space, tab, newline, carriage return, form feed, vertical tab, < > " { } | \\ ^ `';

describe('environment messages', () => {
  // The server and the web app compare and show these strings; the spec's wording (01 §5) is the contract.
  it('keeps the spec wording, and the exported lists and limit agree with it', () => {
    expect(M.nameTooLong).toBe('Environment name cannot be more than 32 characters.');
    expect(Limits.environmentNameMax).toBe(32);
    expect(M.nameForbiddenCharacters).toBe(NAME_FORBIDDEN);
    expect(EnvironmentNameForbiddenList).toBe(EnvironmentNameForbiddenCharacters.join(' '));
    expect(EnvironmentNameForbiddenList).toBe('/ . * : ? " < > | \\');
    expect(M.urlForbiddenCharacters).toBe(URL_FORBIDDEN);
    expect(EnvironmentUrlForbiddenList).toBe('space, tab, newline, carriage return, form feed, vertical tab, < > " { } | \\ ^ `');
    expect(M.nameEmpty).toBe('Empty Name');
    expect(M.nameDuplicateToast).toBe('Choose a unique name, discarding your changes.');
    expect(M.renameWarning).toBe('Renaming environments makes test data inaccessible.');
  });

  it('has no two keys with the same text, so a message identifies its rule', () => {
    const texts = Object.values(M);
    expect(new Set(texts).size).toBe(texts.length);
  });
});

describe('validateEnvironmentName', () => {
  const existing = ['staging.json', 'Prod.json', 'demo'];
  const long = 'a'.repeat(33);

  // [why, input, expected error, expected saved name]
  const cases: [string, string, string | null, string][] = [
    ['a plain name passes', 'qa', null, 'qa'],
    ['spaces, parentheses, hyphens and non-ASCII letters are allowed', 'Démo shop (2)-eu', null, 'Démo shop (2)-eu'],
    ['the name is trimmed before anything else', '  qa  ', null, 'qa'],
    ['empty is "Empty Name"', '', 'Empty Name', ''],
    ['whitespace only is empty after the trim', ' \t ', 'Empty Name', ''],
    ['exactly 32 characters is fine', 'a'.repeat(32), null, 'a'.repeat(32)],
    ['33 characters is too long and is cut to 32', long, 'Environment name cannot be more than 32 characters.', 'a'.repeat(32)],
    ['length is counted after the trim', `  ${'a'.repeat(32)}  `, null, 'a'.repeat(32)],
    [
      'characters are code points: 32 emoji fit, and the cut never splits one',
      '😀'.repeat(33),
      'Environment name cannot be more than 32 characters.',
      '😀'.repeat(32),
    ],
    // Order of concern: too long and forbidden characters at once gives the length message (rule 3 before 4).
    ['length is checked before characters', `${'a'.repeat(32)}/`, 'Environment name cannot be more than 32 characters.', 'a'.repeat(32)],
    ['a dot is forbidden (the file is {name}.json)', 'v1.2', NAME_FORBIDDEN, 'v1.2'],
    ['a control character inside is forbidden (it would break the file name)', 'a\nb', NAME_FORBIDDEN, 'a\nb'],
    [
      'a case-insensitive duplicate of a file name in the list',
      'STAGING',
      'Environment cannot have the same case-insensitive name.',
      'STAGING',
    ],
    ['a duplicate of a display name in the list', 'Demo', 'Environment cannot have the same case-insensitive name.', 'Demo'],
    // Order of concern: a forbidden character in a duplicate-looking name reports the characters.
    ['characters are checked before duplicates', 'prod.', NAME_FORBIDDEN, 'prod.'],
    ['a duplicate after trimming', '  prod ', 'Environment cannot have the same case-insensitive name.', 'prod'],
  ];

  it.each(cases)('%s', (_why, input, error, name) => {
    expect(validateEnvironmentName(input, existing)).toEqual({ name, error });
  });

  it.each('/.*:?"<>|\\'.split(''))('forbids %s anywhere in the name', (char) => {
    expect(validateEnvironmentName(`a${char}b`, []).error).toBe(NAME_FORBIDDEN);
  });

  it('leaves the name being edited out of the duplicate check', () => {
    // Saving 'staging' unchanged, or changing only its case, is not a clash with itself...
    expect(validateEnvironmentName('staging', existing, 'staging').error).toBeNull();
    expect(validateEnvironmentName('Staging', existing, 'staging').error).toBeNull();
    expect(validateEnvironmentName('staging', existing, 'staging.json').error).toBeNull();
    // ...but renaming it onto another environment is.
    expect(validateEnvironmentName('prod', existing, 'staging').error).toBe('Environment cannot have the same case-insensitive name.');
  });

  it('treats NFC and NFD spellings as duplicates (they collide on macOS checkouts)', () => {
    expect(validateEnvironmentName('de\u0301mo', ['démo.json']).error).toBe('Environment cannot have the same case-insensitive name.');
  });
});

describe('validateEnvironmentUrl', () => {
  // Legitimate URLs that must never be refused. Each is also checked against the WHATWG parser (the global
  // URL of browsers and Node), so what we accept is something a browser can visit.
  const good = [
    'http://localhost:4000/demo-shop/',
    'https://shop.example.com/path?q=1#x',
    'http://127.0.0.1:8080',
    'https://sub-domain.example.co.uk',
    'http://[::1]:3000',
    'http://[2001:db8::8a2e:370:7334]/app',
    'http://[::ffff:192.168.0.1]',
    'http://xn--bcher-kva.example',
    'http://bücher.example/', // IDN: the browser turns it into punycode
    'HTTPS://Shop.Example.COM', // scheme and host are case-insensitive
    'http://demo-shop', // single-label hosts (Docker service names, intranet)
    'https://example.com.', // fully qualified, trailing dot
    'https://x.com/a:b', // a colon in the path is not a port
    'https://en.wikipedia.org/wiki/Special:Random',
    'https://shop.example.com/item:42', // digits after a colon inside a segment are still path
    'https://medium.com/@someone', // @ in the path is not user-info
    'https://shop.example.com/?next=http://x.example:80&email=a@b.c', // query may hold anything allowed
    'https://shop.example.com#/route:3000', // so may the fragment
    'http://localhost:0', // the spec's range is 0-65535
    'http://localhost:65535',
    'http://localhost:0080', // leading zeros: port 80
    'https://shop.example.com/100%', // browsers accept a stray percent in the path
  ];

  it.each(good)('accepts %s', (url) => {
    expect(urlError(url)).toBeNull();
    expect(() => new URL(url)).not.toThrow();
  });

  // [why, input, message]. Every message is reached at least once; rows marked "order" break two rules and
  // prove which one is reported.
  const bad: [string, string, string][] = [
    ['empty', '', 'URL cannot be empty'],
    ['whitespace only counts as empty', '  \t', 'URL cannot be empty'],
    ['a space', 'http://a b.com', URL_FORBIDDEN],
    ['a tab', 'http://a.com/\tx', URL_FORBIDDEN],
    ['a newline', 'http://a.com\n', URL_FORBIDDEN],
    ['a carriage return', 'http://a.com/\r', URL_FORBIDDEN],
    ['a form feed', 'http://a.com/\f', URL_FORBIDDEN],
    ['a vertical tab', 'http://a.com/\v', URL_FORBIDDEN],
    ['a leading space is not trimmed away silently', ' http://a.com', URL_FORBIDDEN],
    ['a non-breaking space pasted from a document', 'http://a.com/\u00a0', URL_FORBIDDEN],
    ['order: forbidden characters before the scheme', 'ftp://a b', URL_FORBIDDEN],
    ['no scheme', 'shop.example.com', 'URL must begin with http:// or https://'],
    ['another scheme', 'ftp://shop.example.com', 'URL must begin with http:// or https://'],
    ['javascript: is not a web page', 'javascript:alert(1)', 'URL must begin with http:// or https://'],
    ['one slash', 'http:/shop.example.com', 'URL must begin with http:// or https://'],
    ['order: scheme before user-info', 'ftp://user:pw@host', 'URL must begin with http:// or https://'],
    ['user and password', 'https://user:pass@shop.example.com', 'URL cannot contain a username or password.'],
    ['user only', 'https://user@shop.example.com', 'URL cannot contain a username or password.'],
    ['a disguised host', 'https://shop.example.com@evil.test', 'URL cannot contain a username or password.'],
    ['order: user-info before ports', 'http://u:p@host:1:2', 'URL cannot contain a username or password.'],
    ['two ports', 'http://host:1:2', 'Incorrect URL structure, only one port is allowed.'],
    ['two colons', 'http://host::80', 'Incorrect URL structure, only one port is allowed.'],
    [
      'order: one port in the host and one in the path is two ports, not a misplaced one',
      'http://host:80/:81',
      'Incorrect URL structure, only one port is allowed.',
    ],
    ['order: two ports before an empty host', 'http://:1:2', 'Incorrect URL structure, only one port is allowed.'],
    ['an IPv6 address without brackets looks like several ports', 'http://::1', 'Incorrect URL structure, only one port is allowed.'],
    [
      'a port typed after the slash',
      'http://localhost/:4000',
      'Incorrect URL structure, the port must be specified within the host portion.',
    ],
    [
      'a port typed deeper in the path',
      'http://localhost/shop/:4000/',
      'Incorrect URL structure, the port must be specified within the host portion.',
    ],
    [
      'order: a misplaced port before an empty host',
      'http:///:4000',
      'Incorrect URL structure, the port must be specified within the host portion.',
    ],
    ['empty port', 'http://host:', 'Invalid URL: Port cannot be empty'],
    ['empty port before a path', 'http://host:/shop', 'Invalid URL: Port cannot be empty'],
    ['empty port after an IPv6 literal', 'http://[::1]:', 'Invalid URL: Port cannot be empty'],
    ['order: empty port before empty host', 'http://:', 'Invalid URL: Port cannot be empty'],
    ['no digits at all', 'http://host:abc', 'Invalid URL: Port number must be a number'],
    ['only a minus sign', 'http://host:-', 'Invalid URL: Port number must be a number'],
    ['order: port before an empty host', 'http://:abc', 'Invalid URL: Port number must be a number'],
    ['digits then letters', 'http://host:8a', 'Incorrect URL structure, the port must be an integer.'],
    ['a decimal', 'http://host:1.5', 'Incorrect URL structure, the port must be an integer.'],
    ['a plus sign', 'http://host:+80', 'Incorrect URL structure, the port must be an integer.'],
    ['exponent notation is not a port', 'http://host:1e3', 'Incorrect URL structure, the port must be an integer.'],
    ['order: "an integer" before "between 0 and 65535"', 'http://host:-1.5', 'Incorrect URL structure, the port must be an integer.'],
    ['negative', 'http://host:-1', 'Incorrect URL structure, the port must be an integer between 0 and 65535.'],
    ['one too many', 'http://host:65536', 'Invalid URL: Port number cannot be greater than 65535'],
    ['far too many digits', 'http://host:99999999999999999999', 'Invalid URL: Port number cannot be greater than 65535'],
    ['order: port range before host characters', 'http://ho_st:70000', 'Invalid URL: Port number cannot be greater than 65535'],
    ['empty host', 'http://', 'Invalid URL: Hostname cannot be empty'],
    ['empty host with a port', 'http://:80', 'Invalid URL: Hostname cannot be empty'],
    ['three slashes', 'http:///shop', 'Invalid URL: Hostname cannot be empty'],
    ['empty host before a query', 'https://?q=1', 'Invalid URL: Hostname cannot be empty'],
    ['an underscore', 'http://ho_st', 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens'],
    [
      'an underscore with a good port',
      'http://demo_shop:4000',
      'Invalid URL: Hostname can only contain alphanumeric characters and hyphens',
    ],
    ['an empty label', 'http://shop..example.com', 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens'],
    ['a leading dot', 'http://.example.com', 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens'],
    ['a percent-encoded host', 'http://%41.com', 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens'],
    ['a symbol', 'http://shop!.com', 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens'],
    ['a bracket outside an IPv6 literal', 'http://a[1]', 'Invalid URL: Hostname can only contain alphanumeric characters and hyphens'],
    ['a part above 255', 'http://1.2.3.256', 'Invalid URL: IP address is not valid'],
    ['three parts (a browser would read 1.2.0.3)', 'http://1.2.3', 'Invalid URL: IP address is not valid'],
    ['shorthand loopback', 'http://127.1', 'Invalid URL: IP address is not valid'],
    ['a leading zero (octal to a browser)', 'http://010.0.0.1', 'Invalid URL: IP address is not valid'],
    ['hex', 'http://0x7f.0.0.1', 'Invalid URL: IP address is not valid'],
    ['a numeric TLD makes the host an IP address', 'http://example.123', 'Invalid URL: IP address is not valid'],
    ['a bad IPv6 group', 'http://[::g]', 'Invalid URL: IP address is not valid'],
    ['two :: in IPv6', 'http://[1::2::3]', 'Invalid URL: IP address is not valid'],
    ['too many IPv6 groups', 'http://[1:2:3:4:5:6:7:8:9]', 'Invalid URL: IP address is not valid'],
    ['an IPv6 zone id', 'http://[fe80::1%25eth0]', 'Invalid URL: IP address is not valid'],
    ['a missing closing bracket', 'http://[::1', 'Invalid URL: IP address is not valid'],
    ['junk after the closing bracket', 'http://[::1]x', 'Invalid URL: IP address is not valid'],
    ['empty brackets', 'http://[]', 'Invalid URL: IP address is not valid'],
  ];

  it.each(bad)('%s: %j', (_why, url, message) => {
    expect(urlError(url)).toBe(message);
  });

  it('reaches every URL message with at least one input', () => {
    const urlMessages = Object.entries(M)
      .filter(([key]) => key.startsWith('url'))
      .map(([, text]) => text);
    const reached = new Set(bad.map(([, , message]) => message));
    expect(urlMessages.filter((text) => !reached.has(text))).toEqual([]);
  });

  it('only refuses IP addresses and hosts that a browser also refuses or would read differently', () => {
    // Sanity check of rule 14 against the WHATWG parser: each of these either throws or changes the host.
    for (const url of ['http://1.2.3.256', 'http://example.123', 'http://[::g]', 'http://[1::2::3]']) {
      expect(() => new URL(url), url).toThrow();
    }
    for (const [url, host] of [
      ['http://127.1', '127.0.0.1'],
      ['http://010.0.0.1', '8.0.0.1'],
      ['http://0x7f.0.0.1', '127.0.0.1'],
    ]) {
      expect(new URL(url!).hostname, url).toBe(host);
    }
  });
});

describe('suggestEnvironmentName', () => {
  // [input, suggestion]
  const cases: [string, string][] = [
    ['https://www.shop.example.com', 'shop-example'], // www and the TLD dropped, the rest joined
    ['https://example.com', 'example'],
    ['https://staging.myapp.io/login', 'staging-myapp'],
    ['https://sub-domain.example.co.uk', 'sub-domain-example'], // registry level under a country TLD
    ['https://www.example.com.au', 'example'],
    ['https://shop.ibm.com', 'shop-ibm'], // a short real domain is kept: only known registry levels go
    ['https://example.co', 'example'], // .co is a country TLD on its own
    ['http://localhost:4000/demo-shop/', 'localhost'], // the port is not part of the name
    ['http://demo-shop:4000', 'demo-shop'],
    ['http://127.0.0.1:8080', 'localhost'],
    ['http://192.168.1.20', '192-168-1-20'], // dots are forbidden in names
    ['http://[::1]:3000', 'localhost'],
    ['http://[2001:db8::1]/', '2001-db8-1'],
    ['http://xn--bcher-kva.example', 'xn--bcher-kva'], // punycode is not decoded
    ['http://Bücher.example', 'bücher'],
    ['https://user:pw@Shop.Example.com', 'shop-example'], // user-info and case dropped
    ['shop.example.com', 'shop-example'], // partial input while typing, no scheme yet
    ['shop.exa', 'shop'], // mid-typing the domain: 'exa' reads as the TLD for now
    ['http://ho_st', 'ho-st'],
    ['http://www', 'www'], // www alone is the host, not a prefix
    ['', ''],
    ['http:/', ''], // still typing the scheme
    ['https://', ''],
  ];

  it.each(cases)('%j → %j', (url, name) => {
    expect(suggestEnvironmentName(url)).toBe(name);
  });

  it('always suggests a name that passes the name rules', () => {
    const hosts = [
      'https://www.shop.example.com',
      `https://${'very-long-subdomain-label.'.repeat(4)}example.com`,
      'http://a--b.example',
      'http://-x-.example',
      'http://[fe80::1]',
      'http://shop_eu.example.com',
    ];
    for (const url of hosts) {
      const name = suggestEnvironmentName(url);
      expect(validateEnvironmentName(name, []), url).toEqual({ name, error: null });
    }
  });

  it('cuts long suggestions to 32 without a trailing hyphen', () => {
    const name = suggestEnvironmentName(`https://${'abcdefghij-'.repeat(5)}x.example.com`);
    expect(name.length).toBeLessThanOrEqual(32);
    expect(name.endsWith('-')).toBe(false);
  });
});

describe('uniqueEnvironmentName', () => {
  it.each<[string, string[], string]>([
    ['demo', [], 'demo'], // free names stay as they are
    ['demo', ['demo.json'], 'demo (1)'],
    ['demo', ['Demo', 'DEMO (1)'], 'demo (2)'], // case-insensitive, like the duplicate rule
    ['demo', ['demo', 'demo (2)'], 'demo (1)'], // the first free number
    ['demo (1)', ['demo (1)'], 'demo (2)'], // renumbered, not 'demo (1) (1)'
    ['  demo  ', ['demo'], 'demo (1)'],
    ['', ['demo'], ''],
  ])('%j among %j → %j', (base, existing, name) => {
    expect(uniqueEnvironmentName(base, existing)).toBe(name);
  });

  it('keeps the numbered name within 32 characters and valid', () => {
    const base = 'a'.repeat(32);
    const name = uniqueEnvironmentName(base, [base]);
    expect(name).toBe(`${'a'.repeat(28)} (1)`);
    expect(validateEnvironmentName(name, [base]).error).toBeNull();
  });
});

describe('environment file names', () => {
  it('drops the .json extension for display and adds it for storage', () => {
    expect(environmentDisplayName('staging.json')).toBe('staging');
    expect(environmentDisplayName(environmentFileName('Démo (1)'))).toBe('Démo (1)');
    expect(environmentFileName('staging')).toBe('staging.json');
  });

  it('does not cut 5 real characters off a name that has no extension', () => {
    expect(environmentDisplayName('production')).toBe('production');
  });
});
