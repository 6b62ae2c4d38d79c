import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The suite on PostgreSQL and Redis runs with `npm run test:scale` (vitest.scale.config.ts).
    exclude: ['test/scale/**', '**/node_modules/**'],
    // better-sqlite3 is a native addon: process forks isolate it more safely than worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
