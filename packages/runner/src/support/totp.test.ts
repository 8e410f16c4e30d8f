import { describe, expect, it } from 'vitest';
import { totpCode } from './totp.js';

// RFC 6238 appendix B uses the ASCII secret "12345678901234567890"; this is its base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('totp', () => {
  it('matches the RFC 6238 SHA-1 test vectors (their last six digits)', () => {
    expect(totpCode(RFC_SECRET, 59 * 1000)).toBe('287082');
    expect(totpCode(RFC_SECRET, 1111111109 * 1000)).toBe('081804');
    expect(totpCode(RFC_SECRET, 1234567890 * 1000)).toBe('005924');
    expect(totpCode(RFC_SECRET, 20000000000 * 1000)).toBe('353130');
  });

  it('reads secrets the way authenticator apps print them, and refuses what is not base32', () => {
    expect(totpCode('gezd gnbv gy3t-qojq gezd gnbv gy3t qojq', 59 * 1000)).toBe('287082');
    expect(() => totpCode('not base32!')).toThrow('A TOTP secret must be base32 (letters A-Z and digits 2-7)');
  });
});
