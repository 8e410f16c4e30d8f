import { defineConfig } from 'vitest/config';
import { SHARED_WORKER_MODULES } from '../../vitest.shared.js';

export default defineConfig({
  test: { ...SHARED_WORKER_MODULES, name: 'recorder', include: ['src/**/*.test.ts'], testTimeout: 120000, hookTimeout: 120000 },
});
