import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/store/database.js';
import { createLedger, type LedgerEntry } from '../../../src/core/store/ledger.js';
import { openTestDatabase } from './engine.js';

let db: Db;
beforeEach(async () => {
  db = await openTestDatabase();
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
  it('records a paid call once per idempotency key', async () => {
    const ledger = createLedger(db);
    expect(await ledger.record(base)).toBe(true);
    expect(await ledger.record({ ...base, credits: 50 })).toBe(false);
    expect(await ledger.find('k1')).toMatchObject({
      credits: 5,
      balance: 995,
      userId: 'U1',
      command: 'creators search',
    });
    expect((await ledger.find('k1'))?.at.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(await ledger.spent({ platform: 'slack', workspaceId: 'T1', userId: 'U1' }, day)).toBe(5);
  });

  it('sums per person and per workspace within a range, and breaks spend down', async () => {
    const ledger = createLedger(db);
    await ledger.record(base);
    await ledger.record({
      ...base,
      idempotencyKey: 'k2',
      userId: 'U2',
      credits: 10,
      operation: 'songs.query',
      command: null,
    });
    await ledger.record({ ...base, idempotencyKey: 'k3', at: new Date('2026-11-19T23:59:59Z'), credits: 7 });
    await ledger.record({ ...base, idempotencyKey: 'k4', workspaceId: 'T2', credits: 100 });
    await ledger.record({ ...base, idempotencyKey: 'k5', platform: 'discord', credits: 1000 });
    expect(await ledger.spent({ platform: 'slack', workspaceId: 'T1', userId: 'U1' }, day)).toBe(5);
    expect(await ledger.spent({ platform: 'slack', workspaceId: 'T1' }, day)).toBe(15);
    expect(await ledger.spent({ platform: 'slack', workspaceId: 'T9' }, day)).toBe(0);
    const scope = { platform: 'slack', workspaceId: 'T1' } as const;
    expect(await ledger.breakdown(scope, day, 'user')).toEqual([
      { key: 'U2', credits: 10, calls: 1 },
      { key: 'U1', credits: 5, calls: 1 },
    ]);
    expect((await ledger.breakdown(scope, day, 'command')).map((g) => g.key)).toEqual([
      'songs.query',
      'creators search',
    ]);
    const twoDays = { from: new Date('2026-11-19T00:00:00Z'), to: day.to };
    expect(await ledger.breakdown(scope, twoDays, 'day')).toEqual([
      { key: '2026-11-20', credits: 15, calls: 2 },
      { key: '2026-11-19', credits: 7, calls: 1 },
    ]);
  });

  it('rejects negative or fractional amounts', async () => {
    const ledger = createLedger(db);
    await expect(ledger.record({ ...base, credits: -1 })).rejects.toThrow(RangeError);
    await expect(ledger.record({ ...base, units: 1.5 })).rejects.toThrow(RangeError);
  });
});
