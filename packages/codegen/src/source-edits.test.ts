import { describe, expect, it } from 'vitest';
import { applySourceEdits } from './source-edits.js';

describe('source edits', () => {
  it('replaces, removes and inserts by offsets of the original text, whatever order they come in', () => {
    const code = 'const a = 1;\nconst b = 2;\nconst c = 3;\n';
    const b = code.indexOf('const b');
    const c = code.indexOf('3');
    expect(
      applySourceEdits(code, [
        { start: c, end: c + 1, text: '30' },
        { start: b, end: b + 'const b = 2;\n'.length, text: '' },
        { start: 0, end: 0, text: '// top\n' },
      ]),
    ).toBe('// top\nconst a = 1;\nconst c = 30;\n');
  });

  it('leaves every character no edit touches as it was, CRLF and tabs included', () => {
    const code = 'a\r\n\tb\r\n';
    expect(applySourceEdits(code, [{ start: 4, end: 5, text: 'B' }])).toBe('a\r\n\tB\r\n');
    expect(applySourceEdits(code, [])).toBe(code);
  });
});
