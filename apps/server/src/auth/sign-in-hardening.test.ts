import { authCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../crypto/tokens.js';
import { failure, signUp, startTestApp, testBackends, TEST_PASSWORD, type TestApp } from '../testing/test-app.js';

const signupBody = (email: string) => ({ email, password: TEST_PASSWORD, firstname: 'Sam', lastname: 'Tester' });

async function counts(test: TestApp): Promise<{ users: number; projects: number; sessions: number }> {
  const [row] = await test.database.rows<{ users: number; projects: number; sessions: number }>(
    `select (select count(*) from users)::int as users, (select count(*) from projects)::int as projects,
            (select count(*) from sessions)::int as sessions`,
  );
  return row!;
}

describe.each(testBackends())('sign-up policy on %s', (backend) => {
  const apps: TestApp[] = [];
  afterAll(async () => Promise.all(apps.map((test) => test.close())));
  async function start(env: Record<string, string>): Promise<TestApp> {
    const test = await startTestApp(backend, env);
    apps.push(test);
    return test;
  }

  it('by default lets the first user in as instance administrator, then only the invited', async () => {
    // SIGNUP left unset: the product default, not the harness's "open".
    const test = await start({ SIGNUP: '' });
    const first = await signUp(test, { email: 'founder@acme.test' });
    expect((await first.api.call(authCalls.me)).user.instanceAdmin).toBe(true);

    const before = await counts(test);
    const refused = await failure(test.client().call(authCalls.signup, { body: signupBody('walk-in@acme.test') }));
    expect([refused.httpStatus, refused.message]).toEqual([
      403,
      'Sign-up on this server needs an invitation. Ask a project admin to invite this email address.',
    ]);
    expect(await counts(test)).toEqual(before);

    await first.api.call(authCalls.createInvitation, { body: { project_id: first.projectId, sent_to_email_list: ['invited@acme.test'] } });
    const invited = await signUp(test, { email: 'invited@acme.test' });
    expect((await invited.api.call(authCalls.me)).user.instanceAdmin).toBe(false);
  });

  it('under domains:<list> admits the listed domains and the invited, nobody else', async () => {
    const test = await start({ SIGNUP: 'domains:acme.test, @corp.example' });
    const first = await signUp(test, { email: 'boss@elsewhere.test' });
    expect((await first.api.call(authCalls.me)).user.instanceAdmin).toBe(true);
    await signUp(test, { email: 'a@acme.test' });
    await signUp(test, { email: 'b@CORP.example' });
    const before = await counts(test);
    for (const email of ['c@evil.test', 'd@sub.acme.test', 'e@acme.test.evil.test']) {
      const refused = await failure(test.client().call(authCalls.signup, { body: signupBody(email) }));
      expect([email, refused.httpStatus, refused.message]).toEqual([
        email,
        403,
        'Sign-up on this server needs an invitation or an email address at an allowed domain.',
      ]);
    }
    expect(await counts(test)).toEqual(before);
    await first.api.call(authCalls.createProject, { body: { name: 'Licensed' } });
    const [project] = await test.database.rows<{ id: string }>(`select id from projects where name = 'Licensed'`);
    await test.database.execute(`update projects set licensed = true where id = '${project!.id}'`);
    await first.api.call(authCalls.createInvitation, { body: { project_id: project!.id, sent_to_email_list: ['guest@evil.test'] } });
    await signUp(test, { email: 'guest@evil.test' });
  });

  it('under closed refuses everyone, even on an empty instance, writing nothing', async () => {
    const test = await start({ SIGNUP: 'closed' });
    const refused = await failure(test.client().call(authCalls.signup, { body: signupBody('first@acme.test') }));
    expect([refused.httpStatus, refused.message]).toEqual([403, 'Sign-up is closed on this server. Ask its administrator for an account.']);
    expect(await counts(test)).toEqual({ users: 0, projects: 0, sessions: 0 });
  });

  it('under open admits anyone, and only the first user is instance administrator even when sign-ups race', async () => {
    const test = await start({ SIGNUP: 'open' });
    const racers = await Promise.all(Array.from({ length: 4 }, (_, index) => signUp(test, { email: `racer${index}@any.test` })));
    const admins = await test.database.rows<{ email: string }>('select email from users where instance_admin');
    expect(admins).toHaveLength(1);
    const flags = await Promise.all(racers.map(async (racer) => (await racer.api.call(authCalls.me)).user.instanceAdmin));
    expect(flags.filter(Boolean)).toHaveLength(1);
  });

  it('refuses a SIGNUP value it does not know, naming the variable', async () => {
    await expect(startTestApp(backend, { SIGNUP: 'domains:' })).rejects.toThrow(/Setting SIGNUP is invalid/);
    await expect(startTestApp(backend, { SIGNUP: 'everyone' })).rejects.toThrow(/Setting SIGNUP is invalid/);
  });
});

describe.each(testBackends())('sign-in bursts and password hashing on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    // The real scrypt cost (no tests-only override), a small per-client allowance, and a pool that
    // lets a burst of eight from one client queue (its fair share is the product's four otherwise).
    test = await startTestApp(backend, {
      TEST_ONLY_SCRYPT_LOG_N: '',
      SIGNIN_LOCKOUT_AFTER: '3',
      SIGNIN_LOCKOUT_SECONDS: '30',
      PASSWORD_HASH_PER_CLIENT: '8',
    });
  });
  afterAll(async () => test?.close());

  let address = 0;
  /** A sign-in from a new client address each time, unless `from` names one. */
  const login = (email: string, password: string, from?: string) => {
    address += 1;
    return test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: from ?? `198.51.100.${address}`,
      payload: { email, password },
    });
  };

  it('counts a burst of parallel guesses from one client before checking them, so the burst cannot pass the limit', async () => {
    const user = await signUp(test, { email: 'burst@acme.test' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(user.email, 'guess guess', '203.0.113.77')));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it("hashes new passwords at OWASP's scrypt minimum and upgrades older hashes at sign-in", async () => {
    const user = await signUp(test, { email: 'hash@acme.test' });
    const [fresh] = await test.database.rows<{ password_hash: string }>(`select password_hash from users where id = '${user.user.id}'`);
    expect(fresh!.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);

    // A hash made before the cost was raised (N=2^15) still signs in, and is replaced.
    const old = await hashPassword(TEST_PASSWORD, 15);
    await test.database.execute(`update users set password_hash = '${old}' where id = '${user.user.id}'`);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    const [upgraded] = await test.database.rows<{ password_hash: string }>(`select password_hash from users where id = '${user.user.id}'`);
    expect(upgraded!.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(upgraded!.password_hash).not.toBe(old);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await login(user.email, 'not the password')).statusCode).toBe(401);
  });
});
