/**
 * The charges the ledger counts, told to whoever listens (the metrics): a paid call confirmed at its cost, and
 * unconfirmed calls that reported balances settle (see ledger-settle.ts).
 */
import { settlementLock } from './ledger-settle.js';
import { type Sql, sql } from './sql.js';

/** Credits the ledger counted as charged: on a confirmed answer, or settled from reported balances. */
export interface LedgerCharge {
  operation: string;
  credits: number;
  state: 'confirmed' | 'settled';
}

/** Tells listeners of charges. */
export interface ChargeAnnouncer {
  /** Tells every listener of a charge of more than 0 credits. */
  announce(charge: LedgerCharge): void;
  /**
   * Runs a settlement of an account's unconfirmed calls (`run`) in one transaction holding the account's settlement
   * lock, then, once it is committed, announces the calls it settled.
   */
  settling(accountId: string, run: (tx: Sql) => Promise<void>): Promise<void>;
  /** Adds a listener; returns the function that removes it. */
  onCharge(listener: (charge: LedgerCharge) => void): () => void;
}

/** Creates the announcer over the ledger's database. */
export function createChargeAnnouncer(db: Sql): ChargeAnnouncer {
  const listeners = new Set<(charge: LedgerCharge) => void>();
  const announce = (charge: LedgerCharge) => {
    if (charge.credits <= 0) return;
    for (const listener of listeners) {
      try {
        listener(charge);
      } catch {
        // A listener's failure must never fail the ledger's write.
      }
    }
  };
  return {
    announce,
    async settling(accountId, run) {
      const settled = await db.transaction(async (tx) => {
        // Under the lock, the calls read open here and settled below were settled by this run, not another process.
        await tx.lock(settlementLock(accountId));
        // Read only when someone listens: most accounts have no unconfirmed call, and this costs a query.
        const open =
          listeners.size === 0
            ? []
            : await tx.all<{ id: number; operation: string }>(
                sql`SELECT id, operation FROM credit_ledger WHERE account_id = ${accountId} AND state = 'unconfirmed'`,
              );
        await run(tx);
        if (open.length === 0) return [];
        const ids = open.map((call) => call.id);
        const rows = await tx.all<{ id: number; credits: number }>(
          sql`SELECT id, credits FROM credit_ledger WHERE id IN (${sql.join(ids)}) AND state = 'settled'`,
        );
        const credits = new Map(rows.map((row) => [Number(row.id), row.credits]));
        return open.flatMap((call) => {
          const charged = credits.get(Number(call.id));
          return charged === undefined ? [] : [{ operation: call.operation, credits: charged }];
        });
      });
      for (const call of settled) announce({ ...call, state: 'settled' });
    },
    onCharge(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
