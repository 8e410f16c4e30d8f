import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'todomvc', include: ['src/**/*.test.ts'] } });
