/**
 * Settling calls whose answer was lost. The service reports the key's balance on every answer, so a lost call's
 * real charge is the balance before it, minus the balance after the next answer, minus that answer's own cost,
 * when nothing else of the account ran in between and the lost call can no longer be processed (SETTLE_GRACE_MS
 * after it failed). Sends and answers are ordered by ticks of one counter in the database, so this holds across
 * processes sharing it. Calls that shared one request (several people's profiles in one creators-get, their rows
 * carrying its `request_key`) are read as that request: charged together or not at all.
 */

import { InternalError } from '../errors.js';
import { type Sql, sql } from './sql.js';

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
  /** The request it shared with other calls, if any (their rows carry this key). */
  request?: string;
}

/**
 * Settles unconfirmed calls from reported balances. Each method runs in one transaction holding the account's
 * settlement lock (see settlementLock), joining the transaction it is called in, if any.
 */
export interface Settlement {
  /** Records the balance of an answer that cost nothing (sent at `sentTick`, `sentAt`), and settles what it can. */
  reading(accountId: string, sentTick: number, sentAt: Date, balance: number): Promise<void>;
  /** Settles what an observed balance allows. */
  observe(accountId: string, observation: BalanceObservation): Promise<void>;
}

/** Readings kept per account: the lost call is settled by the next answer, so only the latest few matter. */
const READINGS_KEPT = 20;

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

/**
 * The lock (Sql.lock) under which an account's unconfirmed calls are settled, so processes sharing the database
 * never settle (and announce) the same calls twice. Take it before any ledger tick in the same transaction.
 */
export const settlementLock = (accountId: string) => `ledger:settle:${accountId}`;

interface Between {
  id: number;
  key: string;
  request_key: string | null;
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
  request_key: string | null;
}

/**
 * One request to the service: a call's own, or one several people's calls shared (their rows carry its key). It
 * was sent after every one of its calls was written (`sent`, the latest of their send ticks) and answered before any
 * of them was completed (`done`, the earliest of their answer ticks; null while one is still in flight).
 */
interface Request {
  calls: Between[];
  sent: number;
  done: number | null;
  credits: number;
}

/** Groups calls into the requests that carried them. */
function requestsOf(calls: readonly Between[]): Request[] {
  const groups = new Map<string, Between[]>();
  for (const call of calls) {
    const id = call.request_key ?? `#${call.id}`;
    const group = groups.get(id);
    if (group === undefined) groups.set(id, [call]);
    else if (!group.some((c) => c.id === call.id)) group.push(call);
  }
  return [...groups.values()].map((group) => ({
    calls: group,
    sent: Math.max(...group.map((c) => Number(c.sent_tick))),
    done: group.some((c) => c.done_tick === null) ? null : Math.min(...group.map((c) => Number(c.done_tick))),
    credits: group.reduce((sum, c) => sum + Number(c.credits), 0),
  }));
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

const CALL_COLUMNS = sql`id, idempotency_key AS "key", request_key, state, credits, units, sent_tick, done_tick, settle_after`;

/** Creates the settlement over an open database (or a transaction on it). */
export function createSettlement(db: Sql): Settlement {
  /** The calls of `accountId` that shared one of `requests`. */
  const callsOf = (tx: Sql, accountId: string, requests: readonly string[]) =>
    requests.length === 0
      ? Promise.resolve([])
      : tx.all<Between>(
          sql`SELECT ${CALL_COLUMNS} FROM credit_ledger
              WHERE account_id = ${accountId} AND request_key IN (${sql.join(requests)})`,
        );

  /** Inside a transaction holding the account's settlement lock. */
  const observeIn = async (tx: Sql, accountId: string, seen: BalanceObservation) => {
    const open = await tx.one<{ open: number }>(
      sql`SELECT 1 AS "open" FROM credit_ledger WHERE account_id = ${accountId} AND state = 'unconfirmed' LIMIT 1`,
    );
    if (open === undefined) return;
    // An answer to a request shared by several calls is read as the request's: sent after all of them were written,
    // read before any was completed, costing what they cost together; a call of it still in flight leaves it unknown.
    let observed = { sentTick: seen.sentTick, sentAt: seen.sentAt, doneTick: seen.doneTick, cost: seen.cost };
    const skip = seen.key === undefined ? [] : [seen.key];
    if (seen.request !== undefined) {
      const shared = await tx.all<Between & { at: string }>(
        sql`SELECT ${CALL_COLUMNS}, at FROM credit_ledger
            WHERE account_id = ${accountId} AND request_key = ${seen.request}`,
      );
      if (shared.some((c) => c.state !== 'confirmed' && c.state !== 'settled')) return;
      const [request] = requestsOf(shared);
      if (request === undefined || request.done === null) return;
      const sentAt = shared.reduce((latest, c) => (c.at > latest ? c.at : latest), seen.sentAt.toISOString());
      observed = {
        sentTick: request.sent,
        sentAt: new Date(sentAt),
        doneTick: request.done,
        cost: request.credits,
      };
      skip.push(...shared.map((c) => c.key));
    }
    const sentAt = observed.sentAt.toISOString();
    // The oldest unconfirmed call that was over (failed, and past its grace) before the observed call was sent.
    const first = await tx.one<{ sent_tick: number }>(
      sql`SELECT sent_tick FROM credit_ledger
          WHERE account_id = ${accountId} AND state = 'unconfirmed' AND done_tick < ${observed.sentTick}
            AND settle_after <= ${sentAt}
          ORDER BY sent_tick LIMIT 1`,
    );
    if (first === undefined) return;
    // The latest balance known before that call was sent: a reading, or a call with a known cost.
    const latest = await tx.one<Before>(
      sql`SELECT sent_tick, done_tick, balance, CAST(NULL AS TEXT) AS "key", CAST(NULL AS TEXT) AS request_key FROM (
            SELECT sent_tick, done_tick, balance FROM balance_readings
            WHERE account_id = ${accountId} AND done_tick < ${first.sent_tick}
            ORDER BY done_tick DESC LIMIT 1) AS reading
          UNION ALL
          SELECT sent_tick, done_tick, balance, "key", request_key FROM (
            SELECT sent_tick, done_tick, balance, idempotency_key AS "key", request_key FROM credit_ledger
            WHERE account_id = ${accountId} AND state IN ('confirmed', 'settled') AND balance IS NOT NULL
              AND done_tick < ${first.sent_tick}
            ORDER BY done_tick DESC LIMIT 1) AS answer
          ORDER BY done_tick DESC LIMIT 1`,
    );
    if (latest === undefined) return;
    let known = { sent: Number(latest.sent_tick), done: Number(latest.done_tick), balance: latest.balance };
    if (latest.key !== null) skip.push(latest.key);
    // A balance read on a shared request's answer: that request, sent after all its calls, answered before any ended.
    if (latest.request_key !== null) {
      const shared = await callsOf(tx, accountId, [latest.request_key]);
      const [request] = requestsOf(shared);
      // (Its calls carry its key once completed, so none of them is in flight.)
      if (request !== undefined) known = { ...known, sent: request.sent, done: request.done ?? known.done };
      skip.push(...shared.map((c) => c.key));
    }
    // Every other paid call of the account that ran (or may still run) between that balance and the observation,
    // with every call of a request one of them shared.
    const found = await tx.all<Between>(
      sql`SELECT ${CALL_COLUMNS} FROM credit_ledger
          WHERE account_id = ${accountId} AND sent_tick IS NOT NULL AND sent_tick < ${observed.doneTick}
            AND (done_tick IS NULL OR done_tick > ${known.sent})
            AND idempotency_key NOT IN (${sql.join(['', ...skip])})`,
    );
    const sharedKeys = [...new Set(found.flatMap((c) => (c.request_key === null ? [] : [c.request_key])))];
    const ignored = new Set(skip);
    const siblings = (await callsOf(tx, accountId, sharedKeys)).filter((c) => !ignored.has(c.key));
    // A request over before the balance's request was sent, or sent after the observed answer was read, is outside.
    const requests = requestsOf([...found, ...siblings]).filter(
      (r) => r.sent < observed.doneTick && (r.done === null || r.done > known.sent),
    );
    // Every request that ran between the two balances is wholly inside them (sent after the first was read, over
    // before the second was sent): the lost ones past their grace, the others with a known cost.
    const inside = (r: Request) => r.sent > known.done && r.done !== null && r.done < observed.sentTick;
    const isLost = (r: Request) => r.calls.every((c) => c.state === 'unconfirmed');
    const isPaid = (r: Request) => r.calls.every((c) => c.state === 'confirmed' || c.state === 'settled');
    const lost = requests.filter(isLost);
    const paid = requests.filter((r) => !isLost(r));
    if (!requests.every(inside)) return;
    if (!lost.every((r) => r.calls.every((c) => c.settle_after !== null && c.settle_after <= sentAt))) return;
    if (!paid.every(isPaid)) return;
    const paidCredits = paid.reduce((sum, r) => sum + r.credits, 0);
    const charged = known.balance - seen.balance - observed.cost - paidCredits;
    const estimates = lost.reduce((sum, r) => sum + r.credits, 0);
    // A difference that cannot be their charge settles nothing. (A top-up, or spending with the key outside Scout,
    // of exactly a lost call's estimate between the two balances would still be taken for it: Scout cannot see it.)
    if (!Number.isInteger(charged) || charged < 0 || charged > estimates) return;
    // A lost request settles at nothing or at its whole estimate: a difference in between could as well be a
    // smaller charge as a top-up made meanwhile, so it settles nothing (the calls stay at their estimates). The calls
    // of one shared request were charged together or not at all, so they settle together.
    const charges = uniqueCharges(lost, charged);
    if (charges === null) return;
    for (const [index, request] of lost.entries()) {
      const whole = charges[index] === request.credits;
      for (const call of request.calls) {
        const settled = whole ? call.credits : 0;
        const units = whole ? call.units : 0;
        // The balance after a settled call is not known when other calls ran beside it: it is left empty.
        await tx.run(
          sql`UPDATE credit_ledger SET state = 'settled', credits = ${settled}, units = ${units}, balance = NULL
              WHERE id = ${call.id} AND state = 'unconfirmed'`,
        );
      }
    }
  };

  /** Runs `work` in a transaction (joining the current one) that holds the account's settlement lock. */
  const locked = (accountId: string, work: (tx: Sql) => Promise<void>) =>
    db.transaction(async (tx) => {
      await tx.lock(settlementLock(accountId));
      await work(tx);
    });

  return {
    reading: (accountId, sentTick, sentAt, balance) =>
      locked(accountId, async (tx) => {
        const doneTick = await nextTick(tx);
        await tx.run(
          sql`INSERT INTO balance_readings (account_id, sent_tick, done_tick, sent_at, balance)
              VALUES (${accountId}, ${sentTick}, ${doneTick}, ${sentAt.toISOString()}, ${balance})`,
        );
        await tx.run(
          sql`DELETE FROM balance_readings WHERE account_id = ${accountId} AND id <= (
                SELECT id FROM balance_readings WHERE account_id = ${accountId}
                ORDER BY id DESC LIMIT 1 OFFSET ${READINGS_KEPT})`,
        );
        await observeIn(tx, accountId, { sentTick, sentAt, doneTick, balance, cost: 0 });
      }),
    observe: (accountId, seen) => locked(accountId, (tx) => observeIn(tx, accountId, seen)),
  };
}
