import { describe, expect, it } from 'vitest';
import { TestData, mergeRows, rowsForEnvironment, type TestDataFile } from './test-data.js';
import { totpCode } from './totp.js';

const env = { name: 'staging', baseUrl: 'http://shop.test/' };

describe('test data', () => {
  it('loads "*" rows, then the environment rows over them, then a process variable over both', () => {
    const file: TestDataFile = {
      '*': [
        { key: 'user', value: 'everyone', DataType: 'string' },
        { key: 'greeting', value: 'hi', DataType: 'string' },
      ],
      staging: [{ key: 'user', value: 'stager', DataType: 'string' }],
      prod: [{ key: 'user', value: 'producer', DataType: 'string' }],
    };
    const rows = rowsForEnvironment(file, 'staging');
    expect(new TestData(rows, env, {}).resolve('{{user}} says {{greeting}}').value).toBe('stager says hi');
    expect(new TestData(rows, env, { user: 'from-env' }).resolve('{{ user }}').value).toBe('from-env');
  });

  it('resolves env.baseUrl and step parameters, and names an unknown key', () => {
    const data = new TestData([], env, {});
    expect(data.resolve('{{env.baseUrl}}cart.html').value).toBe('http://shop.test/cart.html');
    expect(data.resolve('{{qty}} items', { qty: 3 }).value).toBe('3 items');
    expect(() => data.resolve('{{missing}}')).toThrow('Test data "missing" is not defined for environment "staging"');
  });

  it('shows secrets and totp codes as secret:**** and masked values as mask:****, and redacts them', () => {
    const totpSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const data = new TestData(
      [
        { key: 'password', value: 'hunter2-long', DataType: 'secret' },
        { key: 'otp', value: totpSecret, DataType: 'totp' },
      ],
      env,
      {},
    );
    const password = data.resolve('{{password}}');
    expect(password).toEqual({ value: 'hunter2-long', display: 'secret:****', secret: true });
    const code = data.resolve('{{otp}}');
    expect(code.value).toBe(totpCode(totpSecret));
    expect(code.display).toBe('secret:****');
    expect(data.resolve('mask:1234-5678')).toEqual({ value: '1234-5678', display: 'mask:****', secret: true });
    expect(data.redact(`typed hunter2-long then ${code.value} and 1234-5678`)).toBe('typed **** then **** and ****');
    expect(data.redactDeep({ a: ['x hunter2-long'], n: 1 })).toEqual({ a: ['x ****'], n: 1 });
  });

  it('keeps encrypted workspace secrets unavailable unless a server or the environment supplies them', () => {
    const file: TestDataFile = { '*': [{ key: 'password', value: 'secret:v1:abc', DataType: 'secret' }] };
    const rows = rowsForEnvironment(file, 'staging');
    expect(rows).toEqual([{ key: 'password', value: null, DataType: 'secret' }]);
    expect(() => new TestData(rows, env, {}).resolve('{{password}}')).toThrow(/--server and --token/);
    expect(new TestData(rows, env, { password: 'from-ci' }).resolve('{{password}}').display).toBe('secret:****');
    const merged = mergeRows([{ key: 'password', value: 'plain', DataType: 'secret' }], rows);
    expect(merged[0]!.value).toBe('plain');
  });
});
