/**
 * The migrations on PostgreSQL. Needs a server: SCOUT_TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test by
 * default) names a database to connect to; the run creates its own scratch database there and drops it at the end.
 * Each test works in a schema of its own within that database.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/core/store/database.js';
import { MIGRATIONS } from '../../src/core/store/migrations.js';
import { openPostgres, type SqlDatabase, sql } from '../../src/core/store/sql.js';
import { TEST_DATABASE_URL } from '../core/store/engine.js';

const baseUrl = TEST_DATABASE_URL;
const database = `scout_test_${randomBytes(6).toString('hex')}`;
let admin: SqlDatabase;
const opened: SqlDatabase[] = [];

/** The URL of a fresh schema in the scratch database (search_path set for every connection). */
async function freshSchema(): Promise<string> {
  const schema = `s_${randomBytes(4).toString('hex')}`;
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  const setup = openPostgres(url.toString(), { max: 1 });
  await setup.exec(`CREATE SCHEMA ${schema}`);
  await setup.close();
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

function track<T extends SqlDatabase>(db: T): T {
  opened.push(db);
  return db;
}

/** A test step whose SQL is the same on both engines. */
const step = (version: number, name: string, text: string) => ({
  version,
  name,
  sqlite: text,
  postgres: text,
});

const appliedVersions = async (db: SqlDatabase) =>
  (await db.all<{ version: number }>(sql`SELECT version FROM schema_migrations ORDER BY version`)).map(
    (row) => row.version,
  );

beforeAll(async () => {
  admin = openPostgres(baseUrl, { max: 1 });
  await admin.exec(`CREATE DATABASE ${database}`);
});

afterAll(async () => {
  for (const db of opened.splice(0)) await db.close();
  if (!admin) return;
  await admin.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.close();
});

describe('migrations on PostgreSQL', () => {
  it('applies every migration once, and a second migrate applies nothing', async () => {
    const url = await freshSchema();
    const db = track(await openDatabase({ url }));
    expect(await appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db, MIGRATIONS)).toEqual([]);
    const again = track(await openDatabase({ url }));
    expect(await migrate(again, MIGRATIONS)).toEqual([]);
    expect(await appliedVersions(again)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('applies new migrations in order and rolls back a failing one', async () => {
    const db = track(await openDatabase({ url: await freshSchema(), migrations: [] }));
    const steps = [step(1, 'a', 'CREATE TABLE a (x BIGINT)'), step(2, 'b', 'CREATE TABLE b (x BIGINT)')];
    expect(await migrate(db, steps)).toEqual([1, 2]);
    await expect(
      migrate(db, [...steps, step(3, 'bad', 'CREATE TABLE c (x BIGINT); SELECT nope FROM missing')]),
    ).rejects.toThrow();
    const tables = await db.all(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'c'`,
    );
    expect(tables).toEqual([]);
    expect((await db.one<{ v: number }>(sql`SELECT MAX(version) AS v FROM schema_migrations`))?.v).toBe(2);
  });

  it('refuses out-of-order migrations and a database newer than the code', async () => {
    const db = track(await openDatabase({ url: await freshSchema() }));
    await expect(migrate(db, [step(2, 'b', ''), step(1, 'a', '')])).rejects.toThrow(/increasing/);
    await expect(migrate(db, [])).rejects.toThrow(/newer than this Scout/);
  });

  it('applies each migration exactly once when two connections migrate at the same time', async () => {
    const url = await freshSchema();
    const first = track(openPostgres(url, { max: 1 }));
    const second = track(openPostgres(url, { max: 1 }));
    const [a, b] = await Promise.all([migrate(first, MIGRATIONS), migrate(second, MIGRATIONS)]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await appliedVersions(first)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(second, MIGRATIONS)).toEqual([]);
  });
});
