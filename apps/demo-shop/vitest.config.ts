import { defineConfig } from 'vitest/config';
import { SHARED_WORKER_MODULES } from '../../vitest.shared.js';

export default defineConfig({ test: { ...SHARED_WORKER_MODULES, name: 'demo-shop', include: ['src/**/*.test.ts'] } });
