import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure modules (`src/**/*.test.ts`): plain Node, no browser, no server,
// no build. The browser end-to-end tests are the `web` project (vitest.config.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'web-unit',
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
