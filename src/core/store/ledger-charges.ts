/**
 * The charges the ledger counts, told to whoever listens (the metrics): a paid call confirmed at its cost, and
 * unconfirmed calls that reported balances settle (see ledger-settle.ts).
 */
import type { Db } from './database.js';

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
  /** Runs a settlement of an account's unconfirmed calls (`run`), then announces the calls it settled. */
  settling(accountId: string, run: () => void): void;
  /** Adds a listener; returns the function that removes it. */
  onCharge(listener: (charge: LedgerCharge) => void): () => void;
}

/** Creates the announcer over the ledger's database. */
export function createChargeAnnouncer(db: Db): ChargeAnnouncer {
  const listeners = new Set<(charge: LedgerCharge) => void>();
  const openOf = db.prepare<[string], { id: number; operation: string }>(
    "SELECT id, operation FROM credit_ledger WHERE account_id = ? AND state = 'unconfirmed'",
  );
  const settledOf = db.prepare<[number], { credits: number }>(
    "SELECT credits FROM credit_ledger WHERE id = ? AND state = 'settled'",
  );
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
    settling(accountId, run) {
      // Read only when someone listens: most accounts have no unconfirmed call, and this costs a query.
      const open = listeners.size === 0 ? [] : openOf.all(accountId);
      run();
      for (const call of open) {
        const settled = settledOf.get(call.id);
        if (settled !== undefined)
          announce({ operation: call.operation, credits: settled.credits, state: 'settled' });
      }
    },
    onCharge(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
