import { defineConfig } from 'vitest/config';
import { PATIENT_POLLS, SHARED_WORKER_MODULES } from '../../vitest.shared.js';

// Integration tests boot a database per file and hash real passwords: give them room.
export default defineConfig({
  test: {
    ...SHARED_WORKER_MODULES,
    ...PATIENT_POLLS,
    name: 'server',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
