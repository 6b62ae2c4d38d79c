/**
 * Settling calls whose answer was lost. The service reports the key's balance on every answer, so a lost call's
 * real charge is the balance before it, minus the balance after the next answer, minus that answer's own cost,
 * when nothing else of the account ran in between and the lost call can no longer be processed (SETTLE_GRACE_MS
 * after it failed). Sends and answers are ordered by ticks of one counter in the database, so this holds across
 * processes sharing it.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * How long after its failure a lost call may still be processed, and so charged: a gateway's 504 or a client's
 * time-out does not stop the service's own work. Only answers to calls sent after this settle it.
 */
export const SETTLE_GRACE_MS = 120_000;

/** When a lost call failing at `failedAt` can first be settled. */
export function settleAfter(failedAt: Date): string {
  return new Date(failedAt.getTime() + SETTLE_GRACE_MS).toISOString();
}

/** An answer with a reported balance. */
export interface BalanceObservation {
  /** Tick taken before the call was sent. */
  sentTick: number;
  /** When it was sent. */
  sentAt: Date;
  /** Tick taken when its answer was read. */
  doneTick: number;
  balance: number;
  /** What the call itself cost. */
  cost: number;
  /** Its ledger row, for a paid call. */
  key?: string;
}

/** Settles unconfirmed calls from reported balances. */
export interface Settlement {
  /** Records the balance of an answer that cost nothing (sent at `sentTick`, `sentAt`), and settles what it can. */
  reading(accountId: string, sentTick: number, sentAt: Date, balance: number): void;
  /** Settles what an observed balance allows. */
  observe(accountId: string, observation: BalanceObservation): void;
}

/** Readings kept per account: the lost call is settled by the next answer, so only the latest few matter. */
const READINGS_KEPT = 20;

const SQLITE_FULL = new Set([
  'SQLITE_FULL',
  'SQLITE_IOERR_WRITE',
  'SQLITE_IOERR_FSYNC',
  'SQLITE_IOERR_SHMSIZE',
]);

/** Whether an error says the database could not grow: the disk (or its quota) is full. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SQLITE_FULL.has(code);
}

const tickStatements = new WeakMap<Db, Statement<[], number>>();

/** Advances the ledger's counter and returns the new tick. */
export function nextTick(db: Db): number {
  let statement = tickStatements.get(db);
  if (statement === undefined) {
    statement = db
      .prepare<[], number>('UPDATE ledger_clock SET tick = tick + 1 WHERE id = 1 RETURNING tick')
      .pluck();
    tickStatements.set(db, statement);
  }
  return statement.get() as number;
}

interface Between {
  id: number;
  state: string;
  credits: number;
  units: number;
  sent_tick: number;
  done_tick: number | null;
  settle_after: string | null;
}

interface Before {
  sent_tick: number;
  done_tick: number;
  balance: number;
  key: string | null;
}

/** Lost calls told apart by a difference only when few enough to try every combination. */
const MAX_LOST_TOGETHER = 12;

/**
 * Which of the lost calls were charged, each at nothing or its whole estimate, to make `total`: null unless exactly
 * one choice does (two 10-credit calls making 10 could be either, so neither settles).
 */
export function uniqueCharges(lost: ReadonlyArray<{ credits: number }>, total: number): number[] | null {
  if (lost.length === 0 || lost.length > MAX_LOST_TOGETHER) return null;
  let found: number[] | null = null;
  for (let mask = 0; mask < 2 ** lost.length; mask++) {
    const charges = lost.map((call, index) => (mask & (1 << index) ? call.credits : 0));
    if (charges.reduce((sum, c) => sum + c, 0) !== total) continue;
    if (found !== null) return null;
    found = charges;
  }
  return found;
}

/** Creates the settlement over an open database. */
export function createSettlement(db: Db): Settlement {
  const insertReading = db.prepare<[string, number, number, string, number]>(
    'INSERT INTO balance_readings (account_id, sent_tick, done_tick, sent_at, balance) VALUES (?, ?, ?, ?, ?)',
  );
  const trimReadings = db.prepare<[string, string, number]>(
    `DELETE FROM balance_readings WHERE account_id = ? AND id <= (
       SELECT id FROM balance_readings WHERE account_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
  );
  const hasOpen = db
    .prepare<[string], number>(
      "SELECT EXISTS (SELECT 1 FROM credit_ledger WHERE account_id = ? AND state = 'unconfirmed')",
    )
    .pluck();
  // The oldest unconfirmed call that was over (failed, and past its grace) before the observed call was sent.
  const oldestOpen = db.prepare<[string, number, string], { sent_tick: number }>(
    `SELECT sent_tick FROM credit_ledger
     WHERE account_id = ? AND state = 'unconfirmed' AND done_tick < ? AND settle_after <= ?
     ORDER BY sent_tick LIMIT 1`,
  );
  // The latest balance known before that call was sent: a reading, or a call with a known cost.
  const before = db.prepare<[string, number, string, number], Before>(
    `SELECT sent_tick, done_tick, balance, NULL AS key FROM (
       SELECT sent_tick, done_tick, balance FROM balance_readings
       WHERE account_id = ? AND done_tick < ? ORDER BY done_tick DESC LIMIT 1)
     UNION ALL
     SELECT sent_tick, done_tick, balance, key FROM (
       SELECT sent_tick, done_tick, balance, idempotency_key AS key FROM credit_ledger
       WHERE account_id = ? AND state IN ('confirmed', 'settled') AND balance IS NOT NULL AND done_tick < ?
       ORDER BY done_tick DESC LIMIT 1)
     ORDER BY done_tick DESC LIMIT 1`,
  );
  // Every other paid call of the account that ran (or may still run) between that balance and the observation.
  const between = db.prepare<[string, number, number, string, string], Between>(
    `SELECT id, state, credits, units, sent_tick, done_tick, settle_after FROM credit_ledger
     WHERE account_id = ? AND sent_tick IS NOT NULL AND sent_tick < ?
     AND (done_tick IS NULL OR done_tick > ?) AND idempotency_key NOT IN (?, ?)`,
  );
  // The balance after a settled call is not known when other calls ran beside it: it is left empty.
  const settle = db.prepare<[number, number, number]>(
    "UPDATE credit_ledger SET state = 'settled', credits = ?, units = ?, balance = NULL WHERE id = ? AND state = 'unconfirmed'",
  );
  const settleAll = db.transaction((calls: readonly Between[], charges: readonly number[]) => {
    calls.forEach((call, index) => {
      const charged = charges[index] as number;
      const units = charged === call.credits ? call.units : 0;
      settle.run(charged, units, call.id);
    });
  });

  const observe = (accountId: string, seen: BalanceObservation) => {
    if (hasOpen.get(accountId) !== 1) return;
    const sentAt = seen.sentAt.toISOString();
    const first = oldestOpen.get(accountId, seen.sentTick, sentAt);
    if (first === undefined) return;
    const known = before.get(accountId, first.sent_tick, accountId, first.sent_tick);
    if (known === undefined) return;
    const calls = between.all(accountId, seen.doneTick, known.sent_tick, seen.key ?? '', known.key ?? '');
    // Every call that ran between the two balances is wholly inside them (sent after the first was read, over
    // before the second was sent): the lost ones past their grace, the others with a known cost.
    const inside = (c: Between) =>
      c.sent_tick > known.done_tick && c.done_tick !== null && c.done_tick < seen.sentTick;
    const lost = calls.filter((c) => c.state === 'unconfirmed');
    const paid = calls.filter((c) => c.state !== 'unconfirmed');
    if (!calls.every(inside)) return;
    if (!lost.every((c) => c.settle_after !== null && c.settle_after <= sentAt)) return;
    if (!paid.every((c) => c.state === 'confirmed' || c.state === 'settled')) return;
    const paidCredits = paid.reduce((sum, c) => sum + c.credits, 0);
    const charged = known.balance - seen.balance - seen.cost - paidCredits;
    const estimates = lost.reduce((sum, c) => sum + c.credits, 0);
    // A difference that cannot be their charge settles nothing. (A top-up, or spending with the key outside Scout,
    // of exactly a lost call's estimate between the two balances would still be taken for it: Scout cannot see it.)
    if (!Number.isInteger(charged) || charged < 0 || charged > estimates) return;
    // A lost call settles at nothing or at its whole estimate: a difference in between could as well be a
    // smaller charge as a top-up made meanwhile, so it settles nothing (the call stays at its estimate).
    const charges = uniqueCharges(lost, charged);
    if (charges === null) return;
    settleAll(lost, charges);
  };

  return {
    reading(accountId, sentTick, sentAt, balance) {
      const doneTick = nextTick(db);
      insertReading.run(accountId, sentTick, doneTick, sentAt.toISOString(), balance);
      trimReadings.run(accountId, accountId, READINGS_KEPT);
      observe(accountId, { sentTick, sentAt, doneTick, balance, cost: 0 });
    },
    observe,
  };
}
