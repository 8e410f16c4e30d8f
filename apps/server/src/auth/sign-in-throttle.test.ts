import { adminCalls } from '@rehearse/contract';
import { startEgressProxy, type EgressProxy } from '@rehearse/egress';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../testing/smtp.js';
import { onceAcrossBackends, signUp, startTestApp, testBackends, TEST_PASSWORD, type TestApp } from '../testing/test-app.js';

/** The spec-free sentences these answers carry, pinned literally. */
const ACCOUNT_WAIT = /^Too many failed sign-ins for this account\. Try again in (\d+) seconds\.$/;
const CLIENT_WAIT = /^Too many failed sign-ins from this address\. Try again in (\d+) seconds\.$/;
const INVALID = 'Invalid email or password.';

interface Answer {
  status: number;
  error: string | undefined;
  retryAfter: string | null;
  ms: number;
}

/**
 * Attack tests over real sockets (DESIGN §9): the server listens on loopback behind TRUST_PROXY=1,
 * so each "client" is the address its X-Forwarded-For names, as behind a real reverse proxy.
 */
describe.each(testBackends())('sign-in throttling on %s', (backend) => {
  let test: TestApp;
  let base: string;
  beforeAll(async () => {
    test = await startTestApp(backend, {
      TRUST_PROXY: '1',
      SIGNIN_LOCKOUT_AFTER: '3',
      SIGNIN_CLIENT_LOCKOUT_AFTER: '8',
      SIGNIN_ACCOUNT_GUARD_AFTER: '12',
      SIGNIN_LOCKOUT_SECONDS: '30',
    });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => test?.close());

  async function post(path: string, client: string, body: object): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: string };
    return { status: response.status, error: json.error, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
  }
  const login = (email: string, password: string, client: string) => post('/api/auth/login', client, { email, password });
  /** Moves every throttle row back in time: as if `seconds` had passed. */
  const passTime = (seconds: number) =>
    test.database.execute(
      `update sign_in_throttles set window_started_at = window_started_at - interval '${seconds} seconds',
         blocked_until = blocked_until - interval '${seconds} seconds', signed_in_at = signed_in_at - interval '${seconds} seconds'`,
    );
  const waitOf = (answer: Answer, sentence: RegExp) => {
    const match = sentence.exec(answer.error ?? '');
    if (!match) throw new Error(`not that wait: ${answer.status} ${answer.error}`);
    expect(answer.retryAfter).toBe(match[1]);
    return Number(match[1]);
  };

  it("blocks a client that keeps failing for an account, not the account's owner elsewhere, and backs off", async () => {
    const owner = await signUp(test, { email: 'owner1@acme.test' });
    for (let i = 0; i < 3; i += 1) expect((await login(owner.email, 'wrong password', '203.0.113.1')).error).toBe(INVALID);
    // The stranger's client waits, even with the right password.
    const blocked = await login(owner.email, TEST_PASSWORD, '203.0.113.1');
    expect(blocked.status).toBe(429);
    expect(waitOf(blocked, ACCOUNT_WAIT)).toBeGreaterThan(20);
    expect(waitOf(blocked, ACCOUNT_WAIT)).toBeLessThanOrEqual(30);
    // The owner, from another client, is not.
    expect((await login(owner.email, TEST_PASSWORD, '198.51.100.7')).status).toBe(200);

    // One more failure after the wait doubles it.
    await passTime(31);
    expect((await login(owner.email, 'wrong again', '203.0.113.1')).status).toBe(401);
    const longer = await login(owner.email, 'wrong again', '203.0.113.1');
    expect(waitOf(longer, ACCOUNT_WAIT)).toBeGreaterThan(50);
    expect(waitOf(longer, ACCOUNT_WAIT)).toBeLessThanOrEqual(60);
  });

  it("never stops the owner's sign-in while a stranger tries 100 wrong passwords over an hour", async () => {
    const owner = await signUp(test, { email: 'owner2@acme.test' });
    expect((await login(owner.email, TEST_PASSWORD, '198.51.100.20')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      statuses.push((await login(owner.email, `guess ${i}`, '203.0.113.2')).status);
      await passTime(36);
      if (i % 10 === 9) expect([i, (await login(owner.email, TEST_PASSWORD, '198.51.100.20')).status]).toEqual([i, 200]);
    }
    // The stranger got a handful of guesses checked, not a hundred.
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(checked).toBeLessThan(20);
    // A guess an hour is never blocked: counts start again each hour.
    for (let hour = 0; hour < 3; hour += 1) {
      await passTime(3600);
      expect((await login(owner.email, 'slow guess', '203.0.113.3')).status).toBe(401);
    }
  });

  it('guards an account under a distributed attack against unknown clients only, and an administrator lifts the guard', async () => {
    const admin = await signUp(test, { email: 'admin3@acme.test' });
    await test.database.execute(`update users set instance_admin = true where email = 'admin3@acme.test'`);
    const owner = await signUp(test, { email: 'owner3@acme.test' });
    expect((await login(owner.email, TEST_PASSWORD, '198.51.100.30')).status).toBe(200);
    // Twelve addresses, one guess each: no client is blocked on its own, the account's count is reached.
    for (let i = 0; i < 12; i += 1) expect((await login(owner.email, `spray ${i}`, `192.0.2.${i + 1}`)).status).toBe(401);
    const sprayed = await login(owner.email, 'spray more', '192.0.2.99');
    expect(sprayed.status).toBe(429);
    waitOf(sprayed, ACCOUNT_WAIT);
    // The owner's known client signs in; a client the account never saw waits even with the password.
    expect((await login(owner.email, TEST_PASSWORD, '198.51.100.30')).status).toBe(200);
    expect((await login(owner.email, TEST_PASSWORD, '198.51.100.31')).status).toBe(429);

    const { users } = await admin.api.call(adminCalls.listUsers);
    const listed = users.find((user) => user.email === owner.email)!;
    expect(listed.signInBlock).toMatchObject({ accountWide: true, failures: 12 });
    expect(users.find((user) => user.email === admin.email)!.signInBlock).toBeNull();
    const { user: cleared } = await admin.api.call(adminCalls.clearSignInBlocks, { params: { userId: owner.user.id } });
    expect(cleared.signInBlock).toBeNull();
    expect((await login(owner.email, TEST_PASSWORD, '198.51.100.31')).status).toBe(200);
  });

  it('blocks a client that fails across many accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await login(`someone${i}@acme.test`, 'wrong', '203.0.113.50')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429, 429]);
    const blocked = await login('someone-else@acme.test', 'wrong', '203.0.113.50');
    expect(waitOf(blocked, CLIENT_WAIT)).toBeGreaterThan(0);
    expect((await login('someone-else@acme.test', 'wrong', '203.0.113.51')).status).toBe(401);
  });
});

/**
 * Known and unknown emails, timed over real sockets. Timing is the server's code, not the
 * database's, so once per suite; and with a cheap scrypt (both sides hash at the same cost, so
 * nothing differs but what the code does), which keeps a busy machine's noise below what the
 * comparison must see.
 */
describe.each(testBackends().filter(onceAcrossBackends))('sign-in timing on %s', (backend) => {
  let test: TestApp;
  let base: string;
  beforeAll(async () => {
    test = await startTestApp(backend, { TRUST_PROXY: '1', TEST_ONLY_SCRYPT_LOG_N: '10', SIGNIN_ACCOUNT_GUARD_AFTER: '12' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => test?.close());

  async function login(email: string, password: string, client: string): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email, password }),
    });
    const json = (await response.json()) as { error?: string };
    return { status: response.status, error: json.error, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
  }
  const passTime = (seconds: number) =>
    test.database.execute(`update sign_in_throttles set window_started_at = window_started_at - interval '${seconds} seconds'`);

  it('answers known and unknown emails alike, in status and in time', async () => {
    const known = await signUp(test, { email: 'known@acme.test' });
    const unknown = 'nobody-here@acme.test';
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const statuses: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    // A fresh client each try: the answers are what any one client would see, try after try.
    for (let i = 0; i < 50; i += 1) {
      for (const [kind, email] of [
        ['known', known.email],
        ['unknown', unknown],
      ] as const) {
        const answer = await login(email, 'wrong password', `10.${kind === 'known' ? 1 : 2}.${Math.floor(i / 200)}.${(i % 200) + 1}`);
        times[kind].push(answer.ms);
        statuses[kind].push(answer.status);
      }
      // Below the account guard, which would otherwise make both 429s alike anyway.
      if (i % 10 === 9) await passTime(3600);
    }
    expect(statuses.known).toEqual(statuses.unknown);
    expect(new Set(statuses.known)).toEqual(new Set([401]));
    // Each known try is paired with the unknown try right after it: a pair shares the machine's
    // load of that moment, which on a busy CI drifts by more than the margin between the medians
    // of the two lists (10.7 ms once). An unknown email that skipped the password hash would
    // still stand out in every pair by the hash's whole cost (tens of ms at the test cost).
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const pairedDifferences = times.known.map((known, i) => known - times.unknown[i]!);
    expect(Math.abs(median(pairedDifferences))).toBeLessThan(10);
  });
});

/** A raw HTTP/1.1 exchange through the egress proxy, as step code would make one. */
function throughProxy(proxy: EgressProxy, target: URL, path: string, headers: Record<string, string>, body: string, tunnel: boolean) {
  return new Promise<number>((resolve, reject) => {
    const lines = [
      `POST ${tunnel ? path : new URL(path, target).href} HTTP/1.1`,
      `host: ${target.host}`,
      'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    const request = `${lines.join('\r\n')}\r\n\r\n${body}`;
    const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
    if (!tunnel) {
      const plain = httpRequest({
        host: '127.0.0.1',
        port: proxy.port,
        method: 'POST',
        path: new URL(path, target).href,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      plain.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      plain.on('error', reject);
      plain.end(body);
      return;
    }
    const connect = httpRequest({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: target.host });
    connect.on('connect', (_response, socket) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (/\r\n\r\n/.test(text)) {
          resolve(statusOf(text));
          socket.destroy();
        }
      });
      socket.on('error', reject);
      socket.write(request);
    });
    connect.on('error', reject);
    connect.end();
  });
}

describe.each(testBackends())('job traffic through the egress proxy on %s', (backend) => {
  let test: TestApp;
  let target: URL;
  let proxy: EgressProxy;
  beforeAll(async () => {
    test = await startTestApp(backend, { TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '5' });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    target = new URL(`http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`);
    // The policy jobs get: this server is always allowed.
    proxy = await startEgressProxy({ policy: { allowPrivate: false, alwaysAllow: [{ address: '127.0.0.1', port: Number(target.port) }] } });
  });
  afterAll(async () => {
    await proxy?.close();
    await test?.close();
  });

  const signupBody = (index: number, kind: string) =>
    JSON.stringify({ email: `${kind}${index}@flood.test`, password: TEST_PASSWORD, firstname: 'Flood', lastname: 'Job' });

  it.each([
    ['absolute-form http', false],
    ['a CONNECT tunnel', true],
  ])("limits a job's sign-up flood through %s whatever X-Forwarded-For it claims", async (_how, tunnel) => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      statuses.push(
        await throughProxy(
          proxy,
          target,
          '/api/auth/signup',
          { 'x-forwarded-for': `100.64.${tunnel ? 1 : 2}.${i + 1}` },
          signupBody(i, tunnel ? 'tunnel' : 'plain'),
          tunnel,
        ),
      );
    }
    // The first test's five used the job's allowance for this minute; the second finds none left.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(5);
  });

  it('still believes X-Forwarded-For from a client that is not job traffic (the trusted proxy case)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const response = await fetch(`${target.origin}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.0.${i + 1}` },
        body: signupBody(i, 'direct'),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array(8).fill(200));
  });
});

describe('the password pool', () => {
  it('refuses a one-client burst at once, saying how long to wait, and still serves another client', async () => {
    const test = await startTestApp('pglite', {
      TEST_ONLY_SCRYPT_LOG_N: '',
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_PER_CLIENT: '2',
    });
    try {
      const owner = await signUp(test, { email: 'pool@acme.test' });
      const burst = Array.from({ length: 12 }, (_, index) =>
        test.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          remoteAddress: '203.0.113.9',
          payload: { email: `burst${index}@acme.test`, password: TEST_PASSWORD, firstname: 'Burst', lastname: 'Client' },
        }),
      );
      const other = test.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '198.51.100.9',
        payload: { email: owner.email, password: TEST_PASSWORD },
      });
      const answers = await Promise.all(burst);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, ...Array(10).fill(429)]);
      for (const answer of answers.filter((one) => one.statusCode === 429)) {
        const match = /^The server is busy signing people in\. Try again in (\d+) seconds\.$/.exec(answer.json().error);
        expect(match).not.toBeNull();
        expect(answer.headers['retry-after']).toBe(match![1]);
      }
      expect((await other).statusCode).toBe(200);
      // Nothing was written for a refused sign-up.
      const [row] = await test.database.rows<{ users: number }>(`select count(*)::int as users from users where email like 'burst%'`);
      expect(row!.users).toBe(2);
    } finally {
      await test.close();
    }
  });
});

describe("the owner's warning mail", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let test: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    test = await startTestApp('pglite', { SMTP_URL: smtp.url, SIGNIN_ACCOUNT_GUARD_AFTER: '4' });
  });
  afterAll(async () => {
    await test?.close();
    await smtp?.close();
  });

  const guess = (email: string, address: string) =>
    test.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: address, payload: { email, password: 'not it' } });

  it('tells the owner once when guesses from many clients cross the guard, and nobody for an email without an account', async () => {
    const owner = await signUp(test, { email: 'watched@acme.test', firstname: 'Wanda' });
    for (let i = 0; i < 6; i += 1) await guess(owner.email, `192.0.2.${i + 1}`);
    for (let i = 0; i < 6; i += 1) await guess('no-such-account@acme.test', `192.0.2.${i + 101}`);
    await expect.poll(() => smtp.received.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.map((mail) => mail.to)).toEqual([['watched@acme.test']]);
    const body = smtp.received[0]!.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('Subject: Repeated failed sign-ins on your Rehearse account');
    expect(body).toContain('Hello Wanda,');
  });
});
