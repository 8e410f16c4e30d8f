import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'todo-app', include: ['src/**/*.test.ts'] } });
