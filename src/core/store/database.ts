/** Opens Scout's SQLite database (better-sqlite3, WAL, foreign keys) and applies the ordered migrations. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.js';

/** A better-sqlite3 connection. */
export type Db = Database;

/** Options of openDatabase. */
export interface OpenDatabaseOptions {
  /** A file path, or ':memory:' (tests). The file's folder is created when missing. */
  path: string;
  /** Migrations to apply; the project's own list by default. */
  migrations?: readonly Migration[];
}

/** Opens the database, sets the pragmas Scout relies on and brings the schema up to date. */
export function openDatabase(options: OpenDatabaseOptions): Db {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new BetterSqlite3(options.path, { timeout: 5000 });
  // WAL lets readers and the single writer proceed together; https://github.com/WiseLibs/better-sqlite3/blob/master/docs/performance.md
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, options.migrations ?? MIGRATIONS);
  return db;
}

/** Applies, in order and each in its own transaction, the migrations the database has not seen yet. */
export function migrate(db: Db, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const versions = migrations.map((m) => m.version);
  if (versions.some((v, i) => i > 0 && v <= (versions[i - 1] ?? 0))) {
    throw new Error('Migrations must have strictly increasing versions.');
  }
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .pluck()
      .all()
      .map((v) => Number(v)),
  );
  const newest = Math.max(0, ...applied);
  if (newest > (versions.at(-1) ?? 0)) {
    throw new Error(
      `The database at schema version ${newest} is newer than this Scout (${versions.at(-1) ?? 0}); upgrade Scout.`,
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    done.push(migration.version);
  }
  return done;
}
