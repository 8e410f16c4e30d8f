import { workspaceCalls as ws } from '@rehearse/contract';
import { RecordedPagesRepo } from '../../server/src/recorder/recorded-pages.repo.js';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureStrings as S } from '../src/features/scenarios/strings';
import { expectAccessible, screenshotAtSizes, startHarness, type Account, type Harness } from './support/harness';
import { FeaturesPageModel } from './pages/features.page';

const CART = 'Scenario: Add a mug\n  Given I open "/"\n';

const STEPS = `import { When } from '@cucumber/cucumber';

When('I add {string} to the cart', async function () {});
`;

/**
 * Editor help in Chromium against the real server: the Steps reference page, step completion in
 * the Gherkin editor (built-in and the project's own steps), and undefined steps underlined with
 * "did you mean" and a button that puts the suggestion in place.
 */
describe('step help in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let f: FeaturesPageModel;

  beforeAll(async () => {
    h = await startHarness();
    ada = await h.signUp('Ada');
    const projectId = ada.projectId;
    await ada.api.call(ws.pushScenario, { body: { projectId, name: 'cart', data: CART } });
    await ada.api.call(ws.uploadMjs, { body: { projectId, files: [{ name: 'cart.mjs', content: STEPS }] } });
    ({ context, page } = await h.open(ada));
    f = new FeaturesPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  const scenarios = async () => (await ada.api.call(ws.getFeatureList, { body: { projectId: ada.projectId } })).features[0]!.scenarios;

  /** The plain-English dialog opened from a scenario of the features page, named `name`; `before` counts the feature's scenarios. */
  const openPlainEnglish = async (name: string) => {
    await page.goto(`/${ada.projectId}/features`);
    await f.openScenario('Add a mug');
    const before = (await scenarios()).length;
    await page.getByRole('button', { name: S.newScenario }).first().click();
    const dialog = page.getByTestId('create-scenario-dialog');
    await dialog.getByRole('button', { name: new RegExp(S.createPlain) }).click();
    await dialog.getByLabel(S.scenarioNameLabel).fill(name);
    return { dialog, before };
  };

  it('lists every built-in step with its parameters and an example, the project’s own steps, and filters them', async () => {
    await page.goto(`/${ada.projectId}/steps-reference`);
    await page.getByRole('heading', { name: 'Steps reference', level: 1 }).waitFor();
    await page.getByText('I add "text" to the cart').waitFor();
    const entries = page.getByTestId('reference-step');
    const all = await entries.count();
    expect(all).toBeGreaterThanOrEqual(45);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'steps' }).innerText()).toBe(`${all} steps`);
    const doubleClick = entries.filter({ hasText: 'I double-click "element"' });
    expect(await doubleClick.innerText()).toContain('Example: I double-click "feed the cat"');
    await expectAccessible(page, 'steps reference');
    await screenshotAtSizes(page, 'steps-reference');

    // The storage steps read as a person writes them: the storage word unquoted, each value its own name.
    await page.getByRole('searchbox', { name: 'Search steps' }).fill('storage');
    await expect
      .poll(() => entries.allInnerTexts())
      .toContainEqual(expect.stringContaining('I set the local storage item "key" to "value"'));
    await screenshotAtSizes(page, 'steps-reference-storage');

    await page.getByRole('searchbox', { name: 'Search steps' }).fill('drag');
    await expect.poll(() => entries.allInnerTexts()).toEqual([expect.stringContaining('I drag "element" to "element"')]);
    await page.getByRole('searchbox', { name: 'Search steps' }).fill('juggle');
    await page.getByText('No step matches “juggle”.').waitFor();
  });

  it('completes a step from the built-in steps and the project’s own, with the cursor in the first value', async () => {
    await page.goto(`/${ada.projectId}/features`);
    await f.openScenario('Add a mug');
    await page.getByRole('button', { name: S.edit, exact: true }).click();
    await f.gherkin().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\n  When I doub');
    await page.keyboard.type('l');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await expect.poll(() => options.first().innerText()).toContain('I double-click "element"');
    // Picked with the pointer. Enter right after the poll broke the line in CI twice: CodeMirror's
    // acceptCompletion ignores keys for `interactionDelay` (75 ms) after the list opens, so a fast
    // typist's Enter is not taken as a pick. The poll can see the list inside those 75 ms.
    await options.filter({ hasText: 'I double-click "element"' }).first().click();
    await page.keyboard.type('feed the cat');
    await expect.poll(() => f.gherkinText()).toContain('  When I double-click "feed the cat"');

    await page.keyboard.press('End');
    await page.keyboard.insertText('\n  And I add');
    await page.keyboard.type(' ');
    await expect.poll(() => options.allInnerTexts()).toContainEqual(expect.stringContaining('I add "text" to the cart'));
    await screenshotAtSizes(page, 'step-completion');
    await page.keyboard.press('Escape');
  });

  it('underlines an undefined step, says what it may have meant, and puts the suggestion in place', async () => {
    await f.replaceEditorText(
      'gherkin-editor',
      'Scenario: Add a mug\n  Given I open "/"\n  When I clicks on "Add to cart"\n  Then the moon is full\n',
    );
    const list = page.getByTestId('undefined-steps');
    await expect.poll(() => list.innerText()).toContain('Line 3');
    expect(await list.innerText()).toContain('Undefined step. Did you mean “I click "Add to cart"”?');
    expect(await list.innerText()).toContain('Undefined step: no step of this project or of the built-in steps matches it.');
    expect(await page.getByTestId('gherkin-editor').locator('.cm-lintRange-warning').count()).toBe(2);
    await expectAccessible(page, 'gherkin editor with undefined steps');
    await screenshotAtSizes(page, 'undefined-steps');

    await list.getByRole('button', { name: 'Use “I click "Add to cart"”' }).click();
    await expect.poll(() => f.gherkinText()).toContain('  When I click "Add to cart"');
    await expect.poll(async () => (await list.innerText()).includes('Line 3')).toBe(false);
    expect(await list.innerText()).toContain('Line 4');
    await list.getByRole('link', { name: 'Steps reference' }).waitFor();
  });

  it('asks about plain-English lines no step reads, with candidates, saves nothing until each reads, then saves', async () => {
    const { dialog, before } = await openPlainEnglish('Dance');
    const flow = dialog.getByLabel(S.plainStepsLabel);
    await flow.fill('open the shop\nI tapp "Add to cart"\ndance a little jig\nopen "https://elsewhere.example/help"');
    await dialog.getByRole('button', { name: S.create }).click();
    const questions = dialog.getByRole('region', { name: '3 lines need your answer before anything is created' });
    await questions.waitFor();
    // Every line is shown: what the readable one became, and a question for each of the others.
    expect(await questions.innerText()).toContain('reads as Given I open "/"');
    const tapp = questions.getByRole('group', { name: 'I tapp "Add to cart"' });
    expect(await tapp.innerText()).toContain('Did you mean:');
    expect(await tapp.getByRole('button').allInnerTexts()).toContain('I click "Add to cart"');
    expect(await questions.getByRole('group', { name: 'dance a little jig' }).innerText()).toBe(
      'No step comes close. Rephrase this line in the box above, or look up the words in the Steps reference.',
    );
    // A line that reads but leaves the project's environments is asked about too, saying why.
    const elsewhere = questions.getByRole('group', { name: 'open "https://elsewhere.example/help"' });
    expect(await elsewhere.innerText()).toContain(
      'This line opens elsewhere.example, a site outside this project’s environments. Open the page under the environment instead, or write the step in Gherkin to test another site.',
    );
    expect(await elsewhere.getByRole('button').allInnerTexts()).toEqual(['I open "/help"']);
    await expectAccessible(page, 'plain-English questions');
    await screenshotAtSizes(page, 'plain-english-question');
    expect(await scenarios()).toHaveLength(before);

    // One click puts the step in the line; the last line is rephrased by hand.
    await tapp.getByRole('button', { name: 'I click "Add to cart"' }).click();
    await expect
      .poll(() => flow.inputValue())
      .toBe('open the shop\nI click "Add to cart"\ndance a little jig\nopen "https://elsewhere.example/help"');
    const left = dialog.getByRole('region', { name: '2 lines need your answer before anything is created' });
    expect(await left.innerText()).toContain('Picked: the line now reads as this step. I click "Add to cart"');
    await flow.fill('open the shop\nI click "Add to cart"\nI should see "Added to your cart"');
    await dialog.getByRole('button', { name: S.create }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = await scenarios();
    expect(saved).toHaveLength(before + 1);
    expect(saved.map((scenario) => scenario.name)).toContain('Dance');
    await screenshotAtSizes(page, 'plain-english-saved');
    await expect.poll(() => f.gherkinText()).toContain('Then I should see "Added to your cart"');
  });

  it('shows how the app’s map read a line before saving it, then saves what it showed', async () => {
    // The shop's start page in the project's map, as a recording leaves it (the page's own ARIA snapshot).
    const shop = `${h.base}/demo-shop/`;
    await ada.api.call(ws.pushEnv, { body: { projectId: ada.projectId, name: 'shop', data: { baseUrl: shop } } });
    const { page: shopPage } = await h.open(ada);
    await shopPage.goto(shop);
    await shopPage.getByText('Enamel Camp Mug').first().waitFor();
    const ariaSnapshot = await shopPage.locator('body').ariaSnapshot();
    await shopPage.context().close();
    await new RecordedPagesRepo(h.test.database.db).remember(
      ada.projectId,
      [{ path: '/demo-shop/', url: shop, title: 'Trailhead Supply', ariaSnapshot }],
      [],
    );
    const { dialog, before } = await openPlainEnglish('Find the mug');
    await dialog.getByLabel(S.plainStepsLabel).fill('open the shop\ntype "mug" into the find box\nI should see "Enamel Camp Mug"');
    await dialog.getByRole('button', { name: S.create }).click();
    const reading = dialog.getByRole('region', {
      name: 'Some lines name what the app shows. Check how they read, then press Create again.',
    });
    await reading.waitFor();
    expect(await reading.innerText()).toContain(
      'Read against the app: No field of this page on the app’s map is named “find”: this uses the field “Search products”, the page’s only one.',
    );
    expect(await reading.innerText()).toContain('reads as When I type "mug" into "Search products"');
    await expectAccessible(page, 'plain-English reading against the map');
    await screenshotAtSizes(page, 'plain-english-map-reading');
    // Nothing is saved until the reading was seen; Create again saves exactly what was shown.
    expect(await scenarios()).toHaveLength(before);
    await dialog.getByRole('button', { name: S.create }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await scenarios()).map((scenario) => scenario.name)).toContain('Find the mug');
    await expect.poll(() => f.gherkinText()).toContain('When I type "mug" into "Search products"');
    await screenshotAtSizes(page, 'plain-english-map-saved');
  });
});
