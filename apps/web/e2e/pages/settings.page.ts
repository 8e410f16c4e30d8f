import type { Page } from 'playwright-core';
import { Strings } from '../../src/lib/strings';

/** The settings screens: members, access tokens, integrations and code cleanup. */
export class SettingsPageModel {
  constructor(private readonly page: Page) {}

  tab(name: string) {
    return this.page.getByRole('navigation', { name: Strings.settingsTabs }).getByRole('link', { name });
  }

  inviteInput() {
    return this.page.getByLabel(Strings.inviteLabel);
  }

  inviteButton() {
    return this.page.getByRole('button', { name: new RegExp(`^(${Strings.inviteSend}|${Strings.inviteSending})$`) });
  }

  async invite(text: string): Promise<void> {
    await this.inviteInput().fill(text);
    await this.inviteButton().click();
  }

  inviteAlert() {
    return this.page.getByRole('form', { name: Strings.inviteSend }).getByRole('alert');
  }

  table(testId: 'members-table' | 'tokens-table') {
    return this.page.getByTestId(testId);
  }

  row(testId: 'members-table' | 'tokens-table', text: string) {
    return this.table(testId).locator('tbody tr').filter({ hasText: text });
  }

  tableStatus(testId: 'members-table' | 'tokens-table') {
    return this.table(testId).locator('tbody').getByRole('status');
  }

  search(testId: 'members-table' | 'tokens-table') {
    return this.table(testId).getByRole('searchbox');
  }

  confirmDialog() {
    return this.page.getByTestId('confirm-delete-dialog');
  }

  generateDialog() {
    return this.page.getByTestId('generate-token-dialog');
  }
}
