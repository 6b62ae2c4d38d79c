/**
 * The charges the ledger tells its listeners of (the metrics' credits charged): a confirmed call at its cost when it
 * is written, a lost call once reported balances settle it, nothing for a call that cost nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/store/database.js';
import {
  createLedger,
  type Ledger,
  type LedgerCharge,
  type LedgerIntent,
} from '../../../src/core/store/ledger.js';
import { SETTLE_GRACE_MS } from '../../../src/core/store/ledger-settle.js';
import { openTestDatabase } from './engine.js';

const T = Date.parse('2026-11-20T10:00:00Z');
const at = (ms: number) => new Date(T + ms);

let db: Db;
let ledger: Ledger;
let charges: LedgerCharge[];
beforeEach(async () => {
  db = await openTestDatabase();
  ledger = createLedger(db);
  charges = [];
  ledger.onCharge((charge) => charges.push(charge));
});
afterEach(() => db.close());

const intent = (key: string, estimate: number): LedgerIntent => ({
  at: at(0),
  platform: 'slack',
  workspaceId: 'T1',
  userId: 'U1',
  operation: 'songs.query',
  command: 'songs countries',
  estimate,
  units: 1,
  accountId: 'acct',
  owner: null,
  idempotencyKey: key,
});

describe('charges told to listeners', () => {
  it('tells of a confirmed call at its real cost, once, and of nothing for a free answer', async () => {
    await ledger.intend(intent('paid', 10));
    await ledger.confirm('paid', { credits: 8, units: 1, balance: null });
    await ledger.confirm('paid', { credits: 8, units: 1, balance: null });
    await ledger.intend(intent('free', 10));
    await ledger.confirm('free', { credits: 0, units: 0, balance: null });
    expect(charges).toEqual([{ operation: 'songs.query', credits: 8, state: 'confirmed' }]);
  });

  it('tells of a lost call when a reported balance settles it', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('lost', 10));
    await ledger.doubt('lost', at(5_000));
    await ledger.reading('acct', await ledger.tick(), at(60_000), 1000);
    expect(charges).toEqual([]);
    await ledger.reading('acct', await ledger.tick(), at(5_000 + SETTLE_GRACE_MS), 990);
    expect((await ledger.find('lost'))?.state).toBe('settled');
    expect(charges).toEqual([{ operation: 'songs.query', credits: 10, state: 'settled' }]);
  });

  it('stops telling a listener that was removed', async () => {
    const removed: LedgerCharge[] = [];
    const stop = ledger.onCharge((charge) => removed.push(charge));
    stop();
    await ledger.intend(intent('paid', 10));
    await ledger.confirm('paid', { credits: 10, units: 1, balance: null });
    expect(removed).toEqual([]);
    expect(charges).toHaveLength(1);
  });
});
