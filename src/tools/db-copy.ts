/**
 * Moves a single-team installation's data from its SQLite database to a PostgreSQL database:
 * `npm run db:copy -- --to postgres://user:password@host:5432/scout [--from ./data/scout.db]`.
 *
 * The source (DATABASE_PATH, ./data/scout.db by default) is brought up to the current schema first; the target's
 * schema is created by the same migrations. The target must hold no data: the copy never merges. Every table is
 * copied in one PostgreSQL transaction, parents before the tables whose foreign keys name them, in batches; then each
 * identity column's sequence is set past the largest copied id, and the rows of every table are counted on both
 * sides before the transaction commits (a mismatch rolls it back). Stop Scout before copying: the source is read
 * in one transaction that holds SQLite's write lock, so a running Scout waits on it.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { databasePathOf, loadDotEnv, redactDatabaseUrl, urlPasswords } from '../config.js';
import { ScoutError } from '../core/errors.js';
import { type Db, isPostgresUrl, openDatabase } from '../core/store/database.js';
import { type Sql, sql } from '../core/store/sql.js';

/** Rows per INSERT, fewer for wide tables so one statement stays far below PostgreSQL's 65535 parameters. */
const BATCH_ROWS = 500;
const MAX_PARAMETERS = 30_000;

/** The table of applied migrations: each side keeps its own. */
const MIGRATIONS_TABLE = 'schema_migrations';

/** The lock two copies into one database take, so they do not interleave. */
const COPY_LOCK = 'scout db copy';

/** What the command was asked to do. */
export interface CopyArguments {
  from: string;
  to: string;
}

/** Reads `--to URL` and `--from PATH` (or `--to=URL`, `--from=PATH`); the source defaults to DATABASE_PATH. */
export function parseArguments(args: readonly string[], databasePath = databasePathOf()): CopyArguments {
  let from: string | undefined;
  let to: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (name !== '--to' && name !== '--from') throw new UsageError(`Unknown argument: ${arg}`);
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value.`);
    if (name === '--to') to = value;
    else from = value;
  }
  if (to === undefined) throw new UsageError('Name the PostgreSQL database to copy into with --to.');
  if (!isPostgresUrl(to)) {
    throw new UsageError(
      `--to must be a PostgreSQL URL such as postgres://user:password@host:5432/scout, not ${redactDatabaseUrl(to)}.`,
    );
  }
  return { from: from ?? databasePath, to };
}

/** A mistake in the command line: the usage is printed with it. */
export class UsageError extends ScoutError {
  override readonly name = 'UsageError';
  readonly code = 'INVALID_ARGUMENTS';
}

/** The copy cannot be made as the databases are; the target is left as it was, and no usage is printed. */
export class CopyError extends ScoutError {
  override readonly name = 'CopyError';
  readonly code = 'COPY_FAILED';
}

const USAGE =
  'Usage: npm run db:copy -- --to postgres://user:password@host:5432/scout [--from ./data/scout.db]';

/** One table as the source has it. */
interface TableInfo {
  name: string;
  columns: string[];
  /** Tables its foreign keys refer to. */
  parents: string[];
}

/** What was copied into one table. */
export interface TableCopy {
  table: string;
  rows: number;
}

/** Copies every table of `source` into the empty `target`; throws, leaving the target as it was, when it cannot. */
export async function copyDatabase(
  source: Db,
  target: Db,
  report: (line: string) => void = () => {},
): Promise<TableCopy[]> {
  if (source.dialect !== 'sqlite' || target.dialect !== 'postgres') {
    throw new CopyError('The copy goes from a SQLite database to a PostgreSQL database.');
  }
  // One read transaction on the source: a consistent snapshot even if something writes to the file meanwhile.
  return source.transaction((src) =>
    target.transaction(async (tx) => {
      await tx.lock(COPY_LOCK);
      const tables = inDependencyOrder(await sourceTables(src));
      await checkTarget(tx, tables);
      const copied: TableCopy[] = [];
      for (const table of tables) {
        const rows = await copyTable(src, tx, table);
        copied.push({ table: table.name, rows });
        report(`${table.name}: ${rows} row${rows === 1 ? '' : 's'} copied`);
      }
      await advanceSequences(tx, tables);
      await verifyCounts(src, tx, tables);
      return copied;
    }),
  );
}

/** The source's tables (without SQLite's own and the migrations table), with their columns and parents. */
async function sourceTables(src: Sql): Promise<TableInfo[]> {
  const names = await src.all<{ name: string }>(
    sql`SELECT name FROM sqlite_master
        WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ${MIGRATIONS_TABLE}
        ORDER BY name`,
  );
  const tables: TableInfo[] = [];
  for (const { name } of names) {
    const columns = await src.all<{ name: string; cid: number }>(
      sql`SELECT name, cid FROM pragma_table_info(${name}) ORDER BY cid`,
    );
    const keys = await src.all<{ table: string }>(
      sql`SELECT DISTINCT "table" AS "table" FROM pragma_foreign_key_list(${name})`,
    );
    tables.push({
      name,
      columns: columns.map((column) => column.name),
      parents: keys.map((key) => key.table).filter((parent) => parent !== name),
    });
  }
  return tables;
}

/** Parents before children (then by name); a cycle of foreign keys cannot be copied table by table. */
export function inDependencyOrder<T extends { name: string; parents: string[] }>(tables: readonly T[]): T[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: T, path: string[]) => {
    const seen = state.get(table.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      throw new CopyError(`The foreign keys of ${[...path, table.name].join(' -> ')} form a cycle.`);
    }
    state.set(table.name, 'visiting');
    for (const parent of table.parents) {
      const found = byName.get(parent);
      if (found === undefined)
        throw new CopyError(`${table.name} refers to ${parent}, which the source lacks.`);
      visit(found, [...path, table.name]);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table, []);
  return ordered;
}

/**
 * Checks that every source table and column exists on the target, and that the target holds no data: rows other
 * than those the migrations themselves insert (the ledger clock's), which are removed so the source's take their place.
 */
async function checkTarget(tx: Sql, tables: readonly TableInfo[]): Promise<void> {
  const rows = await tx.all<{ table_name: string; column_name: string }>(
    sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  const targetColumns = new Map<string, Set<string>>();
  for (const row of rows) {
    const columns = targetColumns.get(row.table_name) ?? new Set<string>();
    columns.add(row.column_name);
    targetColumns.set(row.table_name, columns);
  }
  const problems: string[] = [];
  for (const table of tables) {
    const columns = targetColumns.get(table.name);
    if (columns === undefined) {
      problems.push(`table ${table.name} is missing`);
      continue;
    }
    const missing = table.columns.filter((column) => !columns.has(column));
    if (missing.length > 0) problems.push(`${table.name} lacks column(s) ${missing.join(', ')}`);
  }
  if (problems.length > 0) {
    throw new CopyError(
      `The target's schema does not match the source's: ${problems.join('; ')}. Are both on the same Scout version?`,
    );
  }

  const seeded = await migrationRows(tables);
  const filled: string[] = [];
  for (const table of tables) {
    const present = await tableRows(tx, table);
    if (present.length === 0) continue;
    if (sameRows(present, seeded.get(table.name) ?? [])) continue;
    filled.push(`${table.name} (${present.length} row${present.length === 1 ? '' : 's'})`);
  }
  // Tables only the target has count too: it may be a newer Scout's database, or another application's.
  for (const name of targetColumns.keys()) {
    if (name === MIGRATIONS_TABLE || tables.some((table) => table.name === name)) continue;
    const count = await countRows(tx, name);
    if (count > 0) filled.push(`${name} (${count} row${count === 1 ? '' : 's'})`);
  }
  if (filled.length > 0) {
    throw new CopyError(
      `The target database already holds data, in ${filled.join(', ')}. The copy only fills an empty database: ` +
        'point --to at a new database (or drop its tables) and run it again.',
    );
  }
  for (const table of tables) {
    if ((seeded.get(table.name) ?? []).length > 0) await tx.run(sql`DELETE FROM ${sql.id(table.name)}`);
  }
}

/** The rows the migrations alone put in each table (the ledger clock's first tick), from a fresh in-memory database. */
async function migrationRows(tables: readonly TableInfo[]): Promise<Map<string, Record<string, unknown>[]>> {
  const fresh = await openDatabase({ path: ':memory:' });
  try {
    const names = new Set(
      (await fresh.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table'`)).map(
        (row) => row.name,
      ),
    );
    const seeded = new Map<string, Record<string, unknown>[]>();
    for (const table of tables) {
      if (names.has(table.name)) seeded.set(table.name, await tableRows(fresh, table));
    }
    return seeded;
  } finally {
    await fresh.close();
  }
}

/** Every row of a small table, in the source's columns. */
async function tableRows(db: Sql, table: TableInfo): Promise<Record<string, unknown>[]> {
  return db.all<Record<string, unknown>>(
    sql`SELECT ${sql.join(table.columns.map((column) => sql.id(column)))} FROM ${sql.id(table.name)}`,
  );
}

/** Whether two sets of rows hold the same values (numbers and their text compare equal). */
function sameRows(a: readonly Record<string, unknown>[], b: readonly Record<string, unknown>[]): boolean {
  const key = (row: Record<string, unknown>) =>
    JSON.stringify(Object.entries(row).map(([name, value]) => [name, value === null ? null : String(value)]));
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((value, i) => value === right[i]);
}

/** Copies one table in batches, in rowid order, reading a batch at a time; resolves to the rows copied. */
async function copyTable(src: Sql, tx: Sql, table: TableInfo): Promise<number> {
  const columns = table.columns.map((column) => sql.id(column));
  const batch = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)));
  let after: number | null = null;
  let copied = 0;
  for (;;) {
    const rows: Record<string, unknown>[] = await src.all<Record<string, unknown>>(
      sql`SELECT rowid AS "__copy_rowid", ${sql.join(columns)} FROM ${sql.id(table.name)}
          ${after === null ? sql`` : sql`WHERE rowid > ${after}`}
          ORDER BY rowid LIMIT ${batch}`,
    );
    if (rows.length === 0) return copied;
    const values = rows.map(
      (row) => sql`(${sql.join(table.columns.map((column) => toTarget(row[column], table, column)))})`,
    );
    try {
      await tx.run(sql`INSERT INTO ${sql.id(table.name)} (${sql.join(columns)}) VALUES ${sql.join(values)}`);
    } catch (error) {
      // Say where: PostgreSQL's own message names no table (a NUL character in a text, say).
      throw new CopyError(
        `Could not copy ${table.name} (rows after rowid ${after ?? 0}): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    copied += rows.length;
    after = Number(rows.at(-1)?.__copy_rowid);
  }
}

/** A SQLite value as PostgreSQL takes it: Scout stores only text, integers and NULL. */
function toTarget(value: unknown, table: TableInfo, column: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  throw new CopyError(
    `${table.name}.${column} holds a value Scout never stores (${typeof value}); it cannot be copied.`,
  );
}

/** Sets each identity column's sequence to the largest id copied, so the next row the target adds gets a new one. */
async function advanceSequences(tx: Sql, tables: readonly TableInfo[]): Promise<void> {
  const identities = await tx.all<{ table_name: string; column_name: string }>(
    sql`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  );
  const copied = new Set(tables.map((table) => table.name));
  for (const { table_name: table, column_name: column } of identities) {
    if (!copied.has(table)) continue;
    await tx.one(
      sql`SELECT setval(pg_get_serial_sequence(${quoteIdentifier(table)}, ${column}), MAX(${sql.id(column)}))
          FROM ${sql.id(table)} HAVING COUNT(*) > 0`,
    );
  }
}

/** An identifier as PostgreSQL reads it inside a regclass string (pg_get_serial_sequence's first argument). */
const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function countRows(db: Sql, table: string): Promise<number> {
  const row = await db.one<{ count: number }>(sql`SELECT COUNT(*) AS "count" FROM ${sql.id(table)}`);
  return Number(row?.count ?? 0);
}

/** Counts the rows of every table on both sides; throws (rolling the copy back) when any differ. */
async function verifyCounts(src: Sql, tx: Sql, tables: readonly TableInfo[]): Promise<void> {
  const mismatches: string[] = [];
  for (const table of tables) {
    const [from, to] = [await countRows(src, table.name), await countRows(tx, table.name)];
    if (from !== to) mismatches.push(`${table.name}: ${from} in SQLite, ${to} in PostgreSQL`);
  }
  if (mismatches.length > 0) {
    throw new CopyError(
      `The row counts differ after the copy, so nothing was kept: ${mismatches.join('; ')}.`,
    );
  }
}

/** `text` with every secret replaced. */
function mask(text: string, secrets: readonly string[]): string {
  return secrets.reduce((masked, secret) => masked.replaceAll(secret, '***'), text);
}

/** Runs the command; resolves to the exit code. */
export async function main(
  args: readonly string[] = process.argv.slice(2),
  out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  let secrets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--to') secrets = urlPasswords(args[i + 1] ?? '');
    else if (arg.startsWith('--to=')) secrets = urlPasswords(arg.slice('--to='.length));
  }
  let source: Db | undefined;
  let target: Db | undefined;
  try {
    const { from, to } = parseArguments(args);
    if (!existsSync(from)) {
      throw new CopyError(`No SQLite database at ${from}: name it with --from, or set DATABASE_PATH.`);
    }
    out(`Copying ${from} to ${redactDatabaseUrl(to)}`);
    source = await openDatabase({ path: from });
    try {
      target = await openDatabase({ url: to });
    } catch (error) {
      throw new CopyError(
        `Cannot open the PostgreSQL database ${redactDatabaseUrl(to)}: ${messageOf(error)}`,
      );
    }
    const copied = await copyDatabase(source, target, out);
    const total = copied.reduce((sum, table) => sum + table.rows, 0);
    out(
      `Copied ${total} row${total === 1 ? '' : 's'} in ${copied.length} tables; the row counts match on both sides.`,
    );
    out('Set DATABASE_URL to the target to run Scout on PostgreSQL.');
    return 0;
  } catch (error) {
    err(mask(`db:copy: ${messageOf(error)}`, secrets));
    if (error instanceof UsageError) err(USAGE);
    return 1;
  } finally {
    await target?.close().catch(() => undefined);
    await source?.close().catch(() => undefined);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return [...new Set(error.errors.map(messageOf))].join('; ');
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  loadDotEnv();
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${messageOf(error)}\n`);
      process.exitCode = 1;
    },
  );
}
