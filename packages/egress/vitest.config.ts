import { defineConfig } from 'vitest/config';
import { SHARED_WORKER_MODULES } from '../../vitest.shared.js';

export default defineConfig({
  test: { ...SHARED_WORKER_MODULES, name: 'egress', include: ['src/**/*.test.ts'], testTimeout: 60000, hookTimeout: 60000 },
});
