import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: they expect a built `dist/` (npm run build --workspace apps/web) and
// start the real server in-process with its own database, then drive Chromium.
export default defineConfig({
  test: { name: 'web', include: ['e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
});
