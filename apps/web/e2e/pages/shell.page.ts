import type { Page } from 'playwright-core';
import { Strings } from '../../src/lib/strings';

/** The signed-in layout: header, sidebar, top bar and the overlays that can cover them. */
export class ShellPageModel {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  sidebar() {
    return this.page.getByTestId('sidebar');
  }

  async sidebarWidth(): Promise<number> {
    return (await this.sidebar().boundingBox())?.width ?? -1;
  }

  navLink(label: string) {
    return this.page.getByRole('navigation', { name: Strings.mainNavigation }).getByRole('link', { name: label });
  }

  licenceCountdown() {
    return this.page.getByTestId('licence-countdown');
  }

  async chooseProject(name: string): Promise<void> {
    await this.page.getByRole('button', { name: new RegExp(`^${Strings.projectSelectorLabel}:`) }).click();
    await this.page.getByRole('dialog', { name: Strings.projectSelectorLabel }).getByRole('button', { name, exact: true }).click();
  }

  async openGetStarted(): Promise<void> {
    await this.chooseFromUserMenu(Strings.userMenuGetStarted);
  }

  async logout(): Promise<void> {
    await this.chooseFromUserMenu(Strings.userMenuLogout);
  }

  userMenuButton() {
    return this.page.getByRole('button', { name: Strings.userMenuLabel });
  }

  userMenuItem(item: string) {
    return this.page.getByRole('menuitem', { name: item });
  }

  /** Opens the user menu and picks an item. */
  private async chooseFromUserMenu(item: string): Promise<void> {
    await this.userMenuButton().click();
    await this.userMenuItem(item).click();
  }

  sessionExpiredDialog() {
    return this.page.getByRole('alertdialog', { name: Strings.sessionExpiredTitle });
  }

  token(): Promise<string | null> {
    return this.page.evaluate(() => localStorage.getItem('rehearse.token'));
  }
}
