import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecorderSession } from '../session.js';
import { startPlainApp } from '../testing/targets.js';
import { LocalPanel, PANEL_LABELS, type PublishNames } from './local-panel.js';

/** The panel follows the recording through a binding round trip; on a loaded machine that takes a while. */
const PANEL_POLL = { timeout: 15_000, interval: 50 };

/** The panel's parts, found the way a person finds them: by role and name inside the panel. */
function panelOf(page: Page) {
  const panel = page.locator('#rehearse-recorder-panel').getByRole('complementary', { name: PANEL_LABELS.title });
  return {
    panel,
    steps: panel.getByRole('list', { name: PANEL_LABELS.steps }).getByRole('listitem'),
    button: (name: string): Locator => panel.getByRole('button', { name, exact: true }),
    feature: panel.getByLabel(PANEL_LABELS.featureName),
    scenario: panel.getByLabel(PANEL_LABELS.scenarioName),
  };
}

describe('the local recorder panel inside the recorded page', () => {
  let app: Awaited<ReturnType<typeof startPlainApp>>;
  let session: RecorderSession;
  const publishes: PublishNames[] = [];

  beforeAll(async () => {
    app = await startPlainApp();
    const panel = new LocalPanel({
      featureName: 'Roster',
      scenarioName: '',
      features: async () => ['Roster', 'Billing'],
      // Refuses as the server does a name it will not take, so the panel's error line shows.
      publish: async (names) => {
        publishes.push(names);
        throw new Error('Feature name must not contain ?');
      },
    });
    session = await RecorderSession.start({
      url: app.baseUrl,
      baseUrl: app.baseUrl,
      viewport: { width: 1280, height: 800 },
      headless: true,
      panel,
    });
  });
  afterAll(async () => {
    await session?.close();
    await app?.app.close();
  });

  it('shows steps live, records nothing of its own clicks and typing, undoes, asserts the next clicked element, and survives a reload', async () => {
    const page = session.activePage;
    const ui = panelOf(page);
    await expect.poll(() => ui.steps.allTextContents(), PANEL_POLL).toEqual(['Open /']);
    // The page counts the clicks and keys its own document listeners see.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      for (const type of ['click', 'keydown', 'pointerdown']) document.addEventListener(type, (event) => seen.push(event.type));
    });

    await page.getByLabel('Member name').click();
    await page.keyboard.type('Ada');
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect
      .poll(() => ui.steps.allTextContents(), PANEL_POLL)
      .toEqual(['Open /', 'Fill “Member name” with “Ada”', 'Click “Add member”']);
    const seenByPage = await page.evaluate(() => (window as unknown as { seen: string[] }).seen.length);

    // Typing names and pressing keys in the panel is not part of the recording, nor of the page.
    await ui.scenario.click();
    await page.keyboard.type('Add Ada');
    await page.keyboard.press('Tab');
    await ui.button(PANEL_LABELS.undo).click();
    await expect.poll(() => ui.steps.allTextContents(), PANEL_POLL).toEqual(['Open /', 'Fill “Member name” with “Ada”']);
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen.length)).toBe(seenByPage);

    // Add assertion → Visible, then the next click on the page is the assertion, not a click.
    await ui.button(PANEL_LABELS.assertVisible).click();
    await expect.poll(() => ui.button(PANEL_LABELS.assertVisible).getAttribute('aria-pressed'), PANEL_POLL).toBe('true');
    await page.getByRole('heading', { name: 'Team roster' }).click();
    await expect
      .poll(() => ui.steps.allTextContents(), PANEL_POLL)
      .toEqual(['Open /', 'Fill “Member name” with “Ada”', '“Team roster” is visible']);
    await expect.poll(() => ui.button(PANEL_LABELS.assertVisible).getAttribute('aria-pressed'), PANEL_POLL).toBe('false');
    expect(session.commands.map((c) => c.type)).toEqual(['navigate', 'fill', 'verifyVisible']);
    expect(session.commands.at(-1)!.element!.locators[0]).toEqual({ kind: 'role', role: 'heading', name: 'Team roster', exact: true });

    // Not part of the page: its ARIA snapshot (the application memory) and its styles.
    expect(await page.locator('body').ariaSnapshot()).not.toContain(PANEL_LABELS.title);
    await page.addStyleTag({ content: 'button { color: rgb(255, 0, 0) !important; display: none !important }' });
    await expect(ui.button(PANEL_LABELS.undo).evaluate((b) => getComputedStyle(b).color)).resolves.not.toBe('rgb(255, 0, 0)');
    expect(await ui.button(PANEL_LABELS.undo).isVisible()).toBe(true);

    // A new document gets a new panel with the same steps and the names typed so far.
    await page.reload();
    await expect
      .poll(() => panelOf(page).steps.allTextContents(), PANEL_POLL)
      .toEqual(['Open /', 'Fill “Member name” with “Ada”', '“Team roster” is visible']);
    await expect.poll(() => panelOf(page).scenario.inputValue(), PANEL_POLL).toBe('Add Ada');
    await expect.poll(() => panelOf(page).feature.inputValue(), PANEL_POLL).toBe('Roster');
    expect(session.commands).toHaveLength(3);
  });

  it('publishes under the typed names and shows the refusal when publishing fails', async () => {
    const ui = panelOf(session.activePage);
    await ui.feature.fill('Bad?Name');
    await ui.button(PANEL_LABELS.publish).click();
    await expect.poll(() => ui.panel.getByRole('alert').textContent(), PANEL_POLL).toBe('Feature name must not contain ?');
    expect(publishes).toEqual([{ featureName: 'Bad?Name', scenarioName: 'Add Ada' }]);
    expect(session.commands).toHaveLength(3);
  });

  it('records the address at once with URL, and whether a checkbox is ticked with Checked', async () => {
    const page = session.activePage;
    const ui = panelOf(page);
    await ui.button('URL').click();
    await expect.poll(async () => (await ui.steps.allTextContents()).at(-1), PANEL_POLL).toBe('URL contains “/”');
    await ui.button('Checked').click();
    await expect.poll(() => ui.button('Checked').getAttribute('aria-pressed'), PANEL_POLL).toBe('true');
    await page.getByText('Team lead', { exact: true }).click();
    await expect.poll(async () => (await ui.steps.allTextContents()).at(-1), PANEL_POLL).toBe('“Team lead” is not checked');
    // The click made an assertion, not a tick.
    expect(await page.getByLabel('Team lead').isChecked()).toBe(false);
    if (process.env.WEB_SCREENSHOTS === '1') {
      for (const size of [
        { width: 1440, height: 900 },
        { width: 1024, height: 700 },
      ]) {
        await page.setViewportSize(size);
        await page.waitForTimeout(200);
        await page.screenshot({ path: `/tmp/rec-local-panel-${size.width}.png` });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // Both assertions undone: the next test counts the recording's steps.
    await ui.button(PANEL_LABELS.undo).click();
    await ui.button(PANEL_LABELS.undo).click();
    await expect.poll(() => session.commands.length, PANEL_POLL).toBe(3);
  });

  it('takes the element clicked straight after Checked as the assertion, however slowly the recorder answers the button', async () => {
    const page = session.activePage;
    const ui = panelOf(page);
    // A busy machine: the recorder takes a second and a half to pass the button on to the page.
    const assertNext = session.assertNext.bind(session);
    let answered: Promise<void> | undefined;
    session.assertNext = (...args) => (answered = new Promise((resolve) => setTimeout(resolve, 1_500)).then(() => assertNext(...args)));
    try {
      // A person does not wait for the button to light up before clicking the box.
      await ui.button('Checked').click();
      await page.getByText('Team lead', { exact: true }).click();
      await expect.poll(async () => (await ui.steps.allTextContents()).at(-1), PANEL_POLL).toBe('“Team lead” is not checked');
      expect(await page.getByLabel('Team lead').isChecked()).toBe(false);
      expect(session.commands.map((c) => c.type)).toEqual(['navigate', 'fill', 'verifyVisible', 'verifyChecked']);
      // The recorder's late answer does not arm the page again: the next click on the box ticks it.
      await answered;
      await page.getByText('Team lead', { exact: true }).click();
      await expect.poll(async () => (await ui.steps.allTextContents()).at(-1), PANEL_POLL).toBe('Check “Team lead”');
    } finally {
      session.assertNext = assertNext;
    }
    await ui.button(PANEL_LABELS.undo).click();
    await ui.button(PANEL_LABELS.undo).click();
    await expect.poll(() => session.commands.length, PANEL_POLL).toBe(3);
  });

  it('folds and drags out of the way, keeps its place on the next page, and records none of it', async () => {
    const page = session.activePage;
    const ui = panelOf(page);
    const start = (await ui.panel.boundingBox())!;
    expect(start.x + start.width).toBeGreaterThan(1200);
    await ui.button(PANEL_LABELS.hide).click();
    expect(await ui.button(PANEL_LABELS.undo).isVisible()).toBe(false);
    await ui.button(PANEL_LABELS.show).click();
    expect(await ui.button(PANEL_LABELS.undo).isVisible()).toBe(true);

    const title = ui.panel.getByRole('heading', { name: PANEL_LABELS.title });
    const grip = (await title.boundingBox())!;
    await page.mouse.move(grip.x + 5, grip.y + 5);
    await page.mouse.down();
    await page.mouse.move(40, 60, { steps: 5 });
    await page.mouse.up();
    const moved = (await ui.panel.boundingBox())!;
    expect([Math.round(moved.x) < 100, Math.round(moved.y) < 100]).toEqual([true, true]);
    await page.reload();
    await expect.poll(async () => Math.round((await panelOf(page).panel.boundingBox())?.x ?? -1), PANEL_POLL).toBe(Math.round(moved.x));
    expect(session.commands).toHaveLength(3);
  });
});
