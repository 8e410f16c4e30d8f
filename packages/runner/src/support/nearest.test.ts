import { describe, expect, it } from 'vitest';
import { likeness, nearestNames } from './nearest.js';

describe('the nearest names a "not found" message offers', () => {
  const page = [
    { kind: 'button', name: 'Clear completed' },
    { kind: 'link', name: 'Completed' },
    { kind: 'link', name: 'Active' },
    { kind: 'textbox', name: 'What needs to be done?' },
    { kind: 'link', name: 'Completed' },
  ];

  it('offers a typo, a rewording and a shorter name, most alike first, each once', () => {
    expect(nearestNames('Clear complete', page)).toEqual([
      { kind: 'button', name: 'Clear completed' },
      { kind: 'link', name: 'Completed' },
    ]);
    expect(nearestNames('Clear all completed', page)[0]).toEqual({ kind: 'button', name: 'Clear completed' });
    expect(nearestNames('What needs doing?', page)[0]).toEqual({ kind: 'textbox', name: 'What needs to be done?' });
  });

  it('offers nothing unlike the words, and never the words themselves', () => {
    expect(nearestNames('Checkout', page)).toEqual([]);
    expect(nearestNames('Active', page)).toEqual([]);
  });

  it('reads alike names as alike whatever their case and spacing', () => {
    expect(likeness('CLEAR   completed', 'Clear completed')).toBe(1);
    expect(likeness('', 'Clear')).toBe(0);
  });
});
