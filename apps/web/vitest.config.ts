import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { PATIENT_POLLS, SHARED_WORKER_MODULES } from '../../vitest.shared.js';

// Browser end-to-end tests: they serve the built `dist/` (built first when missing) from the real
// server started in-process with its own database, then drive Chromium.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    ...SHARED_WORKER_MODULES,
    name: 'web',
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    ...PATIENT_POLLS,
  },
});
