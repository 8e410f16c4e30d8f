import { describe, expect, it } from 'vitest';
import { inSubmittedOrder } from './row-order';

const row = (key: string, environment: string) => ({ key, environment, value: 'v', DataType: 'string' as const });

describe('saved test data keeps the order the user had', () => {
  it('puts rows grouped by environment back in the submitted order', () => {
    const submitted = [row('user', '*'), row('password', 'staging'), row('otp', '*')];
    const saved = [row('user', '*'), row('otp', '*'), row('password', 'staging')];
    expect(inSubmittedOrder(saved, submitted).map((r) => r.key)).toEqual(['user', 'password', 'otp']);
  });

  it('matches rows the server trimmed, and keeps rows it did not get from the user last, in its order', () => {
    const submitted = [row(' b ', 'prod '), row('a', '*')];
    const saved = [row('z', '*'), row('a', '*'), row('b', 'prod'), row('y', '*')];
    expect(inSubmittedOrder(saved, submitted).map((r) => r.key)).toEqual(['b', 'a', 'z', 'y']);
  });
});
