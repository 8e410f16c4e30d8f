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

describe('environment messages', () => {
  // The server and the web app compare and show these strings; the spec's wording is the contract.
  it('keeps the spec wording, built from the exported lists and limits', () => {
    expect(M.nameTooLong).toBe(`Environment name cannot be more than ${Limits.environmentNameMax} characters.`);
    expect(M.nameForbiddenCharacters).toBe(`Environment name cannot contain the following characters: ${EnvironmentNameForbiddenList}`);
    expect(EnvironmentNameForbiddenList).toBe(EnvironmentNameForbiddenCharacters.join(' '));
    expect(EnvironmentNameForbiddenList).toBe('/ . * : ? " < > | \\');
    expect(M.urlForbiddenCharacters).toBe(`URL cannot contain the following characters: ${EnvironmentUrlForbiddenList}`);
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
    ['empty is "Empty Name"', '', M.nameEmpty, ''],
    ['whitespace only is empty after the trim', ' \t ', M.nameEmpty, ''],
    ['exactly 32 characters is fine', 'a'.repeat(32), null, 'a'.repeat(32)],
    ['33 characters is too long and is cut to 32', long, M.nameTooLong, 'a'.repeat(32)],
    ['length is counted after the trim', `  ${'a'.repeat(32)}  `, null, 'a'.repeat(32)],
    ['characters are code points: 32 emoji fit, and the cut never splits one', '😀'.repeat(33), M.nameTooLong, '😀'.repeat(32)],
    // Order of concern: too long and forbidden characters at once gives the length message (rule 3 before 4).
    ['length is checked before characters', `${'a'.repeat(32)}/`, M.nameTooLong, 'a'.repeat(32)],
    ['a dot is forbidden (the file is {name}.json)', 'v1.2', M.nameForbiddenCharacters, 'v1.2'],
    ['a control character inside is forbidden (it would break the file name)', 'a\nb', M.nameForbiddenCharacters, 'a\nb'],
    ['a case-insensitive duplicate of a file name in the list', 'STAGING', M.nameDuplicate, 'STAGING'],
    ['a duplicate of a display name in the list', 'Demo', M.nameDuplicate, 'Demo'],
    // Order of concern: a forbidden character in a duplicate-looking name reports the characters.
    ['characters are checked before duplicates', 'prod.', M.nameForbiddenCharacters, 'prod.'],
    ['a duplicate after trimming', '  prod ', M.nameDuplicate, 'prod'],
  ];

  it.each(cases)('%s', (_why, input, error, name) => {
    expect(validateEnvironmentName(input, existing)).toEqual({ name, error });
  });

  it.each('/.*:?"<>|\\'.split(''))('forbids %s anywhere in the name', (char) => {
    expect(validateEnvironmentName(`a${char}b`, []).error).toBe(M.nameForbiddenCharacters);
  });

  it('leaves the name being edited out of the duplicate check', () => {
    // Saving 'staging' unchanged, or changing only its case, is not a clash with itself...
    expect(validateEnvironmentName('staging', existing, 'staging').error).toBeNull();
    expect(validateEnvironmentName('Staging', existing, 'staging').error).toBeNull();
    expect(validateEnvironmentName('staging', existing, 'staging.json').error).toBeNull();
    // ...but renaming it onto another environment is.
    expect(validateEnvironmentName('prod', existing, 'staging').error).toBe(M.nameDuplicate);
  });

  it('treats NFC and NFD spellings as duplicates (they collide on macOS checkouts)', () => {
    expect(validateEnvironmentName('de\u0301mo', ['démo.json']).error).toBe(M.nameDuplicate);
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
    ['empty', '', M.urlEmpty],
    ['whitespace only counts as empty', '  \t', M.urlEmpty],
    ['a space', 'http://a b.com', M.urlForbiddenCharacters],
    ['a tab', 'http://a.com/\tx', M.urlForbiddenCharacters],
    ['a newline', 'http://a.com\n', M.urlForbiddenCharacters],
    ['a carriage return', 'http://a.com/\r', M.urlForbiddenCharacters],
    ['a form feed', 'http://a.com/\f', M.urlForbiddenCharacters],
    ['a vertical tab', 'http://a.com/\v', M.urlForbiddenCharacters],
    ['a leading space is not trimmed away silently', ' http://a.com', M.urlForbiddenCharacters],
    ['a non-breaking space pasted from a document', 'http://a.com/\u00a0', M.urlForbiddenCharacters],
    ['order: forbidden characters before the scheme', 'ftp://a b', M.urlForbiddenCharacters],
    ['no scheme', 'shop.example.com', M.urlScheme],
    ['another scheme', 'ftp://shop.example.com', M.urlScheme],
    ['javascript: is not a web page', 'javascript:alert(1)', M.urlScheme],
    ['one slash', 'http:/shop.example.com', M.urlScheme],
    ['order: scheme before user-info', 'ftp://user:pw@host', M.urlScheme],
    ['user and password', 'https://user:pass@shop.example.com', M.urlCredentials],
    ['user only', 'https://user@shop.example.com', M.urlCredentials],
    ['a disguised host', 'https://shop.example.com@evil.test', M.urlCredentials],
    ['order: user-info before ports', 'http://u:p@host:1:2', M.urlCredentials],
    ['two ports', 'http://host:1:2', M.urlOnePort],
    ['two colons', 'http://host::80', M.urlOnePort],
    ['order: one port in the host and one in the path is two ports, not a misplaced one', 'http://host:80/:81', M.urlOnePort],
    ['order: two ports before an empty host', 'http://:1:2', M.urlOnePort],
    ['an IPv6 address without brackets looks like several ports', 'http://::1', M.urlOnePort],
    ['a port typed after the slash', 'http://localhost/:4000', M.urlPortOutsideHost],
    ['a port typed deeper in the path', 'http://localhost/shop/:4000/', M.urlPortOutsideHost],
    ['order: a misplaced port before an empty host', 'http:///:4000', M.urlPortOutsideHost],
    ['empty port', 'http://host:', M.urlPortEmpty],
    ['empty port before a path', 'http://host:/shop', M.urlPortEmpty],
    ['empty port after an IPv6 literal', 'http://[::1]:', M.urlPortEmpty],
    ['order: empty port before empty host', 'http://:', M.urlPortEmpty],
    ['no digits at all', 'http://host:abc', M.urlPortNotNumber],
    ['only a minus sign', 'http://host:-', M.urlPortNotNumber],
    ['order: port before an empty host', 'http://:abc', M.urlPortNotNumber],
    ['digits then letters', 'http://host:8a', M.urlPortNotInteger],
    ['a decimal', 'http://host:1.5', M.urlPortNotInteger],
    ['a plus sign', 'http://host:+80', M.urlPortNotInteger],
    ['exponent notation is not a port', 'http://host:1e3', M.urlPortNotInteger],
    ['order: "an integer" before "between 0 and 65535"', 'http://host:-1.5', M.urlPortNotInteger],
    ['negative', 'http://host:-1', M.urlPortOutOfRange],
    ['one too many', 'http://host:65536', M.urlPortTooLarge],
    ['far too many digits', 'http://host:99999999999999999999', M.urlPortTooLarge],
    ['order: port range before host characters', 'http://ho_st:70000', M.urlPortTooLarge],
    ['empty host', 'http://', M.urlHostnameEmpty],
    ['empty host with a port', 'http://:80', M.urlHostnameEmpty],
    ['three slashes', 'http:///shop', M.urlHostnameEmpty],
    ['empty host before a query', 'https://?q=1', M.urlHostnameEmpty],
    ['an underscore', 'http://ho_st', M.urlHostnameCharacters],
    ['an underscore with a good port', 'http://demo_shop:4000', M.urlHostnameCharacters],
    ['an empty label', 'http://shop..example.com', M.urlHostnameCharacters],
    ['a leading dot', 'http://.example.com', M.urlHostnameCharacters],
    ['a percent-encoded host', 'http://%41.com', M.urlHostnameCharacters],
    ['a symbol', 'http://shop!.com', M.urlHostnameCharacters],
    ['a bracket outside an IPv6 literal', 'http://a[1]', M.urlHostnameCharacters],
    ['a part above 255', 'http://1.2.3.256', M.urlIpAddressInvalid],
    ['three parts (a browser would read 1.2.0.3)', 'http://1.2.3', M.urlIpAddressInvalid],
    ['shorthand loopback', 'http://127.1', M.urlIpAddressInvalid],
    ['a leading zero (octal to a browser)', 'http://010.0.0.1', M.urlIpAddressInvalid],
    ['hex', 'http://0x7f.0.0.1', M.urlIpAddressInvalid],
    ['a numeric TLD makes the host an IP address', 'http://example.123', M.urlIpAddressInvalid],
    ['a bad IPv6 group', 'http://[::g]', M.urlIpAddressInvalid],
    ['two :: in IPv6', 'http://[1::2::3]', M.urlIpAddressInvalid],
    ['too many IPv6 groups', 'http://[1:2:3:4:5:6:7:8:9]', M.urlIpAddressInvalid],
    ['an IPv6 zone id', 'http://[fe80::1%25eth0]', M.urlIpAddressInvalid],
    ['a missing closing bracket', 'http://[::1', M.urlIpAddressInvalid],
    ['junk after the closing bracket', 'http://[::1]x', M.urlIpAddressInvalid],
    ['empty brackets', 'http://[]', M.urlIpAddressInvalid],
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
