import { describe, expect, it } from 'vitest';
import { decodeBase32, hotp, totpCode } from './totp.js';

// RFC 6238 appendix B uses the ASCII secret "12345678901234567890"; this is its base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('totp', () => {
  it('decodes base32 secrets the way authenticator apps print them', () => {
    expect(decodeBase32(RFC_SECRET).toString('ascii')).toBe('12345678901234567890');
    expect(decodeBase32('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')).toEqual(decodeBase32(RFC_SECRET));
    expect(() => decodeBase32('not base32!')).toThrow(/base32/);
  });

  it('matches the RFC 6238 SHA-1 test vectors', () => {
    const key = decodeBase32(RFC_SECRET);
    expect(hotp(key, Math.floor(59 / 30), 8)).toBe('94287082');
    expect(hotp(key, Math.floor(1111111109 / 30), 8)).toBe('07081804');
    expect(hotp(key, Math.floor(20000000000 / 30), 8)).toBe('65353130');
    expect(totpCode(RFC_SECRET, 1234567890 * 1000)).toBe('005924');
  });
});
