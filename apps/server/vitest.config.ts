import { defineConfig } from 'vitest/config';
import { SHARED_WORKER_MODULES } from '../../vitest.shared.js';

// Integration tests boot a database per file and hash real passwords: give them room.
export default defineConfig({
  test: { ...SHARED_WORKER_MODULES, name: 'server', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
