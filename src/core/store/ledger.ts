/** The credit ledger: one row per paid service call, attributed to the person (or job owner) who caused it. */
import type { Statement } from 'better-sqlite3';
import type { Platform } from '../actor.js';
import type { Db } from './database.js';

/** Where a call came from. */
export type LedgerPlatform = Platform;

/** Who a call is attributed to. */
export interface LedgerActor {
  platform: LedgerPlatform;
  workspaceId: string;
  userId: string;
}

/** One paid call. */
export interface LedgerEntry extends LedgerActor {
  at: Date;
  operation: string;
  command?: string | null;
  units: number;
  credits: number;
  balance: number | null;
  /** Unique per paid call: recording the same key twice keeps the first row only. */
  idempotencyKey: string;
}

/** A row as stored. */
export interface LedgerRow extends LedgerEntry {
  id: number;
}

/** A sum of credits for one group of a breakdown. */
export interface SpendGroup {
  key: string;
  credits: number;
  calls: number;
}

/** A time range, start inclusive, end exclusive. */
export interface TimeRange {
  from: Date;
  to: Date;
}

/** Reads and writes the credit ledger. */
export interface Ledger {
  /** Records a paid call; false when a row with the same idempotency key exists already. */
  record(entry: LedgerEntry): boolean;
  /** The row recorded under an idempotency key, if any. */
  find(idempotencyKey: string): LedgerRow | undefined;
  /** Credits spent by one person, or by the whole workspace when userId is omitted, within a range. */
  spent(scope: { platform: LedgerPlatform; workspaceId: string; userId?: string }, range: TimeRange): number;
  /** The workspace's spend in a range grouped by person, by command (or operation when no command) or by UTC day. */
  breakdown(
    scope: { platform: LedgerPlatform; workspaceId: string },
    range: TimeRange,
    by: 'user' | 'command' | 'day',
  ): SpendGroup[];
}

interface StoredRow {
  id: number;
  at: string;
  platform: LedgerPlatform;
  workspace_id: string;
  user_id: string;
  operation: string;
  command: string | null;
  units: number;
  credits: number;
  balance: number | null;
  idempotency_key: string;
}

const GROUP_EXPRESSIONS = {
  user: 'user_id',
  command: 'COALESCE(command, operation)',
  day: 'substr(at, 1, 10)',
} as const;

/** Creates the ledger repository over an open database. */
export function createLedger(db: Db): Ledger {
  const insert = db.prepare(`INSERT INTO credit_ledger
      (at, platform, workspace_id, user_id, operation, command, units, credits, balance, idempotency_key)
    VALUES (@at, @platform, @workspaceId, @userId, @operation, @command, @units, @credits, @balance, @idempotencyKey)
    ON CONFLICT (idempotency_key) DO NOTHING`);
  const byKey = db.prepare<[string], StoredRow>('SELECT * FROM credit_ledger WHERE idempotency_key = ?');
  const spentUser = db
    .prepare<[string, string, string, string, string], number>(
      `SELECT COALESCE(SUM(credits), 0) FROM credit_ledger
       WHERE platform = ? AND workspace_id = ? AND user_id = ? AND at >= ? AND at < ?`,
    )
    .pluck();
  const spentWorkspace = db
    .prepare<[string, string, string, string], number>(
      `SELECT COALESCE(SUM(credits), 0) FROM credit_ledger
       WHERE platform = ? AND workspace_id = ? AND at >= ? AND at < ?`,
    )
    .pluck();
  const breakdowns = Object.fromEntries(
    Object.entries(GROUP_EXPRESSIONS).map(([by, expression]) => [
      by,
      db.prepare<[string, string, string, string], SpendGroup>(
        `SELECT ${expression} AS key, SUM(credits) AS credits, COUNT(*) AS calls FROM credit_ledger
         WHERE platform = ? AND workspace_id = ? AND at >= ? AND at < ?
         GROUP BY key ORDER BY credits DESC, key ASC`,
      ),
    ]),
  ) as Record<keyof typeof GROUP_EXPRESSIONS, Statement<[string, string, string, string], SpendGroup>>;

  return {
    record(entry) {
      if (
        !Number.isInteger(entry.credits) ||
        entry.credits < 0 ||
        !Number.isInteger(entry.units) ||
        entry.units < 0
      ) {
        throw new RangeError('Ledger units and credits must be non-negative integers.');
      }
      const result = insert.run({
        at: entry.at.toISOString(),
        platform: entry.platform,
        workspaceId: entry.workspaceId,
        userId: entry.userId,
        operation: entry.operation,
        command: entry.command ?? null,
        units: entry.units,
        credits: entry.credits,
        balance: entry.balance,
        idempotencyKey: entry.idempotencyKey,
      });
      return result.changes === 1;
    },
    find(idempotencyKey) {
      const row = byKey.get(idempotencyKey);
      return row === undefined ? undefined : fromStored(row);
    },
    spent(scope, range) {
      const from = range.from.toISOString();
      const to = range.to.toISOString();
      return scope.userId === undefined
        ? (spentWorkspace.get(scope.platform, scope.workspaceId, from, to) ?? 0)
        : (spentUser.get(scope.platform, scope.workspaceId, scope.userId, from, to) ?? 0);
    },
    breakdown(scope, range, by) {
      return breakdowns[by].all(
        scope.platform,
        scope.workspaceId,
        range.from.toISOString(),
        range.to.toISOString(),
      );
    },
  };
}

function fromStored(row: StoredRow): LedgerRow {
  return {
    id: row.id,
    at: new Date(row.at),
    platform: row.platform,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    operation: row.operation,
    command: row.command,
    units: row.units,
    credits: row.credits,
    balance: row.balance,
    idempotencyKey: row.idempotency_key,
  };
}
