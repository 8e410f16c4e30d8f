import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/server',
      'apps/demo-shop',
      'apps/todo-app',
      'apps/todomvc',
      'apps/web',
      'apps/web/vitest.unit.config.ts',
    ],
    // Integration tests boot a database and sometimes Chromium; two cores do not like many at once.
    maxWorkers: 2,
    // CI also writes a JSON report so .ci/run can print its "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/results.json' }]] : ['default'],
  },
});
