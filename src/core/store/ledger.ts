/**
 * The credit ledger: one row per paid service call, attributed to the person (or job owner) who caused it. A call
 * is written before it is sent (at its estimate), so a crash or a lost answer never loses a charge; see
 * ledger-settle.ts for how a call whose answer was lost is settled from the balances the service reports.
 */
import type { Platform } from '../actor.js';
import { createChargeAnnouncer, type LedgerCharge } from './ledger-charges.js';
import { createSettlement, isStorageFull, nextTick, type SettledAs, settleAfter } from './ledger-settle.js';
import { HEARTBEAT_STALE_MS } from './processes.js';
import { type Sql, sql } from './sql.js';

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
  /** The request it shared with other people's calls, if any (see LedgerAnswer.request). */
  requestKey: string | null;
  /** How balances settled it, for a 'settled' row (see SettledAs); null otherwise. */
  settledAs: SettledAs | null;
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
  /**
   * The request the call shared with other calls (several people's profiles bought in one creators-get), when it
   * did: the same key on each of their rows, so their balances and a lost answer are read for the request as a whole.
   */
  request?: string;
}

/** What a paid call whose answer was lost may have cost, when it shared its request with other calls. */
export interface LedgerDoubt {
  /** Its own part of the request: at most its estimate. */
  credits: number;
  units: number;
  /** The request's key (see LedgerAnswer.request). */
  request: string;
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
  /** Records a paid call; resolves to false when a row with the same idempotency key exists already. */
  record(entry: LedgerEntry): Promise<boolean>;
  /** The row recorded under an idempotency key, if any. */
  find(idempotencyKey: string): Promise<LedgerRow | undefined>;
  /**
   * Writes a paid call before it is sent, at its estimate ('pending'); false when the key exists already. Rejects
   * when it cannot be written (the disk is full): then the call must not be sent.
   */
  intend(intent: LedgerIntent): Promise<boolean>;
  /**
   * Completes a pending call with what it cost, then settles what the reported balance allows. When the disk is
   * full the change is kept in memory (the row stays at its estimate) and written with the next one that works.
   */
  confirm(idempotencyKey: string, answer: LedgerAnswer): Promise<void>;
  /**
   * Marks a pending call that may have been charged without a readable answer (at `now`): it stays at its estimate,
   * or at its own part of a request it shared (`shared`).
   */
  doubt(idempotencyKey: string, now: Date, shared?: LedgerDoubt): Promise<void>;
  /** Forgets a pending call the service provably did not process (an error answer, or nothing sent). */
  cancel(idempotencyKey: string): Promise<void>;
  /** Completions kept in memory because the disk was full, waiting to be written; 0 when all are written. */
  unwritten(): number;
  /**
   * Writes the completions kept in memory, oldest first, as far as the disk allows; resolves to how many are left.
   * Never rejects for a full disk (they stay kept), so a periodic task can call it.
   */
  retryUnwritten(): Promise<number>;
  /** Calls `listener` with each charge the ledger counts (confirmed or settled); returns the function that stops it. */
  onCharge(listener: (charge: LedgerCharge) => void): () => void;
  /** A ledger tick to stamp a free call with before it is sent; see `reading`. */
  tick(): Promise<number>;
  /** A balance reported on an answer that cost nothing (sent at `sentTick`, `sentAt`), to settle unconfirmed calls. */
  reading(accountId: string, sentTick: number, sentAt: Date, balance: number): Promise<void>;
  /** Unconfirmed calls of a person or a workspace in a range, with the calls of processes that are gone. */
  unconfirmed(
    scope: { platform: LedgerPlatform; workspaceId: string; userId?: string },
    range: TimeRange,
    now: Date,
  ): Promise<Unconfirmed>;
  /** Credits spent by one person, or by the whole workspace when userId is omitted, within a range. */
  spent(
    scope: { platform: LedgerPlatform; workspaceId: string; userId?: string },
    range: TimeRange,
  ): Promise<number>;
  /** The workspace's spend in a range grouped by person, by command (or operation when no command) or by UTC day. */
  breakdown(
    scope: { platform: LedgerPlatform; workspaceId: string },
    range: TimeRange,
    by: 'user' | 'command' | 'day',
  ): Promise<SpendGroup[]>;
  /** The workspace's spend in a range per UTC day and person, days in order. */
  daily(scope: { platform: LedgerPlatform; workspaceId: string }, range: TimeRange): Promise<DailySpend[]>;
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
  request_key: string | null;
  settled_as: SettledAs | null;
}

const GROUP_EXPRESSIONS = {
  user: 'user_id',
  command: 'COALESCE(command, operation)',
  day: 'substr(at, 1, 10)',
} as const;

/** A completion of a pending call (confirm, doubt, cancel, reading): kept and retried when the disk is full. */
type Completion = () => Promise<void>;

/** Creates the ledger repository over an open database. */
export function createLedger(db: Sql): Ledger {
  const { announce, settling, onCharge } = createChargeAnnouncer(db);
  const cancelRow = (key: string) =>
    db.run(sql`DELETE FROM credit_ledger WHERE idempotency_key = ${key} AND state = 'pending'`);
  // Completions that could not be written (the disk was full), oldest first: written before anything else.
  const deferred: Completion[] = [];
  // The one run writing them, shared by every caller meanwhile, so none is written twice.
  let flushing: Promise<void> | null = null;
  const flush = (): Promise<void> => {
    if (flushing !== null) return flushing;
    if (deferred.length === 0) return Promise.resolve();
    flushing = (async () => {
      try {
        while (deferred.length > 0) {
          const next = deferred[0] as Completion;
          await next();
          deferred.shift();
        }
      } finally {
        flushing = null;
      }
    })();
    return flushing;
  };
  /** Runs a completion now, or keeps it for later when the disk is full. */
  const complete = async (write: Completion) => {
    try {
      await flush();
      await write();
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      deferred.push(write);
    }
  };
  /** The bounds of a range as stored. */
  const bounds = (range: TimeRange) => ({ from: range.from.toISOString(), to: range.to.toISOString() });

  return {
    async intend(intent) {
      await flush();
      const tick = await nextTick(db);
      const changes = await db.run(
        sql`INSERT INTO credit_ledger
              (at, platform, workspace_id, user_id, operation, command, units, credits, balance, idempotency_key,
               state, estimate, account_id, owner, sent_tick)
            VALUES (${intent.at.toISOString()}, ${intent.platform}, ${intent.workspaceId}, ${intent.userId},
               ${intent.operation}, ${intent.command ?? null}, ${intent.units}, ${intent.estimate}, NULL,
               ${intent.idempotencyKey}, 'pending', ${intent.estimate}, ${intent.accountId}, ${intent.owner}, ${tick})
            ON CONFLICT (idempotency_key) DO NOTHING`,
      );
      return changes === 1;
    },
    confirm(key, answer) {
      return complete(async () => {
        const row = await db.one<{
          sent_tick: number | null;
          account_id: string | null;
          at: string;
          operation: string;
        }>(
          sql`SELECT sent_tick, account_id, at, operation FROM credit_ledger WHERE idempotency_key = ${key}`,
        );
        if (row === undefined) return;
        const { account_id: accountId, sent_tick: sentTick } = row;
        const { balance } = answer;
        const request = answer.request ?? null;
        if (answer.credits === 0) {
          // Nothing charged: no row, but its balance still settles. The balance after a request shared with others is
          // read from their rows, which tell when that request was sent and answered (this row alone cannot).
          await cancelRow(key);
          if (balance !== null && accountId !== null && sentTick !== null && request === null)
            await settling(accountId, (tx) =>
              createSettlement(tx).reading(accountId, sentTick, new Date(row.at), balance),
            );
          return;
        }
        const done = await nextTick(db);
        const changes = await db.run(
          sql`UPDATE credit_ledger
              SET state = 'confirmed', credits = ${answer.credits}, units = ${answer.units},
                  balance = ${answer.balance}, done_tick = ${done}, request_key = ${request}
              WHERE idempotency_key = ${key} AND state = 'pending'`,
        );
        if (changes !== 1) return;
        announce({ operation: row.operation, credits: answer.credits, state: 'confirmed' });
        if (balance === null || accountId === null || sentTick === null) return;
        await settling(accountId, (tx) =>
          createSettlement(tx).observe(accountId, {
            sentTick,
            sentAt: new Date(row.at),
            doneTick: done,
            balance,
            cost: answer.credits,
            key,
            ...(request === null ? {} : { request }),
          }),
        );
      });
    },
    doubt(key, now, shared) {
      return complete(async () => {
        const tick = await nextTick(db);
        const part =
          shared === undefined
            ? sql``
            : sql`, credits = ${shared.credits}, units = ${shared.units}, request_key = ${shared.request}`;
        await db.run(
          sql`UPDATE credit_ledger SET state = 'unconfirmed', done_tick = ${tick}, settle_after = ${settleAfter(now)}${part}
              WHERE idempotency_key = ${key} AND state = 'pending'`,
        );
      });
    },
    cancel(key) {
      return complete(async () => {
        await cancelRow(key);
      });
    },
    tick: () => nextTick(db),
    reading(accountId, sentTick, sentAt, balance) {
      return complete(() =>
        settling(accountId, (tx) => createSettlement(tx).reading(accountId, sentTick, sentAt, balance)),
      );
    },
    unwritten: () => deferred.length,
    async retryUnwritten() {
      try {
        await flush();
      } catch (error) {
        if (!isStorageFull(error)) throw error;
      }
      return deferred.length;
    },
    onCharge,
    async unconfirmed(scope, range, now) {
      const { from, to } = bounds(range);
      const alive = new Date(now.getTime() - HEARTBEAT_STALE_MS).toISOString();
      const who = scope.userId === undefined ? sql`` : sql`AND user_id = ${scope.userId}`;
      const row = await db.one<Unconfirmed>(
        sql`SELECT COALESCE(SUM(credits), 0) AS "credits", COUNT(*) AS "calls"
            FROM credit_ledger WHERE platform = ${scope.platform} AND workspace_id = ${scope.workspaceId} ${who}
            AND at >= ${from} AND at < ${to}
            AND (state = 'unconfirmed' OR (state = 'pending' AND (owner IS NULL
              OR owner NOT IN (SELECT id FROM scout_processes WHERE heartbeat_at >= ${alive}))))`,
      );
      return { credits: Number(row?.credits ?? 0), calls: Number(row?.calls ?? 0) };
    },
    async record(entry) {
      if (
        !Number.isInteger(entry.credits) ||
        entry.credits < 0 ||
        !Number.isInteger(entry.units) ||
        entry.units < 0
      ) {
        throw new RangeError('Ledger units and credits must be non-negative integers.');
      }
      const changes = await db.run(
        sql`INSERT INTO credit_ledger
              (at, platform, workspace_id, user_id, operation, command, units, credits, balance, idempotency_key)
            VALUES (${entry.at.toISOString()}, ${entry.platform}, ${entry.workspaceId}, ${entry.userId},
              ${entry.operation}, ${entry.command ?? null}, ${entry.units}, ${entry.credits}, ${entry.balance},
              ${entry.idempotencyKey})
            ON CONFLICT (idempotency_key) DO NOTHING`,
      );
      return changes === 1;
    },
    async find(idempotencyKey) {
      const row = await db.one<StoredRow>(
        sql`SELECT * FROM credit_ledger WHERE idempotency_key = ${idempotencyKey}`,
      );
      return row === undefined ? undefined : fromStored(row);
    },
    async spent(scope, range) {
      const { from, to } = bounds(range);
      const who = scope.userId === undefined ? sql`` : sql`AND user_id = ${scope.userId}`;
      const row = await db.one<{ credits: number }>(
        sql`SELECT COALESCE(SUM(credits), 0) AS "credits" FROM credit_ledger
            WHERE platform = ${scope.platform} AND workspace_id = ${scope.workspaceId} ${who}
              AND at >= ${from} AND at < ${to}`,
      );
      return Number(row?.credits ?? 0);
    },
    breakdown(scope, range, by) {
      const { from, to } = bounds(range);
      const group = sql.raw(GROUP_EXPRESSIONS[by]);
      return db.all<SpendGroup>(
        sql`SELECT ${group} AS "key", SUM(credits) AS "credits", COUNT(*) AS "calls" FROM credit_ledger
            WHERE platform = ${scope.platform} AND workspace_id = ${scope.workspaceId} AND at >= ${from} AND at < ${to}
            GROUP BY ${group} ORDER BY SUM(credits) DESC, ${group} ASC`,
      );
    },
    daily(scope, range) {
      const { from, to } = bounds(range);
      return db.all<DailySpend>(
        sql`SELECT substr(at, 1, 10) AS "day", user_id AS "userId", SUM(credits) AS "credits" FROM credit_ledger
            WHERE platform = ${scope.platform} AND workspace_id = ${scope.workspaceId} AND at >= ${from} AND at < ${to}
            GROUP BY substr(at, 1, 10), user_id ORDER BY substr(at, 1, 10), user_id`,
      );
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
    requestKey: row.request_key ?? null,
    settledAs: row.settled_as ?? null,
  };
}
