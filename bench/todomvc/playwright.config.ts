import { defineConfig } from '@playwright/test';

/** Playwright Test on the TodoMVC the bench serves (TODOMVC_URL), in the Chromium the machine has (CHROMIUM_PATH). */
export default defineConfig({
  testDir: '.',
  testMatch: 'demo-todo-app.spec.ts',
  workers: 1,
  reporter: [['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'results.json' }]],
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: process.env.TODOMVC_URL,
    headless: true,
    launchOptions: {
      ...(process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    },
  },
});
