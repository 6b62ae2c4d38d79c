/**
 * The ledger's counter, which orders paid calls' sends and answers across processes sharing the database (see
 * ledger-settle.ts), and how a write that failed for want of space is told apart.
 */
import { InternalError } from '../errors.js';
import { type Sql, sql } from './sql.js';

/**
 * Advances the ledger's counter and returns the new tick. One statement, so processes sharing the database never
 * get the same tick (on PostgreSQL the row stays locked until the caller's transaction, if any, ends).
 */
export async function nextTick(db: Sql): Promise<number> {
  const row = await db.one<{ tick: number }>(
    sql`UPDATE ledger_clock SET tick = tick + 1 WHERE id = 1 RETURNING tick`,
  );
  if (row === undefined) throw new InternalError('The ledger clock is missing (ledger_clock has no row 1).');
  return Number(row.tick);
}

const SQLITE_FULL = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR_WRITE',
  'SQLITE_IOERR_FSYNC',
  'SQLITE_IOERR_SHMSIZE',
]);

/** PostgreSQL's SQLSTATE disk_full (class 53, insufficient resources). */
const POSTGRES_DISK_FULL = '53100';

/** Whether an error says the database could not grow: the disk (or its quota) is full. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (SQLITE_FULL.has(code) || code === POSTGRES_DISK_FULL);
}
