import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src/core/store/database.js';
import { MIGRATIONS } from '../../../src/core/store/migrations.js';
import { sql } from '../../../src/core/store/sql.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A test step whose SQL is the same on both engines. */
const step = (version: number, name: string, text: string) => ({
  version,
  name,
  sqlite: text,
  postgres: text,
});

describe('openDatabase', () => {
  it('creates the folder, uses WAL and foreign keys, and applies every migration once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-db-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'scout.db');
    const db = await openDatabase({ path });
    expect((await db.one<{ journal_mode: string }>(sql`PRAGMA journal_mode`))?.journal_mode).toBe('wal');
    expect((await db.one<{ foreign_keys: number }>(sql`PRAGMA foreign_keys`))?.foreign_keys).toBe(1);
    const versions = await db.all<{ version: number }>(
      sql`SELECT version FROM schema_migrations ORDER BY version`,
    );
    expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await db.close();
    const again = await openDatabase({ path });
    expect(await migrate(again, MIGRATIONS)).toEqual([]);
    await again.close();
  });

  it('applies new migrations in order and rolls back a failing one', async () => {
    const db = await openDatabase({ path: ':memory:', migrations: [] });
    const steps = [step(1, 'a', 'CREATE TABLE a (x INTEGER)'), step(2, 'b', 'CREATE TABLE b (x INTEGER)')];
    expect(await migrate(db, steps)).toEqual([1, 2]);
    await expect(
      migrate(db, [...steps, step(3, 'bad', 'CREATE TABLE c (x INTEGER); SELECT nope FROM missing')]),
    ).rejects.toThrow();
    const tables = await db.all(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'c'`);
    expect(tables).toEqual([]);
    expect((await db.one<{ v: number }>(sql`SELECT MAX(version) AS v FROM schema_migrations`))?.v).toBe(2);
    await db.close();
  });

  it('refuses out-of-order migrations and a database newer than the code', async () => {
    const db = await openDatabase({ path: ':memory:' });
    await expect(migrate(db, [step(2, 'b', ''), step(1, 'a', '')])).rejects.toThrow(/increasing/);
    await expect(migrate(db, [])).rejects.toThrow(/newer than this Scout/);
    await db.close();
  });
});
