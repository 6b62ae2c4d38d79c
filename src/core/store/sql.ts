/**
 * One asynchronous way to run SQL on either engine Scout stores its state in: SQLite (better-sqlite3, the embedded
 * default) or PostgreSQL (node-postgres, a pool). Queries are Kysely's `sql` templates: readable SQL whose
 * interpolated values become parameters of the engine's own kind (`?` or `$1`). Write SQL both engines accept
 * (`ON CONFLICT ... DO NOTHING`, `COALESCE`, quoted aliases such as `AS "userId"`); where they differ, branch on
 * `dialect`.
 */
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresDialect,
  type RawBuilder,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
  type Transaction,
} from 'kysely';
import { nodePostgres } from './node-postgres.js';

export { sql };

/** The engine behind a Sql. */
export type Dialect = 'sqlite' | 'postgres';

// Queries are raw SQL templates: no table types are declared to Kysely.
type Tables = Record<string, never>;

/** A database, or one transaction on it. */
export interface Sql {
  readonly dialect: Dialect;
  /** Every row of a query. */
  all<R>(query: RawBuilder<R>): Promise<R[]>;
  /** The first row of a query, or undefined. */
  one<R>(query: RawBuilder<R>): Promise<R | undefined>;
  /** Runs a statement; the number of rows it inserted, changed or deleted. */
  run(query: RawBuilder<unknown>): Promise<number>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Inside a transaction
   * it joins that one. On SQLite the transaction takes the write lock at once (BEGIN IMMEDIATE), so two processes
   * on one file never deadlock upgrading a read.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits for, then holds until it ends, a lock named `key` that every process on the
   * database shares (PostgreSQL's transaction-level advisory lock). On SQLite a write transaction is already
   * exclusive, so there is nothing to wait for.
   */
  lock(key: string): Promise<void>;
}

/** An open database: a Sql that can be closed. */
export interface SqlDatabase extends Sql {
  /** Whether it is still open. */
  readonly open: boolean;
  close(): Promise<void>;
}

/** Values given in one `IN (...)` list: far below both engines' limits on parameters. */
const IN_CHUNK = 500;

/**
 * Which of `values` a query finds: `query` is run with the values in lists of at most IN_CHUNK (for
 * `column IN (${sql.join(part)})`) and answers the matching values in a column `value`. Order and duplicates of
 * `values` are kept.
 */
export async function whichOf(
  db: Sql,
  values: readonly string[],
  query: (part: readonly string[]) => RawBuilder<{ value: string }>,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let at = 0; at < values.length; at += IN_CHUNK) {
    for (const row of await db.all(query(values.slice(at, at + IN_CHUNK)))) found.add(row.value);
  }
  return new Set(values.filter((value) => found.has(value)));
}

/** PostgreSQL type ids node-postgres would hand over as strings. */
const INT8 = 20;
const NUMERIC = 1700;

/** COUNT(*), SUM(...) and BIGINT columns come back as numbers, as on SQLite (Scout's integers are far below 2^53). */
const types = {
  getTypeParser(id: number, format?: 'text' | 'binary') {
    if (id === INT8 || id === NUMERIC) return (value: string) => Number(value);
    return nodePostgres().types.getTypeParser(id, format);
  },
};

/**
 * BEGIN IMMEDIATE instead of Kysely's deferred BEGIN (see Sql.transaction); and no ROLLBACK of a transaction SQLite
 * already ended itself (a full disk ends it), whose "no transaction is active" would hide the error that ended it.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #database: SqliteDatabase & { readonly inTransaction: boolean };
  constructor(database: SqliteDatabase & { readonly inTransaction: boolean }) {
    super({ database });
    this.#database = database;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#database.inTransaction) await super.rollbackTransaction(connection);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase & { readonly inTransaction: boolean };
  constructor(database: SqliteDatabase & { readonly inTransaction: boolean }) {
    super({ database });
    this.#database = database;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#database);
  }
  override createAdapter() {
    return new SqliteAdapter();
  }
}

type Executor = Kysely<Tables> | Transaction<Tables>;

/** How a script runs outside a transaction, and inside one (on its connection). */
interface Scripts {
  outside(script: string): Promise<void>;
  inside(tx: Transaction<Tables>, script: string): Promise<void>;
}

function sqlOn(dialect: Dialect, executor: Executor, scripts: Scripts, tx: Transaction<Tables> | null): Sql {
  const self: Sql = {
    dialect,
    async all<R>(query: RawBuilder<R>) {
      return (await query.execute(executor)).rows;
    },
    async one<R>(query: RawBuilder<R>) {
      return (await query.execute(executor)).rows[0];
    },
    async run(query) {
      return Number((await query.execute(executor)).numAffectedRows ?? 0n);
    },
    exec: (script) => (tx === null ? scripts.outside(script) : scripts.inside(tx, script)),
    async transaction(work) {
      if (tx !== null) return work(self);
      return (executor as Kysely<Tables>)
        .transaction()
        .execute((inner) => work(sqlOn(dialect, inner, scripts, inner)));
    },
    async lock(key) {
      if (dialect === 'postgres') {
        await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(executor);
      }
    },
  };
  return self;
}

/** Runs a script on PostgreSQL: without parameters node-postgres sends it as one simple query, statements and all. */
async function runScript(executor: Executor, script: string): Promise<void> {
  await executor.executeQuery(CompiledQuery.raw(script, []));
}

/** Opens a SQLite database file (or ':memory:'), with the pragmas Scout relies on. */
export function openSqlite(path: string): SqlDatabase {
  const raw = new BetterSqlite3(path, { timeout: 5000 });
  // WAL lets readers and the single writer proceed together; https://github.com/WiseLibs/better-sqlite3/blob/master/docs/performance.md
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect(raw) });
  // better-sqlite3 runs a script of several statements only through exec, on its one connection: outside a
  // transaction the connection is taken from Kysely first, so no other query runs in between.
  const exec = async (script: string) => void raw.exec(script);
  const scripts: Scripts = {
    outside: (script) => kysely.connection().execute(() => exec(script)),
    inside: (_tx, script) => exec(script),
  };
  return closable(sqlOn('sqlite', kysely, scripts, null), kysely);
}

function closable(base: Sql, kysely: Kysely<Tables>): SqlDatabase {
  let open = true;
  return {
    ...base,
    get open() {
      return open;
    },
    async close() {
      if (!open) return;
      open = false;
      await kysely.destroy();
    },
  };
}

/** Options of openPostgres. */
export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number;
}

/** How long opening a PostgreSQL connection may take. */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long one query may take before it fails: far above any of Scout's, far below a person's patience. */
const QUERY_TIMEOUT_MS = 30_000;

/** Connects a pool to the PostgreSQL database at `url` (postgres://...). */
export function openPostgres(url: string, options: PostgresOptions = {}): SqlDatabase {
  const { Pool } = nodePostgres();
  const pool = new Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    // A server that stops answering fails the work waiting on it instead of holding it forever.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection the server closed (a restart, a failover, an idle timeout) is dropped by the pool and
  // replaced on next use; unheard, its error would end the process.
  pool.on('error', () => undefined);
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const scripts: Scripts = {
    outside: (script) => runScript(kysely, script),
    inside: (tx, script) => runScript(tx, script),
  };
  return closable(sqlOn('postgres', kysely, scripts, null), kysely);
}
