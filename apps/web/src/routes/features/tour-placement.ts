/** Space kept between the card and its target, and between the card and the window's edge. */
const GAP = 16;
const EDGE = 12;

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

/**
 * Where the card goes so that it never covers what it explains: beside the target (right, then
 * below, above, left), kept inside the window; the first of those that fits without touching the
 * target wins, else the one that covers least of it. Without a target, the window's centre.
 */
export function placeTourCard(target: Box | null, card: { width: number; height: number }, view: { width: number; height: number }) {
  const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, Math.max(min, max)));
  const fit = (top: number, left: number): Box => ({
    top: clamp(top, EDGE, view.height - card.height - EDGE),
    left: clamp(left, EDGE, view.width - card.width - EDGE),
    width: card.width,
    height: card.height,
  });
  if (!target) return fit((view.height - card.height) / 3, (view.width - card.width) / 2);
  const ring = { top: target.top - GAP / 2, left: target.left - GAP / 2, width: target.width + GAP, height: target.height + GAP };
  const candidates = [
    fit(target.top, target.left + target.width + GAP),
    fit(target.top + target.height + GAP, target.left),
    fit(target.top - card.height - GAP, target.left),
    fit(target.top, target.left - card.width - GAP),
  ];
  const free = candidates.find((box) => !overlaps(box, ring));
  if (free) return free;
  const covered = (box: Box) =>
    Math.max(0, Math.min(box.left + box.width, ring.left + ring.width) - Math.max(box.left, ring.left)) *
    Math.max(0, Math.min(box.top + box.height, ring.top + ring.height) - Math.max(box.top, ring.top));
  return candidates.reduce((best, box) => (covered(box) < covered(best) ? box : best));
}
