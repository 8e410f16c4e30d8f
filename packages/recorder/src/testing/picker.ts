import type { Locator, Page } from 'playwright-core';

/**
 * Picks `target` for an assertion as a person does when something lies over it (a filter bar
 * over a counter): points at it, presses ArrowDown until the recorder's outline sits on it, and
 * clicks. Playwright's own click would refuse, because the overlay takes the pointer.
 */
export async function pickBeneath(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('The element to pick is not on screen');
  const x = box.x + Math.min(box.width / 2, 20);
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  const outline = page.locator('[data-rehearse-ui="picker"]');
  const onTarget = async () => {
    const shown = await outline.boundingBox();
    return (
      shown !== null &&
      Math.abs(shown.x - box.x) < 1 &&
      Math.abs(shown.y - box.y) < 1 &&
      Math.abs(shown.width - box.width) < 1 &&
      Math.abs(shown.height - box.height) < 1
    );
  };
  for (let step = 0; step < 8 && !(await onTarget()); step++) await page.keyboard.press('ArrowDown');
  if (!(await onTarget())) throw new Error('ArrowDown never outlined the element to pick');
  await page.mouse.click(x, y);
}
