import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../src/core/store/database.js';
import { createLedger, type LedgerEntry } from '../../../src/core/store/ledger.js';

let db: Db;
beforeEach(() => {
  db = openDatabase({ path: ':memory:' });
});
afterEach(() => db.close());

const base: LedgerEntry = {
  at: new Date('2026-11-20T10:00:00Z'),
  platform: 'slack',
  workspaceId: 'T1',
  userId: 'U1',
  operation: 'creators.get',
  command: 'creators search',
  units: 5,
  credits: 5,
  balance: 995,
  idempotencyKey: 'k1',
};
const day = { from: new Date('2026-11-20T00:00:00Z'), to: new Date('2026-11-21T00:00:00Z') };

describe('credit ledger', () => {
  it('records a paid call once per idempotency key', () => {
    const ledger = createLedger(db);
    expect(ledger.record(base)).toBe(true);
    expect(ledger.record({ ...base, credits: 50 })).toBe(false);
    expect(ledger.find('k1')).toMatchObject({
      credits: 5,
      balance: 995,
      userId: 'U1',
      command: 'creators search',
    });
    expect(ledger.find('k1')?.at.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(ledger.spent({ platform: 'slack', workspaceId: 'T1', userId: 'U1' }, day)).toBe(5);
  });

  it('sums per person and per workspace within a range, and breaks spend down', () => {
    const ledger = createLedger(db);
    ledger.record(base);
    ledger.record({
      ...base,
      idempotencyKey: 'k2',
      userId: 'U2',
      credits: 10,
      operation: 'songs.query',
      command: null,
    });
    ledger.record({ ...base, idempotencyKey: 'k3', at: new Date('2026-11-19T23:59:59Z'), credits: 7 });
    ledger.record({ ...base, idempotencyKey: 'k4', workspaceId: 'T2', credits: 100 });
    ledger.record({ ...base, idempotencyKey: 'k5', platform: 'discord', credits: 1000 });
    expect(ledger.spent({ platform: 'slack', workspaceId: 'T1', userId: 'U1' }, day)).toBe(5);
    expect(ledger.spent({ platform: 'slack', workspaceId: 'T1' }, day)).toBe(15);
    expect(ledger.spent({ platform: 'slack', workspaceId: 'T9' }, day)).toBe(0);
    const scope = { platform: 'slack', workspaceId: 'T1' } as const;
    expect(ledger.breakdown(scope, day, 'user')).toEqual([
      { key: 'U2', credits: 10, calls: 1 },
      { key: 'U1', credits: 5, calls: 1 },
    ]);
    expect(ledger.breakdown(scope, day, 'command').map((g) => g.key)).toEqual([
      'songs.query',
      'creators search',
    ]);
    const twoDays = { from: new Date('2026-11-19T00:00:00Z'), to: day.to };
    expect(ledger.breakdown(scope, twoDays, 'day')).toEqual([
      { key: '2026-11-20', credits: 15, calls: 2 },
      { key: '2026-11-19', credits: 7, calls: 1 },
    ]);
  });

  it('rejects negative or fractional amounts', () => {
    const ledger = createLedger(db);
    expect(() => ledger.record({ ...base, credits: -1 })).toThrow(RangeError);
    expect(() => ledger.record({ ...base, units: 1.5 })).toThrow(RangeError);
  });
});
