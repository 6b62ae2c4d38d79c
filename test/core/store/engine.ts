/**
 * The engine the store tests run on: SQLite in memory by default (`npm test`), PostgreSQL when
 * SCOUT_TEST_ENGINE=postgres (`npm run test:scale`, see vitest.scale.config.ts), so the same tests are the store's
 * contract on both. On PostgreSQL each database opened here lives in a schema of its own in the database at
 * SCOUT_TEST_DATABASE_URL, dropped when it is closed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Db, openDatabase } from '../../../src/core/store/database.js';
import { openStore, type Store, type StoreOptions } from '../../../src/core/store/index.js';

/** The engine of this run. */
export const ENGINE: 'sqlite' | 'postgres' =
  process.env.SCOUT_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The PostgreSQL database the scale tests use: the local server's `test` database unless set. */
export const TEST_DATABASE_URL =
  process.env.SCOUT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A fresh, empty place for a database: SQLite in memory (a file in a temporary folder when `shared`, so that
 * several connections, standing in for several processes, open the same one), or a new PostgreSQL schema; `drop`
 * removes it.
 */
export async function freshLocation(options: { shared?: boolean } = {}): Promise<{
  location: { path: string } | { url: string };
  drop(): Promise<void>;
}> {
  if (ENGINE === 'sqlite' && options.shared === true) {
    const dir = mkdtempSync(join(tmpdir(), 'scout-store-'));
    return {
      location: { path: join(dir, 'scout.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (ENGINE === 'sqlite') return { location: { path: ':memory:' }, drop: async () => {} };
  const schema = `scout_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { location: { url: url.toString() }, drop: () => adminQuery(`DROP SCHEMA ${schema} CASCADE`) };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A migrated database on this run's engine; closing it drops it. */
export async function openTestDatabase(): Promise<Db> {
  const place = await freshLocation();
  const db = await openDatabase(place.location);
  return withDrop(db, place.drop);
}

/** A store on this run's engine; closing it drops its database. */
export async function openTestStore(options: StoreOptions = {}): Promise<Store> {
  const place = await freshLocation();
  const store = await openStore(place.location, options);
  const close = store.close;
  return Object.assign(store, {
    async close() {
      await close();
      await place.drop();
    },
  });
}

function withDrop(db: Db, drop: () => Promise<void>): Db {
  const close = db.close;
  return Object.assign(db, {
    async close() {
      await close();
      await drop();
    },
  });
}
