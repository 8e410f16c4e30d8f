import type { Page } from 'playwright-core';

/** The Administration area (instance administrators). Words are pinned here literally, as users read them. */
export class AdminPageModel {
  constructor(private readonly page: Page) {}

  async open(tab: 'users' | 'projects' | 'workers' | 'sign-up' | 'sessions-and-jobs' | 'activity'): Promise<void> {
    await this.page.goto(`/admin/${tab}`);
    await this.page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor();
  }

  /** The labelled way in from a project's top bar (instance administrators only). */
  shellLink() {
    return this.page.getByRole('link', { name: 'Administration', exact: true });
  }

  tab(name: 'Users' | 'Projects' | 'Workers' | 'Sign-up' | 'Sessions & jobs' | 'Activity') {
    return this.page.getByRole('navigation', { name: 'Administration sections' }).getByRole('link', { name, exact: true });
  }

  table(name: 'Users' | 'Projects' | 'Connected agents' | 'Worker tokens' | 'Activity') {
    return this.page.getByRole('table', { name, exact: true });
  }

  /** The table row holding `text` (a user's email, a project's name). */
  row(table: 'Users' | 'Projects' | 'Connected agents' | 'Worker tokens' | 'Activity', text: string) {
    return this.table(table).getByRole('row').filter({ hasText: text });
  }

  dialog(testId: 'admin-user-dialog' | 'admin-disable-dialog' | 'admin-extend-dialog' | 'admin-project-dialog' | 'admin-token-dialog') {
    return this.page.getByTestId(testId);
  }
}
