import type { Page } from 'playwright-core';
import { Strings } from '../../src/lib/strings';

export interface NewAccount {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
}

/** The sign-in / sign-up page as a user sees it. */
export class LoginPageModel {
  constructor(private readonly page: Page) {}

  submit(label: string) {
    return this.page.locator('form').getByRole('button', { name: label, exact: true }).click();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.getByRole('tab', { name: Strings.signInTab }).click();
    await this.page.getByLabel(Strings.fieldEmail, { exact: true }).fill(email);
    await this.page.getByLabel(Strings.fieldPassword, { exact: true }).fill(password);
    await this.submit(Strings.signInSubmit);
  }

  async signUp(account: NewAccount): Promise<void> {
    await this.page.getByRole('tab', { name: Strings.signUpTab }).click();
    await this.page.getByLabel(Strings.fieldFirstName).fill(account.firstname);
    await this.page.getByLabel(Strings.fieldLastName).fill(account.lastname);
    await this.page.getByLabel(Strings.fieldEmail, { exact: true }).fill(account.email);
    await this.page.getByLabel(Strings.fieldPassword, { exact: true }).fill(account.password);
    await this.submit(Strings.signUpSubmit);
  }

  formAlert() {
    return this.page.locator('form').getByRole('alert');
  }
}
