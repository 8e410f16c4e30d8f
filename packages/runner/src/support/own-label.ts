import type { Locator } from 'playwright-core';

/** Where the label covering a control is: pointed at by `for`, or wrapped around the control. */
type Covering = { for: string } | { wraps: true } | null;

/** The little of the DOM the check below uses (the runner compiles without the DOM's types). */
interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
  width: number;
  height: number;
}
interface DomElement {
  id: string;
  labels?: ArrayLike<DomElement> | null;
  getBoundingClientRect(): Box;
  contains(other: DomElement): boolean;
  closest(selector: string): DomElement | null;
  getAttribute(name: string): string | null;
  scrollIntoView(options: { block: string; inline: string }): void;
}
interface DomWindow {
  innerWidth: number;
  innerHeight: number;
  document: { elementFromPoint(x: number, y: number): DomElement | null };
}

/** Elements that may have a label (HTML's labelable elements), inside a label or with an id. */
const MAY_HAVE_LABEL = ':is(input, select, textarea, button, meter, output, progress):is(label *, [id])';

/**
 * What a person clicks to click `target`: the control's own label when that label covers it (a
 * custom checkbox drawn by its own `<label>` over the input, a switch whose input sits under its
 * text), else `target`. Playwright's click on a covered input waits for a target that never comes
 * ("<label …> intercepts pointer events"); clicking a control's label is what the browser defines
 * as clicking the control, so acting on the label is no guess. Anything else covering the control
 * (a backdrop left open) is left to fail the click.
 */
export async function clickable(target: Locator): Promise<Locator> {
  // Only a labelable element inside a label or with an id (a `for` can name only an id) can have
  // a label: a cheap query rules the rest out (links, most buttons) before the check below, whose
  // evaluation in the page's main world cost ~7 ms of CPU a click (issue 48's bench).
  if (
    (await target
      .and(target.page().locator(MAY_HAVE_LABEL))
      .count()
      .catch(() => 1)) === 0
  )
    return target;
  // No named functions inside: the loader that runs support code names them with a helper the page lacks.
  const covering = await target
    .evaluate((element: DomElement): Covering => {
      const { innerWidth, innerHeight, document } = globalThis as unknown as DomWindow;
      const labels = element.labels ? Array.from(element.labels) : [];
      if (labels.length === 0) return null;
      let r = element.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return null;
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
        element.scrollIntoView({ block: 'center', inline: 'center' });
        r = element.getBoundingClientRect();
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || hit === element || element.contains(hit)) return null;
      const label = hit.closest('label');
      if (!label || !labels.includes(label)) return null;
      if (label.contains(element)) return { wraps: true };
      return element.id && label.getAttribute('for') === element.id ? { for: element.id } : null;
    })
    .catch(() => null);
  if (!covering) return target;
  const label =
    'wraps' in covering ? target.locator('xpath=ancestor::label[1]') : target.page().locator(`label[for=${JSON.stringify(covering.for)}]`);
  return label.filter({ visible: true }).first();
}
