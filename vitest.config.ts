import { availableParallelism } from 'node:os';
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
    // One file more than cores: most files start a server, a database and often Chromium, and
    // spend much of their time waiting on them (the web e2e files use 40 % of their two workers'
    // CPU), so a third file on two cores fills that wait. The whole suite, back to back on a 2-core
    // machine: 2 workers 1349 s (72 % busy), 3 workers 1078 s (88 % busy), all 2208 tests passing.
    maxWorkers: availableParallelism() + 1,
    // CI also writes a JSON report so .ci/run can print its "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/results.json' }]] : ['default'],
  },
});
