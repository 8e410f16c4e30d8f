import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'demo-shop', include: ['src/**/*.test.ts'] } });
