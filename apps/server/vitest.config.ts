import { defineConfig } from 'vitest/config';

// Integration tests boot a database per file and hash real passwords: give them room.
export default defineConfig({
  test: { name: 'server', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
