import type { RecordedCommand, RecordedElement } from '@rehearse/contract';
import { describe, expect, it } from 'vitest';
import { generate, LOCATORS_DIR, STEP_DEFINITIONS_DIR } from './generate.js';
import { findStepFunction } from './step-files.js';

/**
 * A "Remove" button of one table row: found by role and name while it was the only one (`alone`),
 * else only by its position.
 */
function removeButton(row: number, rowText: string | undefined, alone = false): RecordedElement {
  return {
    name: 'Remove',
    locators: [
      ...(alone ? [{ kind: 'role' as const, role: 'button', name: 'Remove', exact: true }] : []),
      { kind: 'css', value: `#members > tbody > tr:nth-of-type(${row}) > td > button` },
    ],
    fingerprint: {
      tag: 'button',
      role: 'button',
      name: 'Remove',
      attributes: {},
      ancestors: ['table', 'rowgroup', 'row', 'cell'],
      ...(rowText ? { container: { tag: 'tr', text: rowText } } : {}),
    },
  };
}

const open: RecordedCommand = { type: 'navigate', value: '/', path: '/', url: 'http://app.test/' };
const click = (element: RecordedElement): RecordedCommand => ({ type: 'click', element, path: '/', url: 'http://app.test/' });

/** Records `commands` into a workspace holding `files`, and answers the workspace afterwards. */
function record(files: Map<string, string>, name: string, commands: RecordedCommand[]) {
  const generated = generate({ scenarioName: name, commands, existing: files });
  const after = new Map(files);
  for (const file of generated.files) after.set(file.path, file.content);
  return { generated, files: after, locators: JSON.parse(after.get(`${LOCATORS_DIR}/home.json`)!) as Record<string, RecordedElement> };
}

const lastStep = (generated: ReturnType<typeof generate>) => generated.scenarioText.trim().split('\n').at(-1)!.trim();

describe('step timeouts (spec 02 §9: "Default step timeout 60 s in generated code, 120 s per step")', () => {
  it('gives every recorded step its own 120 s', () => {
    const { files } = record(new Map(), 'Remove Ada', [open, click(removeButton(1, 'Ada', true))]);
    const steps = files.get(`${STEP_DEFINITIONS_DIR}/home.mjs`)!;
    const definitions = steps.split('\n').filter((line) => /^(Given|When|Then)\(/.test(line));
    expect(definitions).toHaveLength(1);
    // The options argument does not hide the step's function from the quick prompts and the step code editor.
    const found = findStepFunction(steps, 'I click on "Remove" button');
    expect(steps.slice(found.fn.start, found.fn.end)).toMatch(
      /^async function \(\) \{\n {2}await context\.web\.click\(elements\["remove_button"\]/,
    );
    for (const line of definitions)
      expect(line).toMatch(/^(Given|When|Then)\(".*", \{ timeout: 120000 \}, async function \((value|key)?\) \{$/);
  });
});

describe('a name recorded again on the same page', () => {
  it('is never re-bound to another element: the second row’s button gets a name that says which row', () => {
    const first = record(new Map(), 'Remove Ada', [open, click(removeButton(1, 'Ada', true))]);
    expect(lastStep(first.generated)).toBe('When I click on "Remove" button');

    const second = record(first.files, 'Remove Grace', [open, click(removeButton(2, 'Grace'))]);
    expect(lastStep(second.generated)).toBe('When I click on "Remove" button in the row containing "Grace"');
    // The first scenario's step still means Ada's row, in the same entry and the same step block.
    expect(second.locators.remove_button!.locators).toEqual(removeButton(1, 'Ada', true).locators);
    expect(second.locators.remove_button_in_grace!.locators).toEqual(removeButton(2, 'Grace').locators);
    const steps = second.files.get(`${STEP_DEFINITIONS_DIR}/home.mjs`)!;
    expect(steps).toContain(
      `When("I click on \\"Remove\\" button", { timeout: 120000 }, async function () {\n  await context.web.click(elements["remove_button"]`,
    );
    expect(steps).toContain(
      `When("I click on \\"Remove\\" button in the row containing \\"Grace\\"", { timeout: 120000 }, async function () {\n  await context.web.click(elements["remove_button_in_grace"]`,
    );
  });

  it('keeps the plain name for the same element recorded again, and numbers a look-alike nothing tells apart', () => {
    const first = record(new Map(), 'Remove Ada', [open, click(removeButton(1, 'Ada', true))]);
    const again = record(first.files, 'Remove Ada again', [open, click(removeButton(1, 'Ada', true))]);
    expect(lastStep(again.generated)).toBe('When I click on "Remove" button');
    expect(Object.keys(again.locators)).toEqual(['remove_button']);

    const unplaced = record(again.files, 'Remove the third', [open, click(removeButton(3, undefined))]);
    expect(lastStep(unplaced.generated)).toBe('When I click on "Remove" button #2');
    expect(Object.keys(unplaced.locators)).toEqual(['remove_button', 'remove_button_2']);
  });

  it('says which row from the first recording when only the row finds the element', () => {
    const first = record(new Map(), 'Remove Grace', [open, click(removeButton(2, 'Grace'))]);
    expect(lastStep(first.generated)).toBe('When I click on "Remove" button in the row containing "Grace"');
    expect(Object.keys(first.locators)).toEqual(['remove_button_in_grace']);
  });
});

describe('a step that names its row', () => {
  /** The recorder's description of a row's button: page-wide candidates, and the ones found inside its row. */
  const withRow = (row: number, rowText: string): RecordedElement => ({
    ...removeButton(row, rowText),
    row: {
      container: 'row',
      text: rowText,
      locators: [
        { kind: 'role', role: 'button', name: 'Remove', exact: true },
        { kind: 'css', value: 'button.remove' },
      ],
    },
  });

  it('is bound to that row: the entry is scoped to it and holds only the candidates found inside it', () => {
    const first = record(new Map(), 'Remove Grace', [open, click(withRow(2, 'Grace'))]);
    expect(lastStep(first.generated)).toBe('When I click on "Remove" button in the row containing "Grace"');
    const entry = first.locators.remove_button_in_grace as unknown as { scope: unknown; locators: unknown[] };
    expect(entry.scope).toEqual({ container: 'row', text: 'Grace' });
    // No positional path of the whole page: it would find whichever row is 2nd, on a broken app too.
    expect(entry.locators).toEqual(withRow(2, 'Grace').row!.locators);
  });

  it('keeps one entry when the same row is recorded again, and a new one for another row', () => {
    const first = record(new Map(), 'Remove Grace', [open, click(withRow(2, 'Grace'))]);
    const again = record(first.files, 'Remove Grace again', [open, click(withRow(3, 'Grace'))]);
    expect(Object.keys(again.locators)).toEqual(['remove_button_in_grace']);
    const other = record(again.files, 'Remove Ada', [open, click(withRow(1, 'Ada'))]);
    expect(lastStep(other.generated)).toBe('When I click on "Remove" button in the row containing "Ada"');
    expect(Object.keys(other.locators)).toEqual(['remove_button_in_grace', 'remove_button_in_ada']);
  });
});

describe('recording again on a page whose step file was edited by hand', () => {
  const HAND_WRITTEN = [
    `import { appendFileSync } from 'node:fs';`,
    '',
    '// A helper the team wrote: recording must never drop it.',
    'function note(text) {',
    `  appendFileSync('notes.txt', text + '\\n');`,
    '}',
    '',
    `When('I note {string}', async function (text) {`,
    '  note(text);',
    '});',
    '',
  ].join('\n');

  it('keeps every hand-written line byte for byte, replaces the block recorded again in place and adds the new one at the end', () => {
    const first = record(new Map(), 'Remove Ada', [open, click(removeButton(1, 'Ada', true))]);
    const path = `${STEP_DEFINITIONS_DIR}/home.mjs`;
    const generatedFile = first.files.get(path)!;
    const edited = new Map(first.files);
    // The team adds its own code below the recorded block and between the header and the block.
    const [header, block] = generatedFile.split('/** @recorder');
    edited.set(path, `${header}${HAND_WRITTEN}\n/** @recorder${block}\n${HAND_WRITTEN.replace(/note/g, 'log')}`);

    const again = record(edited, 'Remove Ada and Grace', [open, click(removeButton(1, 'Ada', true)), click(removeButton(2, 'Grace'))]);
    const after = again.files.get(path)!;
    expect(after.startsWith(`${header}${HAND_WRITTEN}\n/** @recorder${block}\n${HAND_WRITTEN.replace(/note/g, 'log')}`)).toBe(true);
    expect(after.match(/@step "I click on \\"Remove\\" button"/g)).toHaveLength(1);
    expect(
      after.endsWith(
        `When("I click on \\"Remove\\" button in the row containing \\"Grace\\"", { timeout: 120000 }, async function () {\n  await context.web.click(elements["remove_button_in_grace"], {}, {}, this);\n});\n// @end\n`,
      ),
    ).toBe(true);
  });

  it('writes a re-recorded block where it stood, leaving the code around it alone', () => {
    const first = record(new Map(), 'Remove Ada', [open, click(removeButton(1, 'Ada', true))]);
    const path = `${STEP_DEFINITIONS_DIR}/home.mjs`;
    const edited = new Map(first.files);
    edited.set(path, `${first.files.get(path)!}\n${HAND_WRITTEN}`);
    const moved = {
      ...removeButton(1, 'Ada', true),
      locators: [
        { kind: 'role' as const, role: 'button', name: 'Remove', exact: true },
        { kind: 'css' as const, value: '#roster tr:nth-of-type(1) button' },
      ],
    };
    const again = record(edited, 'Remove Ada again', [open, click(moved)]);
    expect(again.files.get(path)).toBe(edited.get(path));
    // The element itself is recorded afresh.
    expect(again.locators.remove_button!.locators).toEqual(moved.locators);
  });
});

describe('a recorded step whose words a hand-written step already has', () => {
  const save: RecordedElement = {
    name: 'Save',
    locators: [{ kind: 'role', role: 'button', name: 'Save', exact: true }],
    fingerprint: { tag: 'button', role: 'button', name: 'Save', attributes: {}, ancestors: [] },
  };
  const handWritten = `import { When } from '@cucumber/cucumber';

// Written by the team: saves and waits for the toast.
When('I click on {string} button', async function (name) {
  await this.page.getByRole('button', { name }).click();
});
`;

  it('says where it was recorded, so cucumber never finds two definitions for one step', () => {
    const files = new Map([[`${STEP_DEFINITIONS_DIR}/team.mjs`, handWritten]]);
    const { generated, files: after } = record(files, 'Save it', [open, click(save)]);
    expect(lastStep(generated)).toBe('When I click on "Save" button on the home page');
    // The hand-written file is untouched.
    expect(after.get(`${STEP_DEFINITIONS_DIR}/team.mjs`)).toBe(handWritten);
  });

  it('keeps its own words when nothing hand-written matches them', () => {
    const files = new Map([
      [`${STEP_DEFINITIONS_DIR}/team.mjs`, handWritten.replace('I click on {string} button', 'I press the {string} key')],
    ]);
    expect(lastStep(record(files, 'Save it', [open, click(save)]).generated)).toBe('When I click on "Save" button');
  });

  it('is not confused by its own earlier recording of the same step', () => {
    const first = record(new Map(), 'Save once', [open, click(save)]);
    expect(lastStep(record(first.files, 'Save twice', [open, click(save)]).generated)).toBe('When I click on "Save" button');
  });
});

describe('a recorded list in order', () => {
  it('becomes the built-in list step with one table row per item, cells escaped as Gherkin reads them', () => {
    const items: RecordedCommand = {
      type: 'verifyItems',
      value: 'todo',
      items: ['buy | sell', 'back\\slash', 'plain'],
      path: '/',
      url: 'http://app.test/',
    };
    const generated = generate({ scenarioName: 'Order', commands: [open, items], existing: new Map() });
    expect(generated.files).toEqual([]);
    expect(generated.scenarioText.split('\n').slice(-4)).toEqual([
      '    Then the "todo" items should be:',
      '      | buy \\| sell |',
      '      | back\\\\slash |',
      '      | plain |',
    ]);
    expect(generated.steps.at(-1)).toEqual({
      keyword: 'Then',
      text: 'the "todo" items should be:',
      table: ['buy | sell', 'back\\slash', 'plain'],
    });
  });
});
