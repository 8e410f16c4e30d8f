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
    // Two files more than cores: most files start a server, a database and often Chromium, and
    // spend much of their time waiting on them (the job-deadline files use a third of a core over
    // 70-95 s, the web e2e files 40 % of their two workers' CPU), so more files than cores fill that
    // wait. The whole suite back to back on a 2-core machine: 2 workers 1349 s (72 % busy), 3 workers
    // 1078 s (88 %); on a later one 3 workers 1180 s (91 %), 4 workers 980 s (97 %), 2216 tests passing.
    maxWorkers: availableParallelism() + 2,
    // CI also writes a JSON report so .ci/run can print its "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/results.json' }]] : ['default'],
  },
});
