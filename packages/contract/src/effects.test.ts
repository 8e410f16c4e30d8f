import { describe, expect, it } from 'vitest';
import { effectBetween, effectMismatch, effectsFileOf } from './effects.js';

describe('recorded effects', () => {
  const before = ['buy milk', 'feed the cat', '2 items left'];

  it('are the lines that appeared and went', () => {
    expect(effectBetween(before, ['buy milk', 'feed the dog', '2 items left'])).toEqual({
      appeared: ['feed the dog'],
      disappeared: ['feed the cat'],
      kept: ['2 items left'],
    });
  });

  it('hold a replayed step that did the same', () => {
    const expected = { appeared: ['feed the dog'], disappeared: ['feed the cat'] };
    expect(effectMismatch(expected, before, ['buy milk', 'feed the dog', '2 items left', 'Saved'])).toBeUndefined();
  });

  it('refuse a step whose recorded change did not happen', () => {
    expect(effectMismatch({ appeared: ['feed the dog'], disappeared: [] }, before, before)).toBe('“feed the dog” should have appeared');
    expect(effectMismatch({ appeared: [], disappeared: ['feed the cat'] }, before, before)).toBe('“feed the cat” should have gone');
  });

  it('refuse a step that changed a counter the recording saw stay (an edit that added a todo instead)', () => {
    const edit = { appeared: ['feed the dog'], disappeared: [], kept: ['1 item left'] };
    expect(effectMismatch(edit, ['buy milk', '1 item left'], ['buy milk', 'feed the dog', '2 items left'])).toBe(
      '“1 item left” went, which it did not when recorded',
    );
    expect(effectMismatch(edit, ['buy milk', '1 item left'], ['buy milk', 'feed the dog', '1 item left'])).toBeUndefined();
  });

  it('pass the right element on a redesign that reworded what the recording saw', () => {
    const signIn = { appeared: ['Signed in as Dana', 'Sign out'], disappeared: ['Sign in'], kept: ['Cart 0'] };
    expect(effectMismatch(signIn, ['Log in', 'Basket 0'], ['Signed in as Dana', 'Sign out', 'Basket 0'])).toBeUndefined();
  });

  it('let one line of noise pass when the rest of the recorded change happened', () => {
    const check = { appeared: ['1 item left', 'Clear completed'], disappeared: ['2 items left', 'Delete'] };
    expect(effectMismatch(check, ['2 items left', 'Delete'], ['1 item left', 'Clear completed', 'Delete'])).toBeUndefined();
    expect(effectMismatch(check, ['2 items left', 'Delete'], ['2 items left', 'Clear completed', 'Delete'])).toBe(
      '“1 item left” should have appeared',
    );
  });

  it('do not judge what the replay did not have, nor a step that changed nothing when recorded', () => {
    expect(effectMismatch({ appeared: [], disappeared: ['a toast'] }, before, before)).toBeUndefined();
    expect(effectMismatch({ appeared: [], disappeared: [] }, before, ['buy milk'])).toBeUndefined();
  });

  it('live beside the locators, one file per feature', () => {
    expect(effectsFileOf('features/Login.feature')).toBe('features/step_definitions/effects/Login.json');
    expect(effectsFileOf('features/shop/cart.feature')).toBe('features/step_definitions/effects/shop/cart.json');
  });
});
