import { describe, expect, it } from 'vitest';
import { isBase32, MASKED_SECRET, maskDeep, maskText, normalizeTotpSecret } from './index.js';

// Issue 46: the server masked a 2-letter secret inside every word ("I open the t**** ****out")
// where the runner left it alone, and the server refused `JBSW-Y3DP-EHPK-3PXP` where the runner
// took it. One rule now, here; server and runner call it (their own tests pin it again).

describe('hiding secrets in reports', () => {
  it('hides a secret of four or more characters wherever it appears', () => {
    expect(maskText('I type hunter2 into the password field', ['hunter2'])).toBe('I type **** into the password field');
    expect(maskText('hunter2hunter2', ['hunter2'])).toBe('********');
  });

  it('leaves a shorter secret inside other words, and hides it where it is the whole value', () => {
    expect(maskText('I open the timeout page', ['me'])).toBe('I open the timeout page');
    expect(maskText('me', ['me'])).toBe('****');
    expect(maskText('1', ['1'])).toBe('****');
    expect(maskText('Step 1 of 12', ['1'])).toBe('Step 1 of 12');
  });

  it('hides a secret that contains another whole, longest first', () => {
    expect(maskText('token abcd-efgh here', ['abcd', 'abcd-efgh'])).toBe('token **** here');
  });

  it('copies a report deeply, strings only, leaving the original alone', () => {
    const report = { steps: [{ text: 'I fill "hunter2"', duration: 12, ok: true }], note: null };
    const masked = maskDeep(report, ['hunter2']);
    expect(masked).toEqual({ steps: [{ text: 'I fill "****"', duration: 12, ok: true }], note: null });
    expect(report.steps[0]!.text).toBe('I fill "hunter2"');
    expect(maskDeep(report, [])).toBe(report);
  });

  it('writes a hidden secret value as the spec shows it', () => {
    expect(MASKED_SECRET).toBe('secret:****');
  });
});

describe('TOTP secrets as apps print them', () => {
  it('takes dashes, spaces, lower case and padding, and keeps the bare base32', () => {
    expect(normalizeTotpSecret('JBSW-Y3DP-EHPK-3PXP')).toBe('JBSWY3DPEHPK3PXP');
    expect(normalizeTotpSecret('jbsw y3dp ehpk 3pxp')).toBe('JBSWY3DPEHPK3PXP');
    expect(normalizeTotpSecret('GEZDGNBVGY3TQOJQ====')).toBe('GEZDGNBVGY3TQOJQ');
  });

  it('tells base32 from what is not', () => {
    expect(isBase32('JBSWY3DPEHPK3PXP')).toBe(true);
    expect(isBase32('JBSWY3DPEHPK3PX1')).toBe(false);
    expect(isBase32('')).toBe(false);
  });
});
