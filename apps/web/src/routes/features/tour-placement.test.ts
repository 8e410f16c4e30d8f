import { describe, expect, it } from 'vitest';
import { placeTourCard, type Box } from './tour-placement';

const CARD = { width: 320, height: 170 };
const SMALL = { width: 1024, height: 700 };
const overlaps = (a: Box, b: Box) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('where the guided tour puts its card', () => {
  it('beside a sidebar item, never on it', () => {
    const item = { top: 130, left: 16, width: 51, height: 44 };
    const card = placeTourCard(item, CARD, SMALL);
    expect(overlaps(card, item)).toBe(false);
    expect(card.left).toBeGreaterThan(item.left + item.width);
  });

  it('below or above a wide target, inside the window at 1024×700', () => {
    const tabs = { top: 560, left: 400, width: 600, height: 40 };
    const card = placeTourCard(tabs, CARD, SMALL);
    expect(overlaps(card, tabs)).toBe(false);
    expect(card.top + card.height).toBeLessThanOrEqual(SMALL.height);
    expect(card.left + card.width).toBeLessThanOrEqual(SMALL.width);
  });

  it('in the middle of the window without a target', () => {
    expect(placeTourCard(null, CARD, SMALL)).toMatchObject({ left: 352 });
  });
});
