import type { Page } from 'playwright-core';
import { Strings } from '../../src/lib/strings';

/** The reports list and the run / scenario report screens. */
export class ReportPageModel {
  constructor(private readonly page: Page) {}

  rows() {
    return this.page.getByTestId('report-row');
  }

  search() {
    return this.page.getByRole('searchbox', { name: Strings.reportsSearch });
  }

  select(label: string) {
    return this.page.getByLabel(label, { exact: true });
  }

  steps() {
    return this.page.getByTestId('step');
  }

  selectedStep() {
    return this.page.locator('[data-testid="step"][data-selected]');
  }

  commands() {
    return this.page.getByTestId('command');
  }

  currentCommand() {
    return this.page.locator('[data-testid="command"][aria-current]');
  }

  tab(label: string) {
    return this.page.getByRole('tab', { name: label, exact: true });
  }

  async selectedTab(): Promise<string | null> {
    return this.page.getByRole('tab', { selected: true }).textContent();
  }

  detail() {
    return this.page.getByRole('region', { name: Strings.reportDetails });
  }
}
