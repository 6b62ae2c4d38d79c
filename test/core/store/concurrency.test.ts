/**
 * The store's promises under concurrency: of simultaneous attempts, exactly one claims an invocation, uses a
 * single-use element, starts a digest's day, queues an alert or a post, claims a post or subscribes a channel; the
 * ledger counts each paid call once and its clock never repeats a tick. On PostgreSQL several pools on one database stand in for several
 * Scout processes. On SQLite the attempts share the one connection a process has (better-sqlite3 is synchronous:
 * a second connection in the same thread waiting for the write lock would block the first one holding it); between
 * processes, SQLite's own file locks (BEGIN IMMEDIATE) keep write transactions apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/core/clock.js';
import { CreditCapError } from '../../../src/core/credit-errors.js';
import { createReservations, reserveWithinCap } from '../../../src/core/credits.js';
import { openStore, type Store } from '../../../src/core/store/index.js';
import { ENGINE, freshLocation } from './engine.js';

const PROCESSES = 4;
const ATTEMPTS = 3;

let stores: Store[] = [];
let drop: () => Promise<void> = async () => {};

afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
  await drop();
});

/** Several stores on one fresh database. */
async function processes(count = PROCESSES): Promise<Store[]> {
  const place = await freshLocation({ shared: true });
  drop = place.drop;
  // Migrations first, by one, so that the others find the schema there.
  stores = [await openStore(place.location, { balanceAlert: 100 })];
  if (ENGINE === 'sqlite') return Array.from({ length: count }, () => stores[0] as Store);
  for (let i = 1; i < count; i += 1) stores.push(await openStore(place.location, { balanceAlert: 100 }));
  return stores;
}

/** The first of the stores. */
const first = (all: Store[]): Store => {
  const store = all[0];
  if (store === undefined) throw new Error('no store');
  return store;
};

/** Runs `attempt` ATTEMPTS times on every store at once; the results in one list. */
const race = <T>(all: Store[], attempt: (store: Store, i: number) => Promise<T>) =>
  Promise.all(all.flatMap((store) => Array.from({ length: ATTEMPTS }, (_, i) => attempt(store, i))));

const now = new Date('2026-11-20T10:00:00Z');
const actor = { platform: 'slack' as const, workspaceId: 'T1', userId: 'U1' };

describe('the store under concurrency', () => {
  it('lets exactly one of simultaneous claims run an invocation', async () => {
    const all = await processes();
    const results = await race(all, (store) => store.invocations.begin('key-1', now, 60_000, null));
    expect(results.filter((r) => r.status === 'started')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'running')).toHaveLength(PROCESSES * ATTEMPTS - 1);
  });

  it('uses a single-use element once, whichever process the presses reach', async () => {
    const all = await processes();
    const token = await first(all).actions.create({
      kind: 'scout.confirm',
      payload: {},
      actor,
      ttlMs: 60_000,
      now,
    });
    const used = await race(all, (store) => store.actions.consume(token, now));
    expect(used.filter(Boolean)).toHaveLength(1);
  });

  it('starts a digest’s day once', async () => {
    const all = await processes();
    const digest = await first(all).digests.create({
      platform: 'slack',
      workspaceId: 'T1',
      channelId: 'C1',
      createdBy: 'U1',
      filters: {},
      localTime: '09:00',
      timeZone: 'UTC',
      top: 5,
      createdAt: now,
    });
    const begun = await race(all, (store) =>
      store.digests.begin(digest, '2026-11-20', { posts: [{ id: 'p1' }], note: null }, now),
    );
    expect(begun.filter(Boolean)).toHaveLength(1);
  });

  it('subscribes a channel once', async () => {
    const all = await processes();
    const results = await race(all, (store) =>
      store.subscriptions.subscribe({
        platform: 'slack',
        workspaceId: 'T1',
        channelId: 'C1',
        projectId: null,
        createdBy: 'U1',
        now,
      }),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.subscription.id)).size).toBe(1);
  });

  it('queues a person’s cap alert once a day', async () => {
    const all = await processes();
    const details = { kind: 'cap' as const, spent: 100, cap: 100, resetsAt: '2026-11-21T00:00:00.000Z' };
    await race(all, (store) => store.alerts.queueCap(actor, '100', '2026-11-20', details, now));
    const unsent = await first(all).outbox.unposted('budget-alert');
    expect(unsent.map((alert) => alert.key)).toEqual(['alert:U1:100:2026-11-20']);
  });

  it('lets exactly one of simultaneous claims post an outbox post', async () => {
    const all = await processes();
    const post = { kind: 'digest' as const, ...actor, to: { channelId: 'C1' }, key: 'k1', payload: {} };
    const queued = await race(all, (store) => store.outbox.queue(post, now));
    expect(queued.filter(Boolean)).toHaveLength(1);
    const [found] = await first(all).outbox.unposted('digest');
    if (found === undefined) throw new Error('not queued');
    // Each attempt a live process of its own.
    const owners = Array.from({ length: PROCESSES * ATTEMPTS }, (_, i) => `p${i}`);
    for (const [i, id] of owners.entries()) {
      await first(all).processes.register({ id, host: 'h', pid: i + 1 }, () => true, now);
    }
    let next = 0;
    const claims = await race(all, (store) => store.outbox.claim(found.id, owners[next++] ?? '', now));
    expect(claims.filter((claim) => claim !== null)).toEqual([{ mayHaveLanded: false, attempts: 1 }]);
  });

  it('records a paid call once per idempotency key, and never hands out a tick twice', async () => {
    const all = await processes();
    const recorded = await race(all, (store) =>
      store.ledger.record({
        ...actor,
        at: now,
        operation: 'creators.get',
        units: 1,
        credits: 1,
        balance: null,
        idempotencyKey: 'paid-1',
      }),
    );
    expect(recorded.filter(Boolean)).toHaveLength(1);
    expect(await first(all).ledger.spent(actor, { from: now, to: new Date(now.getTime() + 1000) })).toBe(1);
    const ticks = await race(all, (store) => store.ledger.tick());
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it('lets only what fits the daily cap through, of simultaneous commands of one person in several processes', async () => {
    const all = await processes();
    const clock = createManualClock(now);
    // Each "process" its own reservation book over its own connection, as replicas have.
    const attempts = all.map((store) => {
      const reservation = createReservations({ store, clock, owner: null }).reserve(actor);
      return reserveWithinCap({ actor, store, clock, defaultDailyCap: 15 }, reservation, 10);
    });
    const results = await Promise.allSettled(attempts);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === 'rejected')) {
      expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(CreditCapError);
    }
    expect(await first(all).reservations.held(actor, now)).toBe(10);
  });
});
