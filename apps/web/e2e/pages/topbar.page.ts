import type { Page } from 'playwright-core';
import { Strings } from '../../src/lib/strings';

/** The project top bar: selectors, Record scenario, licence countdown, and the dialogs they open. */
export class TopBarPageModel {
  constructor(private readonly page: Page) {}

  environmentButton() {
    return this.page.getByTestId('environment-selector');
  }

  currentEnvironment() {
    return this.page.getByTestId('environment-selector-value');
  }

  environmentPanel() {
    return this.page.getByRole('dialog', { name: Strings.environmentLabel });
  }

  async openEnvironments(): Promise<void> {
    await this.environmentButton().click();
    await this.environmentPanel().waitFor();
  }

  /** Names of the environments in the open panel. */
  environmentOption(name: string) {
    return this.environmentPanel().locator('[data-selector-option]').filter({ hasText: name });
  }

  async chooseEnvironment(name: string): Promise<void> {
    await this.openEnvironments();
    await this.environmentOption(name).first().click();
  }

  async addEnvironment(): Promise<void> {
    await this.openEnvironments();
    await this.environmentPanel().getByRole('button', { name: Strings.environmentAdd }).click();
  }

  async editEnvironment(name: string): Promise<void> {
    await this.openEnvironments();
    await this.environmentPanel()
      .getByRole('button', { name: Strings.environmentEdit(name), exact: true })
      .click();
  }

  deleteEnvironmentButton(name: string) {
    return this.environmentPanel().getByRole('button', { name: Strings.environmentDelete(name), exact: true });
  }

  environmentDialog() {
    return this.page.getByTestId('environment-dialog');
  }

  urlField() {
    return this.environmentDialog().getByLabel(Strings.environmentUrl, { exact: true });
  }

  nameField() {
    return this.environmentDialog().getByLabel(Strings.environmentName, { exact: true });
  }

  /** The error or warning under a field of the environment dialog. */
  fieldMessage(field: 'url' | 'name') {
    return this.environmentDialog().locator(`input[name="${field}"]`).locator('xpath=following-sibling::p[1]');
  }

  submitButton() {
    return this.environmentDialog().locator('button[type="submit"]');
  }

  recordButton() {
    return this.page.getByRole('button', { name: Strings.record });
  }

  recorderChooser() {
    return this.page.getByTestId('recorder-chooser');
  }

  licenceButton() {
    return this.page.getByRole('button', { name: new RegExp(`^${Strings.licenceOpen}`) });
  }

  licenceDialog() {
    return this.page.getByTestId('licence-dialog');
  }

  confirmDialog() {
    return this.page.getByTestId('confirm-delete-dialog');
  }

  projectButton() {
    return this.page.getByTestId('project-selector');
  }

  projectPanel() {
    return this.page.getByRole('dialog', { name: Strings.projectSelectorLabel });
  }

  /** The text of the tooltip currently shown. */
  tooltip() {
    return this.page.getByRole('tooltip');
  }
}
