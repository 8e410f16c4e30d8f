import type { Locator, Page } from 'playwright-core';
import { Strings } from '../../src/lib/strings';

/** The open-recorder page (`/open-recorder/{operation}`): the launch's command, link and countdown. */
export class OpenRecorderPageModel {
  constructor(readonly page: Page) {}

  /** The status line under the title: Loading, Error, or what is ready. */
  status() {
    return this.page.getByRole('main').getByRole('status');
  }

  command() {
    return this.page.getByTestId('launch-command');
  }

  setupCommand() {
    return this.page.getByTestId('setup-command');
  }

  /** The Copy button beside a command block. */
  copyButton(block: Locator) {
    return block.locator('xpath=..').getByRole('button', { name: Strings.copy });
  }

  /** Spec 02 §9's button names, pinned as the spec writes them. */
  continueLink() {
    return this.page.getByRole('link', { name: 'Continue in the app', exact: true });
  }

  downloadLink() {
    return this.page.getByRole('link', { name: 'Download app', exact: true });
  }

  problem() {
    return this.page.getByRole('alert');
  }

  retryButton() {
    return this.page.getByRole('button', { name: 'Retry launching', exact: true });
  }

  countdown() {
    return this.page.getByText(/^This tab closes in \d+ s\.$/);
  }

  cancelButton() {
    return this.page.getByRole('button', { name: Strings.cancel });
  }

  /** The command once the server answered. */
  async commandText(): Promise<string> {
    await this.command().waitFor();
    return (await this.command().textContent()) ?? '';
  }

  /** How often the page called window.close (counted by `countWindowClose`). */
  closeCalls(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __closeCalls?: number }).__closeCalls ?? 0);
  }
}

/**
 * An init script that counts window.close calls instead of closing: whether the page tried to
 * close itself is then a number to read, in every page of the context.
 */
export function countWindowClose(): void {
  const counted = window as unknown as { __closeCalls: number };
  counted.__closeCalls = 0;
  window.close = () => {
    counted.__closeCalls += 1;
  };
}
