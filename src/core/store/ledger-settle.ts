/**
 * Settling calls whose answer was lost. The service reports the key's balance on every answer, so the calls lost
 * between two balances of an account cost, together, the first balance less the second, less the calls of known cost
 * in between, the second's own included (ledger-window.ts finds them). Once none of them can still be processed
 * (SETTLE_GRACE_MS after it failed) they are settled at that: one lost call exactly ('exact'); several as a group
 * ('group'), the total shared in proportion to their estimates. A difference no charge of theirs explains (a top-up,
 * or the key used outside Scout: negative, or more than their estimates) settles them at their estimates
 * ('estimate'), so it never holds back the calls lost after them. (A top-up smaller than their charge cannot be told
 * from a smaller charge: it is taken for one.)
 */
import { isStorageFull, nextTick } from './ledger-clock.js';
import { type BalanceObservation, lostBetween } from './ledger-window.js';
import { type Sql, sql } from './sql.js';

export type { BalanceObservation };
export { isStorageFull, nextTick };

/**
 * How long after its failure a lost call may still be processed, and so charged: a gateway's 504 or a client's
 * time-out does not stop the service's own work. Only answers to calls sent after this settle it.
 */
export const SETTLE_GRACE_MS = 120_000;

/** When a lost call failing at `failedAt` can first be settled. */
export function settleAfter(failedAt: Date): string {
  return new Date(failedAt.getTime() + SETTLE_GRACE_MS).toISOString();
}

/** How a lost call was settled (the row's `settled_as`); see the top of this file. */
export type SettledAs = 'exact' | 'group' | 'estimate';

/** Settles unconfirmed calls from reported balances, each method in one transaction holding settlementLock. */
export interface Settlement {
  /** Records the balance of an answer that cost nothing (sent at `sentTick`, `sentAt`), and settles what it can. */
  reading(accountId: string, sentTick: number, sentAt: Date, balance: number): Promise<void>;
  /** Settles what an observed balance allows. */
  observe(accountId: string, observation: BalanceObservation): Promise<void>;
}

/** Readings kept per account: the lost call is settled by the next answer, so only the latest few matter. */
const READINGS_KEPT = 20;

/**
 * The lock (Sql.lock) under which an account's unconfirmed calls are settled, so processes sharing the database
 * never settle (and announce) the same calls twice. Take it before any ledger tick in the same transaction.
 */
export const settlementLock = (accountId: string) => `ledger:settle:${accountId}`;

/**
 * `total` shared in proportion to `estimates`, in whole credits adding up to it: the whole part of each share, and
 * what is left one credit each to the largest remainders (the earlier on a tie).
 */
export function proportionalShares(estimates: readonly number[], total: number): number[] {
  const sum = estimates.reduce((a, b) => a + b, 0);
  const shares = estimates.map((e) => (sum === 0 ? 0 : Math.floor((e * total) / sum)));
  const rest = (i: number) => (estimates[i] as number) * total - (shares[i] as number) * sum;
  const order = shares.map((_, i) => i).sort((a, b) => rest(b) - rest(a) || a - b);
  const left = total - shares.reduce((a, b) => a + b, 0);
  for (const i of order.slice(0, sum === 0 ? 0 : left)) shares[i] = (shares[i] as number) + 1;
  return shares;
}

/** Inside a transaction holding the account's settlement lock. */
async function observeIn(tx: Sql, accountId: string, seen: BalanceObservation): Promise<void> {
  const between = await lostBetween(tx, accountId, seen);
  if (between === undefined || between.calls.length === 0) return;
  const { calls, charged } = between;
  const estimates = calls.map((c) => Number(c.credits));
  const explained =
    Number.isInteger(charged) && charged >= 0 && charged <= estimates.reduce((a, b) => a + b, 0);
  const how: SettledAs = !explained ? 'estimate' : calls.length === 1 ? 'exact' : 'group';
  const shares = explained ? proportionalShares(estimates, charged) : estimates;
  for (const [i, call] of calls.entries()) {
    const credits = shares[i] as number;
    const estimate = estimates[i] as number;
    const units =
      credits === estimate ? call.units : Math.round((Number(call.units) * credits) / (estimate || 1));
    // The balance after a settled call is not known when other calls ran beside it: it is left empty.
    await tx.run(
      sql`UPDATE credit_ledger SET state = 'settled', credits = ${credits}, units = ${units}, balance = NULL,
            settled_as = ${how}
          WHERE id = ${call.id} AND state = 'unconfirmed'`,
    );
  }
}

/** Creates the settlement over an open database (or a transaction on it, which it joins). */
export function createSettlement(db: Sql): Settlement {
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
