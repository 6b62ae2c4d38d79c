import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src/core/store/database.js';
import { MIGRATIONS } from '../../../src/core/store/migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('creates the folder, uses WAL and foreign keys, and applies every migration once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scout-db-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'scout.db');
    const db = openDatabase({ path });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    db.close();
    const again = openDatabase({ path });
    expect(migrate(again, MIGRATIONS)).toEqual([]);
    again.close();
  });

  it('applies new migrations in order and rolls back a failing one', () => {
    const db = openDatabase({ path: ':memory:', migrations: [] });
    const steps = [
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'b', sql: 'CREATE TABLE b (x INTEGER)' },
    ];
    expect(migrate(db, steps)).toEqual([1, 2]);
    expect(() =>
      migrate(db, [
        ...steps,
        { version: 3, name: 'bad', sql: 'CREATE TABLE c (x INTEGER); SELECT nope FROM missing' },
      ]),
    ).toThrow();
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'c'").all();
    expect(tables).toEqual([]);
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(2);
    db.close();
  });

  it('refuses out-of-order migrations and a database newer than the code', () => {
    const db = openDatabase({ path: ':memory:' });
    expect(() =>
      migrate(db, [
        { version: 2, name: 'b', sql: '' },
        { version: 1, name: 'a', sql: '' },
      ]),
    ).toThrow(/increasing/);
    expect(() => migrate(db, [])).toThrow(/newer than this Scout/);
    db.close();
  });
});
