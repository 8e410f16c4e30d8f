import { GherkinMessages, Messages, workspaceCalls as ws } from '@rehearse/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureStrings as S } from '../src/features/scenarios/strings';
import {
  expectAccessible,
  expectToast,
  screenshotAtSizes,
  settleAnimations,
  startHarness,
  type Account,
  type Harness,
} from './support/harness';
import { FeaturesPageModel } from './pages/features.page';

const CHECKOUT = `@shop
Feature: checkout

  @smoke
  Scenario: Wave hello
    Given I open "/"
    When I wave at the cashier

  @cart
  Scenario: Fill the cart
    Given I open "/"
    Then I should see "Enamel Camp Mug"

  @cart
  Scenario: Empty the cart
    Given I open "/"
`;

const STEPS = `import { When } from '@cucumber/cucumber';

When('I wave at the cashier', async function () {
  await this.page.mouse.move(1, 1);
});
`;

const SHOTS = process.env.WEB_SCREENSHOTS === '1';
/** WEB_VIEWPORT=1024x700 runs the same journey in a small window (for the screenshots). */
const VIEWPORT = /^(\d+)x(\d+)$/.exec(process.env.WEB_VIEWPORT ?? '');

/**
 * The features page in Chromium against the real server: create a feature and a plain-English
 * scenario, save, run it on the demo shop; rename rules; tags; step code edit → diff → save;
 * Save Anyway; parser errors; unsaved changes; the AI update's honest error; the guided tour.
 */
describe('features page in Chromium', () => {
  let h: Harness;
  let ada: Account;
  let context: BrowserContext;
  let page: Page;
  let f: FeaturesPageModel;
  const shot = async (name: string) => {
    if (!SHOTS) return;
    await settleAnimations(page);
    await page.screenshot({ path: `/tmp/features-${name}-${page.viewportSize()!.width}.png` });
  };

  beforeAll(async () => {
    h = await startHarness({ WORKER_PROCESSES: '1' });
    ada = await h.signUp('Ada');
    const projectId = ada.projectId;
    await ada.api.call(ws.pushEnv, { body: { projectId, name: 'local', data: { baseUrl: `${h.base}/demo-shop/` } } });
    await ada.api.call(ws.updateLastActiveWorkspace, { body: { projectId, env: 'local.json' } });
    ({ context, page } = await h.open(ada, VIEWPORT ? { width: Number(VIEWPORT[1]), height: Number(VIEWPORT[2]) } : undefined));
    f = new FeaturesPageModel(page);
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it("says 'No features found.' once for an empty project", async () => {
    await page.goto(`/${ada.projectId}/features`);
    await page.getByText(S.noFeatures).waitFor();
    // The main panel says it beside New scenario; the empty tree beside it does not repeat it.
    expect(await page.getByText(S.noFeatures).count()).toBe(1);
    await expectAccessible(page, 'features page, empty');
    await shot('empty');
  });

  it('creates a feature and a plain-English scenario in the Gherkin editor, saves it and runs it on the demo shop', async () => {
    await page.getByRole('button', { name: S.newScenario }).first().click();
    const dialog = page.getByTestId('create-scenario-dialog');
    await dialog.getByRole('button', { name: new RegExp(S.createRecorder) }).waitFor();
    await expectAccessible(page, 'create a test scenario');
    await shot('create-modal');
    await dialog.getByRole('button', { name: new RegExp(S.createBdd) }).click();
    await dialog.getByLabel(S.featureNameLabel).fill('Shop smoke');
    await dialog.getByLabel(S.scenarioNameLabel).fill('Home lists products');
    await dialog.getByRole('button', { name: S.create }).click();
    await f.title().filter({ hasText: 'Home lists products' }).waitFor();
    expect(new URL(page.url()).searchParams.get('feature')).toBe('Shop smoke');

    await page.getByRole('button', { name: S.edit, exact: true }).click();
    await f.replaceEditorText(
      'gherkin-editor',
      '@regression\nScenario: Home lists products\n  Given I open "/"\n  And I wait for "4000"\n  Then I should see "Enamel Camp Mug"\n',
    );
    await shot('gherkin-edit');
    await page.getByRole('button', { name: S.save, exact: true }).click();
    await expectToast(page, Messages.changesSaved);
    const stored = await ada.api.call(ws.getFileContent, { query: { projectId: ada.projectId, file_path: 'features/Shop smoke.feature' } });
    expect(stored.content).toContain('Then I should see "Enamel Camp Mug"');
    // Built-in steps need no code.
    await expect.poll(() => page.getByTestId('steps').getByText(S.builtIn, { exact: true }).count()).toBe(3);

    // Each step shows as it runs, with the page the step before it left: the middle step lasts
    // four seconds, long enough to read "Step 2 of 3" beside the thumbnail of the opened shop.
    await page.getByRole('button', { name: S.runScenario, exact: true }).click();
    const middleStep = S.runStep(1, 3, 'And', 'I wait for "4000"');
    const status = page.getByTestId('run-status');
    const thumbnail = page.getByTestId('run-step-screenshot');
    // Everything the status showed until the run ended, in order, so a run that never showed its
    // middle step says what it showed instead (queued, running without steps, an error and why).
    const shown: string[] = [];
    let thumbnailWhileMiddle: { src: string | null; drawn: boolean } | undefined;
    const ended = new RegExp(`^(${S.runPassed}|${S.runFailed}|${S.runError})`);
    const until = Date.now() + 300_000;
    for (;;) {
      const text = (await status.textContent().catch(() => null)) ?? '';
      const title = (await status.getAttribute('title').catch(() => null)) ?? '';
      const seen = title ? `${text} (${title})` : text;
      if (seen && shown.at(-1) !== seen) shown.push(seen);
      if (text.startsWith(middleStep) && !thumbnailWhileMiddle) {
        thumbnailWhileMiddle = {
          src: await thumbnail.getAttribute('src'),
          // The thumbnail is the shop's page, not a blank frame: it has a drawn size.
          drawn: await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth > 0 && image.complete),
        };
        if (SHOTS) {
          const size = page.viewportSize();
          await screenshotAtSizes(page, 'features-live-step');
          if (size) await page.setViewportSize(size);
        }
      }
      if (ended.test(text) || Date.now() > until) break;
      await page.waitForTimeout(100);
    }
    expect(
      shown.some((seen) => seen.startsWith(middleStep)),
      `the status showed: ${JSON.stringify(shown)}`,
    ).toBe(true);
    expect(thumbnailWhileMiddle?.src?.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    expect(thumbnailWhileMiddle?.drawn).toBe(true);
    expect(shown.at(-1), `the status showed: ${JSON.stringify(shown)}`).toMatch(new RegExp(`^${S.runPassed}`));
    expect(await status.getByRole('link', { name: S.viewReport }).count()).toBe(1);
    await shot('run-passed');
    // A first run starts the harness's only worker and its browser: 12 s alone, but in CI beside an
    // image build it took over the default 120 s, so the test waits as long as the run may.
  }, 360_000);

  it('shows a parser error at its line and keeps the text', async () => {
    await page.getByRole('button', { name: S.edit, exact: true }).click();
    await f.replaceEditorText('gherkin-editor', 'Scenario: Home lists products\n  Given a step\n  | a | b |\n  | c |\n');
    await page.getByRole('button', { name: S.save, exact: true }).click();
    await expect.poll(() => page.getByTestId('gherkin-error').textContent()).toMatch(/^Line 4: inconsistent cell count/);
    expect(await page.getByTestId('gherkin-editor').locator('.cm-error-line').count()).toBe(1);
    expect(await f.gherkinText()).toContain('| c |');
  });

  it('asks about unsaved changes on a click outside the editor, in a proper modal', async () => {
    const search = page.getByRole('searchbox', { name: S.searchLabel });
    await search.click();
    const dialog = page.getByRole('alertdialog', { name: S.unsavedTitle });
    await dialog.waitFor();
    // The page behind is hidden from assistive technology while the dialog is open...
    expect(await search.count()).toBe(0);
    await expectAccessible(page, 'unsaved changes dialog');
    // ...focus stays in the dialog whichever way Tab goes...
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="alertdialog"]')))).toBe(true);
    }
    // ...and Escape closes it like Keep editing: the unsaved text is still there.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await search.count()).toBe(1);
    expect(await f.gherkinText()).toContain('| c |');

    await search.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: S.discardChanges }).click();
    await page.getByRole('button', { name: S.edit, exact: true }).waitFor();
    expect(await f.gherkinText()).toContain('Enamel Camp Mug');
  });

  it('filters by tag and search', async () => {
    await ada.api.call(ws.pushFile, {
      body: { projectId: ada.projectId, directory: 'features', file: { name: 'checkout.feature', content: CHECKOUT } },
    });
    await ada.api.call(ws.uploadMjs, { body: { projectId: ada.projectId, files: [{ name: 'shop.mjs', content: STEPS }] } });
    await page.reload();
    await f.tree().waitFor();
    await expect.poll(() => f.scenarioRows().count()).toBe(4);
    await f.tagFilter().selectOption('@cart');
    expect(await f.scenarioNames()).toEqual(['Fill the cart', 'Empty the cart']);
    await f.search().fill('empty');
    expect(await f.scenarioNames()).toEqual(['Empty the cart']);
    await f.search().fill('nothing like this');
    await page.getByText(S.noSearchResults).waitFor();
    await f.search().fill('');
    await f.tagFilter().selectOption('');
    await expect.poll(() => f.scenarioRows().count()).toBe(4);
    // Keyboard: arrows move through the rows, Enter opens a scenario.
    await f.scenarioRows().filter({ hasText: 'Wave hello' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => f.title().textContent()).toBe('Fill the cart');
    expect(new URL(page.url()).searchParams.get('scenario')).toBe('Fill the cart');
    await expectAccessible(page, 'features page');
    await shot('tree');
  });

  it("works the scenario's more menu from the keyboard: opens on the first item, arrows move, Escape gives focus back", async () => {
    const button = page.getByRole('button', { name: S.scenarioActions });
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: S.scenarioActions });
    await menu.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await expect.poll(focused).toBe('Open in code editor');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(S.renameScenario);
    await page.keyboard.press('End');
    await expect.poll(focused).toBe(S.deleteFeature);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Open in code editor');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
    // A click outside closes it too.
    await button.click();
    await menu.waitFor();
    await f.title().click();
    await menu.waitFor({ state: 'detached' });
  });

  it('renames a scenario and a feature with every rule', async () => {
    await f.scenarioAction(S.renameScenario);
    const dialog = page.getByTestId('rename-dialog');
    const input = dialog.getByLabel(S.newName);
    const error = () => dialog.locator('[data-field-error]').textContent();
    const cases: [string, string][] = [
      ['', GherkinMessages.scenarioNameEmpty],
      [' Lead', GherkinMessages.scenarioNameLeadingSpace],
      ['Bad*name?', `${GherkinMessages.charactersNotAllowedPrefix}* ?`],
      ['Fill the cart', GherkinMessages.sameAsOldName],
      ['empty the CART', GherkinMessages.scenarioNameTaken],
      ['x'.repeat(81), GherkinMessages.scenarioNameTooLong],
    ];
    for (const [value, message] of cases) {
      await input.fill(value);
      await expect.poll(error).toBe(message);
    }
    await shot('rename-error');
    await input.fill('Fill the basket (2)');
    await dialog.getByRole('button', { name: S.rename }).click();
    await expect.poll(() => f.title().textContent()).toBe('Fill the basket (2)');
    expect(new URL(page.url()).searchParams.get('scenario')).toBe('Fill the basket (2)');

    await f.scenarioAction(S.renameFeature);
    const featureCases: [string, string][] = [
      ['', GherkinMessages.featureNameEmpty],
      ['Shop (1)', `${GherkinMessages.charactersNotAllowedPrefix}( )`],
      ['checkout', GherkinMessages.sameAsOldName],
      ['shop SMOKE', GherkinMessages.featureNameTaken],
      ['y'.repeat(81), GherkinMessages.featureNameTooLong],
    ];
    for (const [value, message] of featureCases) {
      await input.fill(value);
      await expect.poll(error).toBe(message);
    }
    // A name taken on the server after the page loaded its list: the server refuses the rename and
    // the dialog stays open with both of the catalogue's 'Feature rename' messages (spec 02 §8).
    await ada.api.call(ws.pushScenario, {
      body: { projectId: ada.projectId, name: 'crate', data: 'Scenario: Crate\n  Given I open "/"\n' },
    });
    await input.fill('crate');
    await dialog.getByRole('button', { name: S.rename }).click();
    await expect.poll(error).toBe('Error in renaming feature: Feature with the same name already exists');
    await expectAccessible(page, "rename refused: 'Feature with the same name already exists'");
    const size = page.viewportSize()!;
    await screenshotAtSizes(page, 'feature-rename-clash');
    await page.setViewportSize(size);
    await ada.api.call(ws.deleteFeature, { body: { projectId: ada.projectId, name: 'crate.feature' } });

    await input.fill('basket');
    await dialog.getByRole('button', { name: S.rename }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('feature')).toBe('basket');
    const { features } = await ada.api.call(ws.getFeatureList, { body: { projectId: ada.projectId } });
    expect(features.map((x) => x.name).sort()).toEqual(['Shop smoke.feature', 'basket.feature']);
  });

  it('adds a tag with the Add tag popover and deletes a scenario through the delete dialog', async () => {
    await f.openScenario('Empty the cart');
    await page.getByRole('button', { name: S.addTag }).click();
    await page.getByLabel(S.tagLabel, { exact: true }).fill('checkout');
    await page.getByRole('button', { name: S.addTag }).last().click();
    await page.getByRole('list', { name: 'Tags' }).getByText('@checkout').waitFor();
    await expect.poll(async () => (await f.tagFilter().locator('option').allInnerTexts()).includes('@checkout')).toBe(true);

    await f.scenarioAction(S.deleteScenario);
    const confirm = page.getByTestId('confirm-delete-dialog');
    await confirm.getByText('Empty the cart').first().waitFor();
    await expectAccessible(page, 'delete scenario dialog');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => f.scenarioNames()).not.toContain('Empty the cart');
    const { features } = await ada.api.call(ws.getFeatureList, { body: { projectId: ada.projectId } });
    expect(features.find((x) => x.name === 'basket.feature')?.scenarios.map((sc) => sc.name)).toEqual([
      'Wave hello',
      'Fill the basket (2)',
    ]);
  });

  it("edits a step's code, shows the diff, saves, and the code output follows", async () => {
    await f.openScenario('Wave hello');
    await f.stepButton('I wave at the cashier').click();
    await page.getByRole('button', { name: S.viewCodeButton }).click();
    const dialog = f.stepDialog();
    await dialog.locator('.cm-content').first().waitFor();
    const save = dialog.getByRole('button', { name: S.edit, exact: true });
    await save.click();
    await f.replaceEditorText('step-code-editor', STEPS.replace('move(1, 1)', 'move(2, 2)'));
    await dialog.getByRole('button', { name: S.review }).click();
    await dialog.getByTestId('step-code-diff').locator('.cm-changedLine, .cm-changedText').first().waitFor();
    await expectAccessible(page, 'step code diff');
    await shot('step-diff');
    await dialog.getByRole('button', { name: S.save, exact: true }).click();
    await expectToast(page, Messages.changesSaved);
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: S.viewCode }).click();
    await expect.poll(() => page.getByTestId('code-output').textContent()).toContain('move(2, 2)');
    await shot('code-output');
    // Spec 02 §8: each file's last-generated date, and 'Error fetching date' when it cannot be fetched.
    await expect.poll(() => page.getByTestId('last-generated').first().textContent()).toMatch(/^Last generated /);
    await page.route('**/api/workspace/last-updated', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'down' }) }),
    );
    try {
      await page.reload();
      await page.getByRole('tab', { name: S.viewCode }).click();
      await expect.poll(() => page.getByTestId('last-generated').first().textContent(), { timeout: 30_000 }).toBe('Error fetching date');
      await expectAccessible(page, 'code output, date not fetched');
      const size = page.viewportSize()!;
      await screenshotAtSizes(page, 'code-output-date-error');
      await page.setViewportSize(size);
    } finally {
      await page.unroute('**/api/workspace/last-updated');
    }
    const file = await ada.api.call(ws.getFileContent, {
      query: { projectId: ada.projectId, file_path: 'features/step_definitions/shop.mjs' },
    });
    expect(file.content).toContain('move(2, 2)');
  });

  it("shows the AI step update's server error, never a fake success", async () => {
    // Forced, so the test holds whether or not the AI engine is deployed on this server.
    await page.route('**/api/runs/process-user-request/generate', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'model offline' }) }),
    );
    await page.getByRole('tab', { name: S.viewGherkin }).click();
    await f.stepButton('I wave at the cashier').click();
    await page.getByRole('button', { name: S.viewCodeButton }).click();
    const dialog = f.stepDialog();
    await dialog.getByRole('button', { name: 'Retry step' }).click();
    await expect.poll(() => dialog.getByTestId('ai-banner').textContent()).toBe(`${Messages.aiStepUpdateFailed} (model offline)`);
    expect(await dialog.getByTestId('step-code-diff').count()).toBe(0);
    await page.unroute('**/api/runs/process-user-request/generate');
  });

  it("offers 'Save Anyway' for code with a syntax error", async () => {
    const dialog = f.stepDialog();
    await dialog.getByRole('button', { name: S.edit, exact: true }).click();
    const broken = `${STEPS.replace('move(1, 1)', 'move(2, 2)')}\nWhen('broken' {\n`;
    await f.replaceEditorText('step-code-editor', broken);
    // Discard asks first; keeping on editing loses nothing.
    await dialog.getByRole('button', { name: S.discard, exact: true }).click();
    const ask = page.getByTestId('step-code-confirm');
    await ask.getByText(S.discardText).waitFor();
    // The confirmation is a modal over the code dialog: the code dialog behind is hidden meanwhile.
    expect(await dialog.getByRole('button', { name: S.review }).count()).toBe(0);
    await expectAccessible(page, 'discard step code confirmation');
    await ask.getByRole('button', { name: S.keepEditing }).click();
    expect(await dialog.locator('.cm-line').allInnerTexts()).toContain("When('broken' {");
    await expect.poll(() => dialog.getByTestId('syntax-errors').textContent()).toMatch(/^Syntax error on line/);
    await dialog.getByRole('button', { name: S.review }).click();
    await dialog.getByRole('button', { name: S.save, exact: true }).click();
    const confirm = page.getByTestId('step-code-confirm');
    await confirm.getByRole('button', { name: S.saveAnyway }).waitFor();
    expect(await confirm.getByRole('button', { name: S.backToEditing }).count()).toBe(1);
    await shot('save-anyway');
    await expectAccessible(page, 'save anyway confirmation');
    await confirm.getByRole('button', { name: S.saveAnyway }).click();
    // The previous test's "saved" toast may still be on screen, so the file itself is the proof.
    const stepsFile = () =>
      ada.api.call(ws.getFileContent, { query: { projectId: ada.projectId, file_path: 'features/step_definitions/shop.mjs' } });
    await expect.poll(async () => (await stepsFile()).content).toContain("When('broken' {");
    await expectToast(page, Messages.changesSaved);
    await page.keyboard.press('Escape');
  });

  it('adds a plain-English scenario through the AI engine and shows its error as the server gave it', async () => {
    // Forced, so the test holds whether or not the AI engine is deployed on this server.
    await page.route('**/api/runs/scenarios/scenario-creation', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'engine down' }) }),
    );
    await page.getByRole('button', { name: S.newScenario }).first().click();
    const dialog = page.getByTestId('create-scenario-dialog');
    await dialog.getByRole('button', { name: new RegExp(S.createPlain) }).click();
    await dialog.getByRole('button', { name: S.create }).click();
    await dialog.getByText(S.scenarioNameRequired).waitFor();
    await dialog.getByLabel(S.scenarioNameLabel).fill('Buy a mug');
    await dialog.getByLabel(S.plainStepsLabel).fill('open "/"\nclick "Enamel Camp Mug"');
    await expectAccessible(page, 'plain-English scenario');
    await shot('plain');
    await dialog.getByRole('button', { name: S.create }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(`${Messages.scenarioCreationFailed} engine down`);
    await page.unroute('**/api/runs/scenarios/scenario-creation');
    await page.keyboard.press('Escape');
  });

  it('checks the ideas rules in the add-scenario wizard', async () => {
    await page.route('**/api/runs/scenarios/ideas', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          status: true,
          result: [
            { name: 'Sign in', flow: ['fill "Email" with "{{user}}"'], parameters: { user: 'ada@acme.test' } },
            { name: 'Search', flow: ['fill "Search" with "mug"'], parameters: {} },
          ],
        }),
      }),
    );
    await page.route('**/api/runs/scenarios/scenario-creation', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: false, error: 'engine down' }) }),
    );
    await page.getByRole('button', { name: S.newScenario }).first().click();
    const create = page.getByTestId('create-scenario-dialog');
    await create.getByRole('button', { name: new RegExp(S.createBdd) }).click();
    await create.getByLabel(S.featureLabel).selectOption({ label: S.newFeatureOption });
    await create.getByRole('button', { name: S.useAi }).click();
    const wizard = page.getByTestId('add-scenario-wizard');
    await wizard.getByRole('button', { name: S.wizardGetIdeas }).click();
    await wizard.getByText(S.descriptionRequired).waitFor();
    await wizard.getByLabel(S.featureNameLabel).fill('Accounts');
    await wizard.getByLabel(S.wizardDescribe).fill('sign in and search');
    await wizard.getByRole('button', { name: S.wizardGetIdeas }).click();
    await wizard.getByRole('checkbox', { name: S.wizardSelectIdea('Sign in') }).waitFor();
    await expectAccessible(page, 'add-scenario wizard');
    await shot('wizard');
    const error = () => wizard.getByTestId('wizard-error').textContent();
    await wizard.getByRole('checkbox', { name: S.wizardSelectIdea('Sign in') }).uncheck();
    await wizard.getByRole('checkbox', { name: S.wizardSelectIdea('Search') }).uncheck();
    await wizard.getByRole('button', { name: S.create }).click();
    await expect.poll(error).toBe(Messages.ideasNoneSelected);
    await wizard.getByRole('checkbox', { name: S.wizardSelectIdea('Sign in') }).check();
    await wizard.getByRole('checkbox', { name: S.wizardSelectIdea('Search') }).check();
    await wizard.getByLabel(S.scenarioNameLabel).nth(1).fill('SIGN IN');
    await wizard.getByRole('button', { name: S.create }).click();
    await expect.poll(error).toBe(Messages.scenarioNameExists);
    await wizard.getByLabel(S.scenarioNameLabel).nth(1).fill('Search');
    await wizard.getByLabel(S.wizardParamValue).first().fill('');
    await wizard.getByRole('button', { name: S.create }).click();
    await expect.poll(error).toBe(Messages.ideasFieldsMissing);
    await wizard.getByLabel(S.wizardParamValue).first().fill('ada@acme.test');
    await wizard.getByRole('button', { name: S.create }).click();
    await expect.poll(error).toBe(`${Messages.scenarioCreationFailed} engine down`);
    await page.unroute('**/api/runs/scenarios/ideas');
    await page.unroute('**/api/runs/scenarios/scenario-creation');
    await page.keyboard.press('Escape');
  });

  it('walks the guided tour for a new user and drops newUser at the end', async () => {
    await page.goto(`/${ada.projectId}/features?newUser=1`);
    const tour = page.getByTestId('guided-tour');
    await tour.waitFor();
    await expectAccessible(page, 'guided tour');
    await shot('tour');
    for (let i = 0; i < 3; i += 1) await tour.getByRole('button', { name: S.tourNext }).click();
    await tour.getByRole('button', { name: S.tourDone }).click();
    await expect.poll(() => new URL(page.url()).searchParams.has('newUser')).toBe(false);
    // The URL changes before React renders the page without the tour.
    await expect.poll(() => tour.count()).toBe(0);
  });
});
