import type { Page } from 'playwright-core';
import { FeatureStrings as S } from '../../src/features/scenarios/strings';

/** The features page: tree, scenario header, Gherkin editor, steps and the step code dialog. */
export class FeaturesPageModel {
  constructor(private readonly page: Page) {}

  tree() {
    return this.page.getByTestId('feature-tree');
  }

  search() {
    return this.page.getByRole('searchbox', { name: S.searchLabel });
  }

  tagFilter() {
    return this.page.getByRole('combobox', { name: S.tagFilterLabel });
  }

  scenarioRows() {
    return this.tree().locator('[role="treeitem"][aria-level="2"]');
  }

  async scenarioNames(): Promise<string[]> {
    return this.scenarioRows().allInnerTexts();
  }

  title() {
    return this.page.getByTestId('scenario-title');
  }

  gherkin() {
    return this.page.getByTestId('gherkin-editor').locator('.cm-content');
  }

  async gherkinText(): Promise<string> {
    return (await this.page.getByTestId('gherkin-editor').locator('.cm-line').allInnerTexts()).join('\n');
  }

  /** Replaces the text of a CodeMirror editor (the one inside `testId`) as a user would. */
  async replaceEditorText(testId: string, text: string): Promise<void> {
    const content = this.page.getByTestId(testId).locator('.cm-content');
    await content.click();
    await this.page.keyboard.press('Control+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
  }

  async openScenario(name: string): Promise<void> {
    await this.scenarioRows().filter({ hasText: name }).first().click();
    await this.title().filter({ hasText: name }).waitFor();
  }

  async scenarioAction(label: string): Promise<void> {
    await this.page.getByRole('button', { name: S.scenarioActions }).click();
    await this.page.getByRole('menuitem', { name: label }).click();
  }

  stepButton(text: string) {
    return this.page.getByTestId('steps').getByRole('button', { name: new RegExp(text) });
  }

  stepDialog() {
    return this.page.getByTestId('step-code-dialog');
  }
}
