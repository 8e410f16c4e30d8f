import { describe, expect, it } from 'vitest';
import { validInput } from './recorder.sockets.js';

describe('stream input from a cloud recorder client', () => {
  it('takes a press that is part of a single, double or triple click', () => {
    for (const clickCount of [undefined, 1, 2, 3])
      expect(validInput({ kind: 'mouse', type: 'down', x: 10, y: 20, ...(clickCount ? { clickCount } : {}) })).toBe(true);
  });

  it('drops a hostile click count: huge, fractional, negative, zero, a string or an object', () => {
    for (const clickCount of [4, 1e9, 2.5, -1, 0, '2', { valueOf: () => 2 }, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(validInput({ kind: 'mouse', type: 'down', x: 10, y: 20, clickCount })).toBe(false);
    }
  });

  it('drops coordinates out of range and unknown kinds or mouse types', () => {
    expect(validInput({ kind: 'mouse', type: 'down', x: 1e12, y: 0 })).toBe(false);
    expect(validInput({ kind: 'mouse', type: 'down', x: Number.NaN, y: 0 })).toBe(false);
    expect(validInput({ kind: 'mouse', type: 'drag', x: 0, y: 0 })).toBe(false);
    expect(validInput({ kind: 'exec', code: 'process.exit()' })).toBe(false);
    expect(validInput(null)).toBe(false);
  });
});
