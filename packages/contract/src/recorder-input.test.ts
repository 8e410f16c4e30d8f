import { describe, expect, it } from 'vitest';
import { RecorderInput } from './recorder.calls.js';

const validInput = (input: unknown) => RecorderInput.safeParse(input).success;

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

  it('drops over-long keys, pastes and URLs, and viewports outside a screen', () => {
    expect(validInput({ kind: 'key', type: 'down', key: 'Enter' })).toBe(true);
    expect(validInput({ kind: 'key', type: 'down', key: 'k'.repeat(33) })).toBe(false);
    expect(validInput({ kind: 'paste', text: 'x'.repeat(100_001) })).toBe(false);
    expect(validInput({ kind: 'navigate', url: `https://example.com/${'a'.repeat(4000)}` })).toBe(false);
    expect(validInput({ kind: 'viewport', width: 1440, height: 900 })).toBe(true);
    expect(validInput({ kind: 'viewport', width: 100, height: 900 })).toBe(false);
    expect(validInput({ kind: 'viewport', width: 1440, height: 9000 })).toBe(false);
  });

  it('passes on only the fields of its kind, so nothing extra reaches the browser', () => {
    expect(RecorderInput.parse({ kind: 'paste', text: 'hi', script: 'alert(1)' })).toEqual({ kind: 'paste', text: 'hi' });
  });
});
