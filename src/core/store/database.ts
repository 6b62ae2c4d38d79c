/**
 * Opens Scout's database, SQLite (a file, the default) or PostgreSQL (DATABASE_URL), and applies the ordered
 * migrations, each in its own transaction. Several processes may open one PostgreSQL database at once: they apply
 * migrations one at a time, under a lock every process shares.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { InternalError, ScoutError, SetupError } from '../errors.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { openPostgres, openSqlite, type Sql, type SqlDatabase, sql } from './sql.js';

/** An open database. */
export type Db = SqlDatabase;

/** Where the database is: a SQLite file path (':memory:' in tests) or a postgres:// URL. */
export type DatabaseLocation = { path: string } | { url: string };

/** Options of openDatabase. */
export type OpenDatabaseOptions = DatabaseLocation & {
  /** Migrations to apply; the project's own list by default. */
  migrations?: readonly Migration[];
};

/** The database cannot be used: its schema is newer than this Scout's, or it cannot be opened at all. */
export class DatabaseError extends ScoutError {
  override readonly name = 'DatabaseError';
  readonly code = 'DATABASE_UNUSABLE';
}

/** Whether `url` names a PostgreSQL database. */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/** Opens the database and brings its schema up to date. A database that cannot be brought up is closed again. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  let db: Db;
  if ('url' in options) {
    if (!isPostgresUrl(options.url))
      throw new SetupError('A database URL must start with postgres:// or postgresql://.');
    db = openPostgres(options.url);
  } else {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    db = openSqlite(options.path);
  }
  try {
    await migrate(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** The lock every process takes to change the schema. */
const MIGRATIONS_LOCK = 'scout schema migrations';

/** The newest schema version applied; 0 for none. */
export async function schemaVersion(db: Sql): Promise<number> {
  const row = await db.one<{ version: number | null }>(
    sql`SELECT MAX(version) AS "version" FROM schema_migrations`,
  );
  return Number(row?.version ?? 0);
}

/** Applies, in order and each in its own transaction, the migrations the database has not seen yet. */
export async function migrate(db: Sql, migrations: readonly Migration[]): Promise<number[]> {
  const versions = migrations.map((m) => m.version);
  if (versions.some((v, i) => i > 0 && v <= (versions[i - 1] ?? 0))) {
    throw new InternalError('Migrations must have strictly increasing versions.');
  }
  // Two processes creating the table at once collide on PostgreSQL: under the migrations' lock, one does.
  await db.transaction(async (tx) => {
    await tx.lock(MIGRATIONS_LOCK);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
  });
  const done: number[] = [];
  for (const migration of migrations) {
    const applied = await db.transaction(async (tx) => {
      // Another process migrating the same database waits here, then finds the step applied.
      await tx.lock(MIGRATIONS_LOCK);
      const rows = await tx.all<{ version: number }>(sql`SELECT version FROM schema_migrations`);
      const seen = new Set(rows.map((row) => Number(row.version)));
      const newest = Math.max(0, ...seen);
      if (newest > (versions.at(-1) ?? 0)) {
        throw new DatabaseError(
          `The database at schema version ${newest} is newer than this Scout (${versions.at(-1) ?? 0}); upgrade Scout.`,
        );
      }
      if (seen.has(migration.version)) return false;
      await tx.exec(db.dialect === 'postgres' ? migration.postgres : migration.sqlite);
      await tx.run(
        sql`INSERT INTO schema_migrations (version, name, applied_at)
            VALUES (${migration.version}, ${migration.name}, ${new Date().toISOString()})`,
      );
      return true;
    });
    if (applied) done.push(migration.version);
  }
  if (migrations.length === 0) {
    const newest = await schemaVersion(db);
    if (newest > 0) {
      throw new DatabaseError(
        `The database at schema version ${newest} is newer than this Scout (0); upgrade Scout.`,
      );
    }
  }
  return done;
}
