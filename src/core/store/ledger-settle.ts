/**
 * Settling calls whose answer was lost. The service reports the key's balance on every answer, so a lost call's
 * real charge is the balance before it, minus the balance after the next answer, minus that answer's own cost,
 * when nothing else of the account ran in between. Sends and answers are ordered by ticks of one counter in the
 * database, so this holds across processes sharing it.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/** An answer with a reported balance. */
export interface BalanceObservation {
  /** Tick taken before the call was sent. */
  sentTick: number;
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
  /** Records the balance of an answer that cost nothing, and settles what it can. */
  reading(accountId: string, sentTick: number, balance: number): void;
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

interface Lost {
  id: number;
  state: string;
  credits: number;
  units: number;
  done_tick: number | null;
}

interface Before {
  sent_tick: number;
  done_tick: number;
  balance: number;
  key: string | null;
}

/** Creates the settlement over an open database. */
export function createSettlement(db: Db): Settlement {
  const insertReading = db.prepare<[string, number, number, number]>(
    'INSERT INTO balance_readings (account_id, sent_tick, done_tick, balance) VALUES (?, ?, ?, ?)',
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
  // The oldest unconfirmed call whose failure was known before the observed call was sent.
  const oldestOpen = db.prepare<[string, number], { sent_tick: number }>(
    `SELECT sent_tick FROM credit_ledger
     WHERE account_id = ? AND state = 'unconfirmed' AND done_tick < ? ORDER BY sent_tick LIMIT 1`,
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
  const between = db.prepare<[string, number, number, string, string], Lost>(
    `SELECT id, state, credits, units, done_tick FROM credit_ledger
     WHERE account_id = ? AND sent_tick IS NOT NULL AND sent_tick < ?
     AND (done_tick IS NULL OR done_tick > ?) AND idempotency_key NOT IN (?, ?)`,
  );
  const settle = db.prepare<[number, number, number, number]>(
    "UPDATE credit_ledger SET state = 'settled', credits = ?, units = ?, balance = ? WHERE id = ? AND state = 'unconfirmed'",
  );
  const settleAll = db.transaction((calls: readonly Lost[], charges: readonly number[], balance: number) => {
    calls.forEach((call, index) => {
      const charged = charges[index] as number;
      // Units follow credits: a per-item call charges one credit per unit, a fixed price is all or nothing.
      const units = charged === call.credits ? call.units : Math.min(call.units, charged);
      settle.run(charged, units, balance, call.id);
    });
  });

  const observe = (accountId: string, seen: BalanceObservation) => {
    if (hasOpen.get(accountId) !== 1) return;
    const first = oldestOpen.get(accountId, seen.sentTick);
    if (first === undefined) return;
    const known = before.get(accountId, first.sent_tick, accountId, first.sent_tick);
    if (known === undefined) return;
    const calls = between.all(accountId, seen.doneTick, known.sent_tick, seen.key ?? '', known.key ?? '');
    // Only lost calls, all over before the observed call was sent: anything else makes the difference ambiguous.
    if (calls.some((c) => c.state !== 'unconfirmed' || c.done_tick === null || c.done_tick >= seen.sentTick))
      return;
    const charged = known.balance - seen.balance - seen.cost;
    const estimates = calls.reduce((sum, c) => sum + c.credits, 0);
    let charges: number[];
    if (calls.length === 1) charges = [charged];
    // Several lost calls in a row: the difference tells them apart only when all or none were charged.
    else if (charged === estimates) charges = calls.map((c) => c.credits);
    else if (charged === 0) charges = calls.map(() => 0);
    else return;
    // A balance that does not fit (a top-up, spending elsewhere with the same key) settles nothing.
    if (!Number.isInteger(charged) || charged < 0 || charged > estimates) return;
    settleAll(calls, charges, seen.balance + seen.cost);
  };

  return {
    reading(accountId, sentTick, balance) {
      const doneTick = nextTick(db);
      insertReading.run(accountId, sentTick, doneTick, balance);
      trimReadings.run(accountId, accountId, READINGS_KEPT);
      observe(accountId, { sentTick, doneTick, balance, cost: 0 });
    },
    observe,
  };
}
