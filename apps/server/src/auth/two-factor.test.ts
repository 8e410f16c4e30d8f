import { adminCalls, authCalls } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../mail/totp.js';
import { failure, signUp, startTestApp, testBackends, TEST_PASSWORD, type TestApp } from '../testing/test-app.js';

const REQUIRED = 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.';
const INVALID = 'That code is not right, or was already used. Enter the current 6-digit code, or an unused recovery code.';

describe.each(testBackends())('two-factor sign-in on %s', (backend) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(backend, { SIGNIN_LOCKOUT_AFTER: '4' });
  });
  afterAll(async () => test?.close());

  let address = 0;
  const login = (email: string, code?: string, password = TEST_PASSWORD, from?: string) => {
    address += 1;
    return test.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: from ?? `198.51.100.${address}`,
      payload: { email, password, ...(code === undefined ? {} : { code }) },
    });
  };
  /** Signs up and turns two-factor on; answers the secret and the recovery codes. */
  async function enrolled(email: string) {
    const user = await signUp(test, { email });
    const begun = await user.api.call(authCalls.twoFactorBegin);
    const { recoveryCodes } = await user.api.call(authCalls.twoFactorEnable, { body: { code: totpCode(begun.secret).code } });
    return { user, secret: begun.secret, recoveryCodes };
  }

  it('enrols with a QR code and a first code, and answers ten recovery codes once', async () => {
    const user = await signUp(test, { email: 'enrol@acme.test' });
    expect(await user.api.call(authCalls.twoFactorStatus)).toEqual({ status: true, enabled: false, recoveryCodesLeft: 0 });
    const notBegun = await failure(user.api.call(authCalls.twoFactorEnable, { body: { code: '123456' } }));
    expect([notBegun.httpStatus, notBegun.message]).toEqual([
      400,
      'Start turning on two-factor sign-in first: scan the new QR code, then enter its code.',
    ]);
    const begun = await user.api.call(authCalls.twoFactorBegin);
    expect(begun.otpauthUrl).toBe(
      `otpauth://totp/Rehearse%3Aenrol%40acme.test?secret=${begun.secret}&issuer=Rehearse&algorithm=SHA1&digits=6&period=30`,
    );
    expect(begun.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(Buffer.from(begun.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toMatch(/^<svg/);
    const wrong = String((Number(totpCode(begun.secret).code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await failure(user.api.call(authCalls.twoFactorEnable, { body: { code: wrong } }));
    expect([refused.httpStatus, refused.message]).toEqual([400, INVALID]);
    const { recoveryCodes } = await user.api.call(authCalls.twoFactorEnable, { body: { code: totpCode(begun.secret).code } });
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await user.api.call(authCalls.twoFactorStatus)).toEqual({ status: true, enabled: true, recoveryCodesLeft: 10 });
    const [row] = await test.database.rows<{ totp_secret: string; codes: string }>(
      `select totp_secret, totp_recovery_codes::text as codes from users where email = 'enrol@acme.test'`,
    );
    // Neither the secret nor a recovery code is stored as it was shown.
    expect(row!.totp_secret).not.toContain(begun.secret);
    for (const code of recoveryCodes) expect(row!.codes).not.toContain(code);
    const again = await failure(user.api.call(authCalls.twoFactorBegin));
    expect([again.httpStatus, again.message]).toEqual([409, 'Two-factor sign-in is already on for this account.']);
  });

  it('asks for the code after the right password, takes each code once, and takes a recovery code once', async () => {
    const { user, secret, recoveryCodes } = await enrolled('second@acme.test');
    const asked = await login(user.email);
    expect([asked.statusCode, asked.json().error]).toEqual([401, REQUIRED]);
    // A wrong password still says only that.
    expect((await login(user.email, totpCode(secret).code, 'wrong password')).json().error).toBe('Invalid email or password.');
    const next = totpCode(secret, Date.now() + 30_000).code;
    expect((await login(user.email, next)).statusCode).toBe(200);
    const replayed = await login(user.email, next);
    expect([replayed.statusCode, replayed.json().error]).toEqual([401, INVALID]);
    // A recovery code, typed loosely, works once.
    const recovery = recoveryCodes[3]!;
    expect((await login(user.email, ` ${recovery.toUpperCase().replace('-', ' ')} `)).statusCode).toBe(200);
    expect((await login(user.email, recovery)).json().error).toBe(INVALID);
    expect((await user.api.call(authCalls.twoFactorStatus)).recoveryCodesLeft).toBe(9);
  });

  it('counts wrong codes as failed sign-ins, so guessing codes is throttled like guessing passwords', async () => {
    const { user } = await enrolled('guess-codes@acme.test');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await login(user.email, String(100000 + i), TEST_PASSWORD, '203.0.113.40')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('turns off with a code only, and an administrator can reset it for a user who lost both', async () => {
    const admin = await signUp(test, { email: 'admin-2fa@acme.test' });
    await test.database.execute(`update users set instance_admin = true where email = 'admin-2fa@acme.test'`);
    const { user, secret } = await enrolled('lost-phone@acme.test');
    const noCode = await failure(user.api.call(authCalls.twoFactorDisable, { body: { code: '000000' } }));
    expect([noCode.httpStatus, noCode.message]).toEqual([400, INVALID]);
    const { users } = await admin.api.call(adminCalls.listUsers);
    expect(users.find((one) => one.email === user.email)?.twoFactor).toBe(true);
    const reset = await admin.api.call(adminCalls.resetTwoFactor, { params: { userId: user.user.id } });
    expect(reset.user.twoFactor).toBe(false);
    expect((await login(user.email)).statusCode).toBe(200);
    const notOn = await failure(user.api.call(authCalls.twoFactorDisable, { body: { code: totpCode(secret).code } }));
    expect([notOn.httpStatus, notOn.message]).toEqual([400, 'Two-factor sign-in is not on for this account.']);
    // And the user turns it on and off again themselves.
    const begun = await user.api.call(authCalls.twoFactorBegin);
    await user.api.call(authCalls.twoFactorEnable, { body: { code: totpCode(begun.secret).code } });
    await user.api.call(authCalls.twoFactorDisable, { body: { code: totpCode(begun.secret, Date.now() + 30_000).code } });
    expect((await user.api.call(authCalls.twoFactorStatus)).enabled).toBe(false);
  });
});
