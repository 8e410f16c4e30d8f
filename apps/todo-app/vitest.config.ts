import { defineConfig } from 'vitest/config';
import { PATIENT_POLLS, SHARED_WORKER_MODULES } from '../../vitest.shared.js';

export default defineConfig({ test: { ...SHARED_WORKER_MODULES, ...PATIENT_POLLS, name: 'todo-app', include: ['src/**/*.test.ts'] } });
