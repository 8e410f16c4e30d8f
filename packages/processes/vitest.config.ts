import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'processes', include: ['src/**/*.test.ts'], testTimeout: 60000, hookTimeout: 60000 },
});
