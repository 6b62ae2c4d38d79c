import { defineConfig } from 'vitest/config';

/**
 * The suite that needs PostgreSQL and Redis (SCOUT_TEST_DATABASE_URL, SCOUT_TEST_REDIS_URL; the local servers by
 * default): the store's contract on PostgreSQL and several Scout processes sharing them. `npm run test:scale`.
 */
export default defineConfig({
  test: {
    // The store's tests again, now on PostgreSQL (test/core/store/engine.ts): one contract for both engines.
    include: ['test/scale/**/*.test.ts', 'test/core/store/*.test.ts'],
    // SQLite's own file: its options are SQLite's, tested by `npm test`; PostgreSQL's are in test/scale.
    exclude: ['test/core/store/database.test.ts'],
    env: { SCOUT_TEST_ENGINE: 'postgres' },
    pool: 'forks',
    // The scale tests share one PostgreSQL server: one file at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
