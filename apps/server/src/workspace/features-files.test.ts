import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workspaceCalls as ws } from '@rehearse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, signUp, startTestApp, type TestApp } from '../testing/test-app.js';

const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/gherkin/', import.meta.url));

const CHECKOUT = `@shop
Feature: Checkout
  Buying things in the demo shop.

  # the happy path
  @smoke
  Scenario: Buy a backpack
    Given I open "/demo-shop/"
    When I click "Add Trail Backpack to cart"
    Then I should see "Cart 1"

  Scenario Outline: Search for <term>
    Given I open "/demo-shop/"
    When I fill "Search products" with "<term>"
    Then I should see "<result>"

    Examples:
      | term | result         |
      | mug  | Enamel Camp Mug |
`;

describe('features, steps and files', () => {
  let test: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  const head = async () => (await user.api.call(ws.getStableVersions, { query: { projectId } })).versions[0]!.commit;

  beforeAll(async () => {
    test = await startTestApp('pglite');
    user = await signUp(test, { email: 'features@acme.test' });
    projectId = user.projectId;
  });
  afterAll(async () => test?.close());

  it('stores, lists and edits scenarios, touching only the edited lines', async () => {
    await user.api.call(ws.pushFile, { body: { projectId, directory: 'features', file: { name: 'checkout.feature', content: CHECKOUT } } });
    const list = await user.api.call(ws.getFeatureList, { body: { projectId } });
    const feature = list.features.find((f) => f.name === 'checkout.feature')!;
    expect(feature.scenarios.map((s) => [s.type, s.name, s.tags])).toEqual([
      ['Scenario', 'Buy a backpack', ['@smoke']],
      ['Scenario Outline', 'Search for <term>', []],
    ]);
    expect(list.allTags).toEqual(['@shop', '@smoke']);

    const replaced = await user.api.call(ws.pushScenario, {
      body: {
        projectId,
        name: 'checkout',
        scenarioIndex: 0,
        data: '  # the happy path\n  @smoke\n  Scenario: Buy a backpack\n    Given I open "/demo-shop/"\n    Then I should see "Trail Backpack"\n',
      },
    });
    const before = CHECKOUT.split('\n');
    const after = replaced.feature.content.split('\n');
    expect(after.slice(0, 8)).toEqual(before.slice(0, 8));
    expect(after.slice(-10)).toEqual(before.slice(-10));
    expect(after[8]).toBe('    Then I should see "Trail Backpack"');
    expect(after).toHaveLength(before.length - 1);

    const added = await user.api.call(ws.pushScenario, {
      body: { projectId, name: 'checkout', data: 'Scenario: Buy a backpack\n  Given I open "/demo-shop/"\n' },
    });
    // A clashing name gets a numeric suffix (spec 02 §5).
    expect(added.feature.scenarios[2]!.name).toBe('Buy a backpack (1)');
    expect(added.scenarioIndex).toBe(2);

    const created = await user.api.call(ws.pushScenario, {
      body: {
        projectId,
        name: 'Sign in',
        data: 'Scenario: Good password\n  Given I open "/demo-shop/login.html"\n',
        description: 'Signing in.',
      },
    });
    expect(created.feature.name).toBe('Sign in.feature');
    expect((await user.api.call(ws.featuresCount, { body: { projectId } })).count).toBe(2);

    const renamed = await user.api.call(ws.renameScenario, {
      body: { projectId, featureName: 'checkout', scenarioIndex: 2, newName: 'Buy twice' },
    });
    expect(renamed.feature.scenarios[2]!.name).toBe('Buy twice');
    const tagged = await user.api.call(ws.setScenarioTags, {
      body: { projectId, featureName: 'checkout', scenarioIndex: 2, tags: ['regression', '@cart'] },
    });
    expect(tagged.feature.scenarios[2]!.tags).toEqual(['@regression', '@cart']);

    // Spec 02 §8: a rename onto another feature's name is refused in the spec's words, as a 400.
    const clash = await failure(user.api.call(ws.renameFeature, { body: { projectId, oldName: 'Sign in', newName: 'CHECKOUT' } }));
    expect([clash.httpStatus, clash.message]).toEqual([400, 'Feature with the same name already exists']);
    const movedFeature = await user.api.call(ws.renameFeature, { body: { projectId, oldName: 'Sign in', newName: 'Login' } });
    expect([movedFeature.feature.name, movedFeature.feature.featureName]).toEqual(['Login.feature', 'Login']);

    // The only scenario of a feature takes the feature with it.
    expect((await user.api.call(ws.deleteScenario, { body: { projectId, featureName: 'Login', scenarioIndex: 0 } })).featureDeleted).toBe(
      true,
    );
    expect(
      (await user.api.call(ws.deleteScenario, { body: { projectId, featureName: 'checkout', scenarioIndex: 2 } })).featureDeleted,
    ).toBe(false);
    const final = await user.api.call(ws.getFeatureList, { body: { projectId } });
    expect(final.features.map((f) => f.name)).toEqual(['checkout.feature']);
  });

  it('refuses bad names and invalid Gherkin with the parser line, leaving the workspace unchanged', async () => {
    const start = await head();
    const push = (data: string, name = 'checkout') => failure(user.api.call(ws.pushScenario, { body: { projectId, name, data } }));
    const invalid = await push('Scenario: Broken\n  Given a step\n  | a | b |\n  | c |\n');
    expect(invalid.httpStatus).toBe(400);
    expect(invalid.message).toMatch(/^line 4: inconsistent cell count/);
    expect((await push('Scenario: Fine\n  Given x\n', 'Bad*Name')).message).toBe('Following characters are not allowed: *');
    expect((await push('Scenario: Fine\n  Given x\n', 'x'.repeat(81))).message).toBe('Feature name cannot be more than 80 characters.');
    const rename = (newName: string) =>
      failure(user.api.call(ws.renameScenario, { body: { projectId, featureName: 'checkout', scenarioIndex: 0, newName } }));
    expect((await rename('Buy a backpack')).message).toBe('New name cannot be same as the old name.');
    expect((await rename('Search for <term>')).message).toMatch(/^Following characters are not allowed: < >/);
    expect((await rename('y'.repeat(81))).message).toBe('Scenario name cannot exceed 80 characters.');
    expect(
      (await failure(user.api.call(ws.deleteScenario, { body: { projectId, featureName: 'checkout', scenarioIndex: 9 } }))).message,
    ).toBe('Scenario not found.');
    expect(await head()).toBe(start);
  });

  it('stores every good corpus file byte for byte and refuses every bad one with its line and message', async () => {
    const good = readdirSync(`${CORPUS}good`).filter((f) => f.endsWith('.feature'));
    for (const file of good) {
      const content = readFileSync(`${CORPUS}good/${file}`, 'utf8');
      await user.api.call(ws.pushFile, { body: { projectId, directory: 'features/corpus', file: { name: file, content } } });
      const stored = await user.api.call(ws.getFileContent, { query: { projectId, file_path: `features/corpus/${file}` } });
      expect([file, stored.content === content]).toEqual([file, true]);
    }
    const { features } = await user.api.call(ws.getFeatureList, { body: { projectId } });
    const corpus = features.filter((f) => f.path.startsWith('features/corpus/'));
    expect(corpus).toHaveLength(good.length);
    expect(corpus.every((f) => f.errors.length === 0)).toBe(true);
    const tags = corpus.find((f) => f.name === 'corpus/tags.feature')!;
    expect(tags.scenarios.length).toBeGreaterThan(0);
    expect(tags.scenarios.flatMap((s) => s.tags).length).toBeGreaterThan(0);

    // Editing one scenario of a corpus file through push-scenario changes only that scenario's lines.
    const outline = corpus.find((f) => f.name === 'corpus/scenario_outline.feature')!;
    const original = outline.content;
    const edited = await user.api.call(ws.renameScenario, {
      body: { projectId, featureName: 'corpus/scenario_outline', scenarioIndex: 0, newName: 'Renamed outline' },
    });
    const diff = edited.feature.content
      .split('\n')
      .map((line, i) => (line === original.split('\n')[i] ? null : i))
      .filter((i) => i !== null);
    expect(diff).toEqual([outline.scenarios[0]!.line - 1]);

    const bad = readdirSync(`${CORPUS}bad`).filter((f) => f.endsWith('.feature'));
    const start = await head();
    for (const file of bad) {
      const expected = readFileSync(`${CORPUS}bad/${file}.errors.ndjson`, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((row) => (JSON.parse(row) as { parseError: { source: { location: { line: number } }; message: string } }).parseError);
      const error = await failure(
        user.api.call(ws.pushFile, {
          body: { projectId, directory: 'features/bad', file: { name: file, content: readFileSync(`${CORPUS}bad/${file}`, 'utf8') } },
        }),
      );
      expect(error.httpStatus).toBe(400);
      const lines = error.message.split('\n');
      expect(lines).toHaveLength(expected.length);
      expected.forEach((parseError, i) => {
        expect(lines[i]).toBe(`line ${parseError.source.location.line}: ${parseError.message.replace(/^\(\d+:\d+\): /, '')}`);
      });
    }
    expect(await head()).toBe(start);
  });

  it('matches steps to generated, hand-written and built-in step definitions, and removes unused ones', async () => {
    const code = `import { Given, When, Then } from '@cucumber/cucumber';

/**
 * @recorder
 * @path=/demo-shop/
 */
When('I click {string}', async function (name) {
  await this.context.web.click(name);
});

// Not used by any scenario.
Then(/^the basket holds (\\d+) items?$/, async function (count) {
  return count;
});

Given('an unused step with a {string}', async function () {});
`;
    await user.api.call(ws.pushScenario, {
      body: {
        projectId,
        name: 'checkout',
        data: 'Scenario: Click it\n  Given I open "/demo-shop/"\n  When I click "Add Trail Backpack to cart"\n',
      },
    });
    const uploaded = await user.api.call(ws.uploadMjs, { body: { projectId, files: [{ name: 'shop.mjs', content: code }] } });
    expect(uploaded.paths).toEqual(['features/step_definitions/shop.mjs']);
    const { steps, implementedSteps } = await user.api.call(ws.storeAndGetSteps, { query: { projectId }, body: {} });
    const click = steps.find((s) => s.stepName === 'I click "Add Trail Backpack to cart"');
    expect(click).toMatchObject({ implemented: true, source: 'recorder', mjsFile: 'features/step_definitions/shop.mjs' });
    expect(steps.find((s) => s.stepName === 'I open "/demo-shop/"')).toMatchObject({ implemented: true, source: 'user', mjsFile: null });
    expect(implementedSteps['I click {string}']).toEqual({ implemented: true, source: 'recorder' });

    const scenarioSteps = await user.api.call(ws.getStepCodeByScenario, {
      body: { projectId, featureName: 'checkout', scenarioName: 'Buy a backpack' },
    });
    expect(scenarioSteps.steps.map((s) => s.implemented)).toEqual([true, true]);

    const unused = await user.api.call(ws.getUnusedStepDefinitions, { body: { projectId } });
    expect(unused.stepDefRefs.map((r) => [r.keyword, r.pattern, r.line])).toEqual([
      ['Then', '^the basket holds (\\d+) items?$', 12],
      ['Given', 'an unused step with a {string}', 16],
    ]);
    const removed = await user.api.call(ws.removeUnusedSteps, { body: { projectId, input: [unused.stepDefRefs[1]!] } });
    expect([removed.removed, removed.message]).toEqual([1, '1 unused step deleted']);
    const left = await user.api.call(ws.getFileContent, { query: { projectId, file_path: 'features/step_definitions/shop.mjs' } });
    expect(left.content).not.toContain('an unused step');
    expect(left.content).toContain("When('I click {string}'");
    await user.api.call(ws.removeUnusedSteps, { body: { projectId } });
    expect((await user.api.call(ws.getUnusedStepDefinitions, { body: { projectId } })).stepDefRefs).toEqual([]);

    // Code that does not parse is stored (Save Anyway) and flagged.
    await user.api.call(ws.uploadMjs, { body: { projectId, files: [{ name: 'shop.mjs', content: `${code}\nWhen('broken' {` }] } });
    const flagged = await user.api.call(ws.getStepCodeByScenario, {
      body: { projectId, featureName: 'checkout', scenarioName: 'Buy a backpack' },
    });
    expect(flagged.steps[0]!.implemented).toBe(true);
    expect((await failure(user.api.call(ws.uploadMjs, { body: { projectId, files: [{ name: '../x.mjs', content: '' }] } }))).message).toBe(
      'Step definition files must be named like name.mjs, without folders.',
    );
  });

  it("underlines the edited text's undefined steps with what they may have meant, from the built-in and the project's steps", async () => {
    const own = await signUp(test);
    const code = "import { When } from '@cucumber/cucumber';\nWhen('I add {string} to the cart', async function () {});\n";
    await own.api.call(ws.uploadMjs, { body: { projectId: own.projectId, files: [{ name: 'cart.mjs', content: code }] } });
    const text = [
      'Scenario: Buy',
      '  Given I open "/"',
      '  When I clicks on "Save"',
      '  And I add the product "Mug" to my cart',
      '  And I add "Lamp" to the cart',
      '  Then the moon is full',
    ].join('\n');
    const help = await own.api.call(ws.checkSteps, { body: { projectId: own.projectId, text } });
    expect(help.undefinedSteps).toEqual([
      { line: 3, column: 8, text: 'I clicks on "Save"', suggestions: expect.arrayContaining(['I click "Save"']) },
      { line: 4, column: 7, text: 'I add the product "Mug" to my cart', suggestions: expect.arrayContaining(['I add "Mug" to the cart']) },
      { line: 6, column: 8, text: 'the moon is full', suggestions: [] },
    ]);
    expect(help.undefinedSteps[0]!.suggestions[0]).toBe('I click "Save"');
    expect(help.projectSteps).toEqual([{ pattern: 'I add {string} to the cart', file: 'features/step_definitions/cart.mjs' }]);
    // A whole feature keeps its own line numbers; a text that does not parse has no step help.
    const feature = await own.api.call(ws.checkSteps, { body: { projectId: own.projectId, text: `Feature: Shop\n\n${text}` } });
    expect(feature.undefinedSteps.map((step) => step.line)).toEqual([5, 6, 8]);
    expect(
      (await own.api.call(ws.checkSteps, { body: { projectId: own.projectId, text: 'Scenario: x\n  | not | a step' } })).undefinedSteps,
    ).toEqual([]);
    // A reusable step made of steps (a .steps file, no code) implements a step as a definition does.
    await own.api.call(ws.pushFile, {
      body: {
        projectId: own.projectId,
        directory: 'features/steps',
        file: { name: 'shop.steps', content: 'Feature: Shop steps\n  Scenario: I buy "<product>"\n    When I click "<product>"\n' },
      },
    });
    const reusable = await own.api.call(ws.checkSteps, {
      body: { projectId: own.projectId, text: 'Scenario: Buy\n  When I buy "Mug"\n  And I buys "Lamp"' },
    });
    expect(reusable.undefinedSteps).toEqual([
      { line: 3, column: 7, text: 'I buys "Lamp"', suggestions: expect.arrayContaining(['I buy "Lamp"']) },
    ]);
    // Any dialect: the step text begins where that language's keyword ends.
    const french = await own.api.call(ws.checkSteps, {
      body: { projectId: own.projectId, text: "# language: fr\nFonctionnalité: Panier\n  Scénario: Payer\n    Etant donné qu'il pleut\n" },
    });
    expect(french.undefinedSteps.map(({ line, column, text }) => ({ line, column, text }))).toEqual([
      { line: 4, column: 20, text: 'il pleut' },
    ]);
    // A line that is no step says why, in the runner's words, with the phrasing that would run.
    const broken = await own.api.call(ws.checkSteps, {
      body: {
        projectId: own.projectId,
        text: 'Scenario: Bad lines\n  When I click "Save\n  And I click "Save" in the widget containing "Mug"',
      },
    });
    expect(broken.undefinedSteps).toEqual([
      {
        line: 2,
        column: 8,
        text: 'I click "Save',
        problem: 'The quote before "Save" is never closed: end the value with "',
        suggestions: expect.arrayContaining(['I click "Save"']),
      },
      expect.objectContaining({ line: 3, problem: expect.stringMatching(/^"widget" is not a container a step can name/) }),
    ]);
  });

  it('confines file paths to the workspace and refuses binary, oversized and invalid UTF-8 content', async () => {
    const start = await head();
    for (const [directory, name] of [
      ['..', 'x.txt'],
      ['/etc', 'passwd'],
      ['a/../..', 'x'],
      ['.git', 'config'],
      ['a', '..'],
      ['a\\b', 'c'],
      ['-rf', 'x.txt'],
      ['notes', '--upload-pack=touch pwned'],
      ['a/-b', 'c.txt'],
    ]) {
      const error = await failure(
        user.api.call(ws.pushFile, { body: { projectId, directory: directory!, file: { name: name!, content: 'x' } } }),
      );
      expect([directory, error.httpStatus, error.message]).toEqual([
        directory,
        400,
        'The path must stay inside the workspace: no "..", no absolute paths, no name starting with "-".',
      ]);
    }
    expect((await failure(user.api.call(ws.getFileContent, { query: { projectId, file_path: '../../etc/passwd' } }))).message).toBe(
      'The path must stay inside the workspace: no "..", no absolute paths, no name starting with "-".',
    );
    expect(
      (await failure(user.api.call(ws.pushFile, { body: { projectId, directory: 'x', file: { name: 'b.bin', content: 'a\u0000b' } } })))
        .message,
    ).toBe('Binary content cannot be stored in the workspace.');
    const huge = await failure(
      user.api.call(ws.pushFile, { body: { projectId, directory: 'x', file: { name: 'big.txt', content: 'x'.repeat(1_000_001) } } }),
    );
    expect(huge.httpStatus).toBe(400);
    const raw = await test.app.inject({
      method: 'POST',
      url: '/api/workspace/push-file',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: Buffer.concat([
        Buffer.from(`{"projectId":"${projectId}","directory":"x","file":{"name":"a.txt","content":"`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}'),
      ]),
    });
    expect([raw.statusCode, raw.json().error]).toEqual([400, 'The request body is not valid UTF-8.']);
    expect(await head()).toBe(start);

    await user.api.call(ws.pushFile, { body: { projectId, directory: 'notes', file: { name: 'readme.md', content: '# Notes\n' } } });
    expect((await user.api.call(ws.getFiles, { query: { projectId, directory: 'notes' } })).files).toEqual([
      { name: 'readme.md', path: 'notes/readme.md', size: 8 },
    ]);
    expect((await user.api.call(ws.lastUpdated, { body: { projectId, directory: 'notes', file: 'readme.md' } })).lastUpdated).toMatch(
      /^\d{4}-/,
    );
    await user.api.call(ws.deleteFile, { query: { projectId, directory: 'notes', fileName: 'readme.md' } });
    expect((await failure(user.api.call(ws.getFileContent, { query: { projectId, file_path: 'notes/readme.md' } }))).httpStatus).toBe(404);
  });

  it('downloads the workspace as a tar with the project id and commit', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: `/api/workspace/download?projectId=${projectId}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-tar');
    expect(response.headers['x-project-id']).toBe(projectId);
    expect(response.headers['x-rehearse-commit']).toBe(await head());
    expect(response.rawPayload.includes(Buffer.from('features/checkout.feature'))).toBe(true);
    expect(response.rawPayload.includes(Buffer.from('rehearse.config.json'))).toBe(true);
  });

  it('downloads one given commit instead of the branch head, and refuses commits the project does not hold', async () => {
    const download = (query: string, token = user.token) =>
      test.app.inject({
        method: 'GET',
        url: `/api/workspace/download?projectId=${projectId}${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const pinned = await head();
    await user.api.call(ws.pushFile, {
      body: { projectId, directory: 'notes', file: { name: 'later.md', content: 'pushed after the pin\n' } },
    });
    expect(await head()).not.toBe(pinned);

    const atPin = await download(`&commit=${pinned}`);
    expect(atPin.statusCode).toBe(200);
    expect(atPin.headers['x-rehearse-commit']).toBe(pinned);
    expect(atPin.rawPayload.includes(Buffer.from('notes/later.md'))).toBe(false);
    expect((await download('')).rawPayload.includes(Buffer.from('notes/later.md'))).toBe(true);

    const unknown = await download(`&commit=${'0'.repeat(40)}`);
    expect([unknown.statusCode, unknown.json()]).toEqual([
      404,
      { status: false, error: "This commit does not exist in the project's workspace." },
    ]);
    const abbreviated = await download(`&commit=${pinned.slice(0, 12)}`);
    expect([abbreviated.statusCode, abbreviated.json()]).toEqual([
      400,
      { status: false, error: 'Invalid commit: a full commit id (40 hexadecimal characters) is expected.' },
    ]);
    // Reading a commit needs the same access as reading the branch.
    const stranger = await signUp(test, { email: 'stranger-commit@acme.test' });
    expect((await download(`&commit=${pinned}`, stranger.token)).statusCode).toBe(403);
  });
});
