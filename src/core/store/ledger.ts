/**
 * The credit ledger: one row per paid service call, attributed to the person (or job owner) who caused it. A call
 * is written before it is sent (at its estimate), so a crash or a lost answer never loses a charge; see
 * ledger-settle.ts for how a call whose answer was lost is settled from the balances the service reports.
 */
import type { Statement } from 'better-sqlite3';
import type { Platform } from '../actor.js';
import type { Db } from './database.js';
import { createChargeAnnouncer, type LedgerCharge } from './ledger-charges.js';
import { createSettlement, isStorageFull, nextTick, settleAfter } from './ledger-settle.js';
import { HEARTBEAT_STALE_MS } from './processes.js';

export type { LedgerCharge } from './ledger-charges.js';

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

/** How sure the ledger is of a row's credits. */
export type LedgerState = 'pending' | 'confirmed' | 'unconfirmed' | 'settled';

/** A row as stored. */
export interface LedgerRow extends LedgerEntry {
  id: number;
  state: LedgerState;
  /** The estimate written before the call; null for rows recorded after it. */
  estimate: number | null;
  accountId: string | null;
}

/** A paid call about to be sent. */
export interface LedgerIntent extends LedgerActor {
  at: Date;
  operation: string;
  command?: string | null;
  /** The most it can cost; counted as spent until the answer says what it cost. */
  estimate: number;
  /** Units at the estimate (items, or one request). */
  units: number;
  /** The service account charged. */
  accountId: string;
  /** The process sending it: if that process dies, the call becomes unconfirmed. */
  owner: string | null;
  idempotencyKey: string;
}

/** What a paid call's answer said it cost. */
export interface LedgerAnswer {
  credits: number;
  units: number;
  /** The balance the service reported after the call, when it did. */
  balance: number | null;
}

/** Credits that may have been charged without a readable answer. */
export interface Unconfirmed {
  credits: number;
  calls: number;
}

/** A sum of credits for one group of a breakdown. */
export interface SpendGroup {
  key: string;
  credits: number;
  calls: number;
}

/** Credits one person spent on one UTC day ("YYYY-MM-DD"). */
export interface DailySpend {
  day: string;
  userId: string;
  credits: number;
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
  /**
   * Writes a paid call before it is sent, at its estimate ('pending'); false when the key exists already. Throws
   * when it cannot be written (the disk is full): then the call must not be sent.
   */
  intend(intent: LedgerIntent): boolean;
  /**
   * Completes a pending call with what it cost, then settles what the reported balance allows. When the disk is
   * full the change is kept in memory (the row stays at its estimate) and written with the next one that works.
   */
  confirm(idempotencyKey: string, answer: LedgerAnswer): void;
  /** Marks a pending call that may have been charged without a readable answer (at `now`): it stays at its estimate. */
  doubt(idempotencyKey: string, now: Date): void;
  /** Forgets a pending call the service provably did not process (an error answer, or nothing sent). */
  cancel(idempotencyKey: string): void;
  /** Completions kept in memory because the disk was full, waiting to be written; 0 when all are written. */
  unwritten(): number;
  /**
   * Writes the completions kept in memory, oldest first, as far as the disk allows; returns how many are left.
   * Never throws for a full disk (they stay kept), so a periodic task can call it.
   */
  retryUnwritten(): number;
  /** Calls `listener` with each charge the ledger counts (confirmed or settled); returns the function that stops it. */
  onCharge(listener: (charge: LedgerCharge) => void): () => void;
  /** A ledger tick to stamp a free call with before it is sent; see `reading`. */
  tick(): number;
  /** A balance reported on an answer that cost nothing (sent at `sentTick`, `sentAt`), to settle unconfirmed calls. */
  reading(accountId: string, sentTick: number, sentAt: Date, balance: number): void;
  /** Unconfirmed calls of a person or a workspace in a range, with the calls of processes that are gone. */
  unconfirmed(
    scope: { platform: LedgerPlatform; workspaceId: string; userId?: string },
    range: TimeRange,
    now: Date,
  ): Unconfirmed;
  /** Credits spent by one person, or by the whole workspace when userId is omitted, within a range. */
  spent(scope: { platform: LedgerPlatform; workspaceId: string; userId?: string }, range: TimeRange): number;
  /** The workspace's spend in a range grouped by person, by command (or operation when no command) or by UTC day. */
  breakdown(
    scope: { platform: LedgerPlatform; workspaceId: string },
    range: TimeRange,
    by: 'user' | 'command' | 'day',
  ): SpendGroup[];
  /** The workspace's spend in a range per UTC day and person, days in order. */
  daily(scope: { platform: LedgerPlatform; workspaceId: string }, range: TimeRange): DailySpend[];
}

interface StoredRow {
  id: number;
  state: LedgerState;
  estimate: number | null;
  account_id: string | null;
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

  const dailyRows = db.prepare<[string, string, string, string], DailySpend>(
    `SELECT substr(at, 1, 10) AS day, user_id AS userId, SUM(credits) AS credits FROM credit_ledger
     WHERE platform = ? AND workspace_id = ? AND at >= ? AND at < ? GROUP BY day, userId ORDER BY day, userId`,
  );
  const intendRow = db.prepare(`INSERT INTO credit_ledger
      (at, platform, workspace_id, user_id, operation, command, units, credits, balance, idempotency_key,
       state, estimate, account_id, owner, sent_tick)
    VALUES (@at, @platform, @workspaceId, @userId, @operation, @command, @units, @estimate, NULL, @idempotencyKey,
       'pending', @estimate, @accountId, @owner, @tick)
    ON CONFLICT (idempotency_key) DO NOTHING`);
  const confirmRow = db.prepare<[number, number, number | null, number, string]>(
    `UPDATE credit_ledger SET state = 'confirmed', credits = ?, units = ?, balance = ?, done_tick = ?
     WHERE idempotency_key = ? AND state = 'pending'`,
  );
  const doubtRow = db.prepare<[number, string, string]>(
    `UPDATE credit_ledger SET state = 'unconfirmed', done_tick = ?, settle_after = ?
     WHERE idempotency_key = ? AND state = 'pending'`,
  );
  const cancelRow = db.prepare<[string]>(
    "DELETE FROM credit_ledger WHERE idempotency_key = ? AND state = 'pending'",
  );
  const sentTickOf = db.prepare<
    [string],
    { sent_tick: number | null; account_id: string | null; at: string; operation: string }
  >('SELECT sent_tick, account_id, at, operation FROM credit_ledger WHERE idempotency_key = ?');
  const unconfirmedSql = (who: string) => `SELECT COALESCE(SUM(credits), 0) AS credits, COUNT(*) AS calls
    FROM credit_ledger WHERE platform = ? AND workspace_id = ? ${who} AND at >= ? AND at < ?
    AND (state = 'unconfirmed' OR (state = 'pending' AND (owner IS NULL
      OR owner NOT IN (SELECT id FROM scout_processes WHERE heartbeat_at >= ?))))`;
  const unconfirmedUser = db.prepare<[string, string, string, string, string, string], Unconfirmed>(
    unconfirmedSql('AND user_id = ?'),
  );
  const unconfirmedWorkspace = db.prepare<[string, string, string, string, string], Unconfirmed>(
    unconfirmedSql(''),
  );
  const settlement = createSettlement(db);
  const { announce, settling, onCharge } = createChargeAnnouncer(db);
  // Completions that could not be written (the disk was full), oldest first: written before anything else.
  const deferred: Array<() => void> = [];
  const flush = () => {
    while (deferred.length > 0) {
      const next = deferred[0] as () => void;
      next();
      deferred.shift();
    }
  };
  /** Runs a completion now, or keeps it for later when the disk is full. */
  const complete = (write: () => void) => {
    try {
      flush();
      write();
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      deferred.push(write);
    }
  };

  return {
    intend(intent) {
      flush();
      const result = intendRow.run({
        at: intent.at.toISOString(),
        platform: intent.platform,
        workspaceId: intent.workspaceId,
        userId: intent.userId,
        operation: intent.operation,
        command: intent.command ?? null,
        units: intent.units,
        estimate: intent.estimate,
        idempotencyKey: intent.idempotencyKey,
        accountId: intent.accountId,
        owner: intent.owner,
        tick: nextTick(db),
      });
      return result.changes === 1;
    },
    confirm(key, answer) {
      complete(() => {
        const row = sentTickOf.get(key);
        if (row === undefined) return;
        if (answer.credits === 0) {
          // Nothing charged: no row, but its balance still settles.
          cancelRow.run(key);
          const { account_id: accountId, sent_tick: sentTick } = row;
          const { balance } = answer;
          if (balance !== null && accountId !== null && sentTick !== null)
            settling(accountId, () => settlement.reading(accountId, sentTick, new Date(row.at), balance));
          return;
        }
        const done = nextTick(db);
        if (confirmRow.run(answer.credits, answer.units, answer.balance, done, key).changes !== 1) return;
        announce({ operation: row.operation, credits: answer.credits, state: 'confirmed' });
        const { account_id: accountId, sent_tick: sentTick } = row;
        const { balance } = answer;
        if (balance === null || accountId === null || sentTick === null) return;
        settling(accountId, () =>
          settlement.observe(accountId, {
            sentTick,
            sentAt: new Date(row.at),
            doneTick: done,
            balance,
            cost: answer.credits,
            key,
          }),
        );
      });
    },
    doubt(key, now) {
      complete(() => {
        doubtRow.run(nextTick(db), settleAfter(now), key);
      });
    },
    cancel(key) {
      complete(() => {
        cancelRow.run(key);
      });
    },
    tick: () => nextTick(db),
    reading(accountId, sentTick, sentAt, balance) {
      complete(() => {
        settling(accountId, () => settlement.reading(accountId, sentTick, sentAt, balance));
      });
    },
    unwritten: () => deferred.length,
    retryUnwritten() {
      try {
        flush();
      } catch (error) {
        if (!isStorageFull(error)) throw error;
      }
      return deferred.length;
    },
    onCharge,
    unconfirmed(scope, range, now) {
      const from = range.from.toISOString();
      const to = range.to.toISOString();
      const alive = new Date(now.getTime() - HEARTBEAT_STALE_MS).toISOString();
      return scope.userId === undefined
        ? (unconfirmedWorkspace.get(scope.platform, scope.workspaceId, from, to, alive) as Unconfirmed)
        : (unconfirmedUser.get(
            scope.platform,
            scope.workspaceId,
            scope.userId,
            from,
            to,
            alive,
          ) as Unconfirmed);
    },
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
    daily(scope, range) {
      const { from, to } = range;
      return dailyRows.all(scope.platform, scope.workspaceId, from.toISOString(), to.toISOString());
    },
  };
}

function fromStored(row: StoredRow): LedgerRow {
  return {
    id: row.id,
    state: row.state,
    estimate: row.estimate,
    accountId: row.account_id,
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
