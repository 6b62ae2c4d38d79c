/**
 * Settling lost calls from reported balances, on a real SQLite database: one lost call at the difference, several
 * sharing it in proportion to their estimates, a difference nothing explains at the estimates, and when a lost call
 * can first be settled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/store/database.js';
import { createLedger, type Ledger, type LedgerIntent } from '../../../src/core/store/ledger.js';
import { proportionalShares, SETTLE_GRACE_MS } from '../../../src/core/store/ledger-settle.js';
import { createProcesses } from '../../../src/core/store/processes.js';
import { openTestDatabase } from './engine.js';

const T = Date.parse('2026-11-20T10:00:00Z');
const at = (ms: number) => new Date(T + ms);

let db: Db;
let ledger: Ledger;
beforeEach(async () => {
  db = await openTestDatabase();
  ledger = createLedger(db);
});
afterEach(() => db.close());

const intent = (key: string, estimate: number, owner: string | null = null): LedgerIntent => ({
  at: at(0),
  platform: 'slack',
  workspaceId: 'T1',
  userId: 'U1',
  operation: 'songs.query',
  command: 'songs countries',
  estimate,
  units: 1,
  accountId: 'acct',
  owner,
  idempotencyKey: key,
});
const state = async (key: string) => (await ledger.find(key))?.state;
const credits = async (key: string) => (await ledger.find(key))?.credits;

const settledAs = async (key: string) => (await ledger.find(key))?.settledAs;

describe('sharing a group’s charge', () => {
  it('shares the total in proportion to the estimates, whole credits adding up to it exactly', () => {
    expect(proportionalShares([10], 7)).toEqual([7]);
    expect(proportionalShares([10, 10], 20)).toEqual([10, 10]);
    expect(proportionalShares([10, 5], 0)).toEqual([0, 0]);
    // 70/15 and 35/15: 4 and 2, the credit left to the larger remainder.
    expect(proportionalShares([10, 5], 7)).toEqual([5, 2]);
    // Equal remainders: the earlier call first.
    expect(proportionalShares([10, 10], 15)).toEqual([8, 7]);
    expect(proportionalShares([1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(proportionalShares([0, 0], 0)).toEqual([0, 0]);
  });
});

describe('settling a lost call', () => {
  it('waits until it can no longer be charged, counted from its failure', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('lost', 10));
    await ledger.doubt('lost', at(5_000));
    await ledger.reading('acct', await ledger.tick(), at(60_000), 1000);
    expect(await state('lost')).toBe('unconfirmed');
    await ledger.reading('acct', await ledger.tick(), at(5_000 + SETTLE_GRACE_MS), 990);
    expect(await state('lost')).toBe('settled');
    expect(await credits('lost')).toBe(10);
  });

  it('gives a dead process’s call its grace from when the process was found gone', async () => {
    const processes = createProcesses(db);
    await processes.register({ id: 'p1', host: 'h', pid: 1 }, () => true, at(0));
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('orphan', 10, 'p1'));
    // It waited for the rate limiter, was sent at +100 s, and the process died; a new one starts at +105 s.
    await processes.register({ id: 'p2', host: 'h', pid: 2 }, () => false, at(105_000));
    expect(await state('orphan')).toBe('unconfirmed');
    await ledger.reading('acct', await ledger.tick(), at(125_000), 1000);
    expect(await state('orphan')).toBe('unconfirmed');
    await ledger.reading('acct', await ledger.tick(), at(105_000 + SETTLE_GRACE_MS), 990);
    expect(await state('orphan')).toBe('settled');
    expect(await credits('orphan')).toBe(10);
  });

  it('settles one lost call at exactly the difference, its units in proportion', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend({ ...intent('viral', 5), operation: 'viral.search', units: 5 });
    await ledger.doubt('viral', at(0));
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 998);
    expect(await ledger.find('viral')).toMatchObject({
      state: 'settled',
      credits: 2,
      units: 2,
      settledAs: 'exact',
    });
  });

  it('subtracts calls of known cost in between, and shares the rest between the lost calls by estimate', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('a', 10));
    await ledger.doubt('a', at(0));
    await ledger.intend({ ...intent('known', 4), operation: 'viral.search', units: 4 });
    await ledger.confirm('known', { credits: 4, units: 4, balance: 986 });
    await ledger.intend({ ...intent('b', 5), operation: 'viral.search', units: 5 });
    await ledger.doubt('b', at(0));
    // 1000 - 4 - 989 = 7 for the two lost calls, estimated at 10 and 5: 5 and 2, settled as a group.
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 989);
    expect([await state('a'), await state('b')]).toEqual(['settled', 'settled']);
    expect([await credits('a'), await credits('b')]).toEqual([5, 2]);
    expect([await settledAs('a'), await settledAs('b')]).toEqual(['group', 'group']);
    expect(await credits('known')).toBe(4);
  });

  it('settles calls at their estimates when nothing explains the difference, and settles later ones', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('a', 10));
    await ledger.doubt('a', at(0));
    // A top-up of 50 meanwhile: the balance rose, which no charge explains.
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 1040);
    expect(await ledger.find('a')).toMatchObject({ state: 'settled', credits: 10, settledAs: 'estimate' });
    await ledger.intend(intent('b', 10));
    await ledger.doubt('b', at(SETTLE_GRACE_MS + 2));
    await ledger.reading('acct', await ledger.tick(), at(2 * SETTLE_GRACE_MS + 3), 1030);
    expect(await ledger.find('b')).toMatchObject({ state: 'settled', credits: 10, settledAs: 'exact' });
  });

  it('settles calls at their estimates when the difference is more than they can cost', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('a', 10));
    await ledger.doubt('a', at(0));
    // The key spent 30 outside Scout meanwhile.
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 960);
    expect(await ledger.find('a')).toMatchObject({ state: 'settled', credits: 10, settledAs: 'estimate' });
  });
});

describe('calls that shared one request', () => {
  const profiles = (key: string, estimate: number, userId: string): LedgerIntent => ({
    ...intent(key, estimate),
    userId,
    operation: 'creators.get',
    units: estimate,
  });
  /** Two people's profile calls sent as one request (`request`) whose answer is lost; the balance was 1000. */
  const lostTogether = async (request: string) => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(profiles('a', 2, 'U1'));
    await ledger.intend(profiles('b', 1, 'U2'));
    await ledger.doubt('a', at(0), { credits: 2, units: 2, request });
    await ledger.doubt('b', at(0), { credits: 1, units: 1, request });
  };

  it('settles a lost shared request as a whole: all its calls charged, or none', async () => {
    await lostTogether('r1');
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 997);
    expect([await state('a'), await state('b')]).toEqual(['settled', 'settled']);
    expect([await credits('a'), await credits('b')]).toEqual([2, 1]);
    expect([await settledAs('a'), await settledAs('b')]).toEqual(['group', 'group']);
  });

  it('shares a part of a shared request’s charge between its calls by estimate, marked as a group', async () => {
    await lostTogether('r1');
    // 2 of 3 credits, estimates 2 and 1: 4/3 and 2/3, the credit left to the larger remainder.
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 998);
    expect([await state('a'), await state('b')]).toEqual(['settled', 'settled']);
    expect([await credits('a'), await credits('b')]).toEqual([1, 1]);
    expect([await settledAs('a'), await settledAs('b')]).toEqual(['group', 'group']);
  });

  it('reads the balance after a shared request as the request’s, so a later lost call settles', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(profiles('a', 2, 'U1'));
    await ledger.intend(profiles('b', 1, 'U2'));
    await ledger.confirm('a', { credits: 2, units: 2, balance: 997, request: 'r2' });
    await ledger.confirm('b', { credits: 1, units: 1, balance: 997, request: 'r2' });
    await ledger.intend(intent('lost', 10));
    await ledger.doubt('lost', at(0));
    await ledger.reading('acct', await ledger.tick(), at(SETTLE_GRACE_MS + 1), 987);
    expect(await state('lost')).toBe('settled');
    expect(await credits('lost')).toBe(10);
  });

  it('settles from a shared request’s answer once every call of it is completed', async () => {
    await ledger.reading('acct', await ledger.tick(), at(-1000), 1000);
    await ledger.intend(intent('lost', 10));
    await ledger.doubt('lost', at(0));
    await ledger.intend({ ...profiles('a', 2, 'U1'), at: at(SETTLE_GRACE_MS + 1) });
    await ledger.intend({ ...profiles('b', 1, 'U2'), at: at(SETTLE_GRACE_MS + 1) });
    await ledger.confirm('a', { credits: 2, units: 2, balance: 987, request: 'r3' });
    // b's cost is not written yet: the balance cannot be read.
    expect(await state('lost')).toBe('unconfirmed');
    await ledger.confirm('b', { credits: 1, units: 1, balance: 987, request: 'r3' });
    expect(await state('lost')).toBe('settled');
    expect(await credits('lost')).toBe(10);
  });
});
