/** The daily cap's bookkeeping: what in-flight work sets aside, spends and gives back, and the metered client. */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { createManualClock } from '../../src/core/clock.js';
import { CreditCapError } from '../../src/core/credit-errors.js';
import {
  budgetOf,
  budgetScopeFor,
  createMeter,
  createReservations,
  RESERVATION_TTL_MS,
  reserveWithinCap,
} from '../../src/core/credits.js';
import { openStore } from '../../src/core/store/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const ana = { platform: 'slack', workspaceId: 'T1', userId: 'U1' } as const;
const bob = { platform: 'slack', workspaceId: 'T1', userId: 'U2' } as const;

describe('reservations', () => {
  it('hold what is set aside until it is spent, given back or expired, per person, in the database', async () => {
    const store = await openStore({ path: ':memory:' });
    const clock = createManualClock('2026-03-15T12:00:00Z');
    const book = createReservations({ store, clock, owner: null });
    const held = (person: typeof ana | typeof bob) => store.reservations.held(person, clock.now());
    const first = book.reserve(ana);
    await first.add(10);
    const second = book.reserve(ana);
    await second.add(5);
    await book.reserve(bob).add(7);
    expect(await held(ana)).toBe(15);
    await first.spend(4);
    expect(first.left).toBe(6);
    expect(await held(ana)).toBe(11);
    await first.add(3);
    expect(await held(ana)).toBe(14);
    // Spending more than is left takes only what is left.
    await first.spend(100);
    expect(first.left).toBe(0);
    expect(await held(ana)).toBe(5);
    await second.release();
    await second.release();
    await second.add(5);
    expect(await held(ana)).toBe(0);
    expect(await held(bob)).toBe(7);
    // Past its expiry (its command cannot still be running), a reservation counts no more.
    clock.advance(RESERVATION_TTL_MS + 1);
    expect(await held(bob)).toBe(0);
    // Nor does one of a process that is not alive.
    await createReservations({ store, clock, owner: 'a-process-that-is-gone' }).reserve(bob).add(9);
    expect(await held(bob)).toBe(0);
    await store.close();
  });

  it('count toward the cap with the ledger, without counting a recorded spend twice', async () => {
    const store = await openStore({ path: ':memory:' });
    const clock = createManualClock('2026-03-15T12:00:00Z');
    const reservations = createReservations({ store, clock, owner: null });
    const scope = { actor: ana, store, clock, defaultDailyCap: 25 };
    const running = reservations.reserve(ana);
    await reserveWithinCap(scope, running, 10);
    // The call is made and recorded: its credits move from the reservation to the ledger.
    await store.ledger.record({
      at: clock.now(),
      ...ana,
      operation: 'songs.query',
      command: 'songs countries',
      units: 1,
      credits: 10,
      balance: null,
      idempotencyKey: 'k#1',
    });
    await running.spend(10);
    expect((await budgetOf(scope)).spentToday).toBe(10);
    const next = reservations.reserve(ana);
    await reserveWithinCap(scope, next, 15);
    await expect(reserveWithinCap(scope, reservations.reserve(ana), 1)).rejects.toThrow(CreditCapError);
    await store.close();
  });
});

describe('the metered client', () => {
  let h: Harness;
  afterEach(async () => h.stop());

  /** A metered client for the local person, drawing on `reservation`, under a daily cap. */
  const metered = (cap: number) => {
    const reservation = h.app.reservations.reserve(LOCAL_ACTOR);
    const { store, clock } = h.app;
    const scope = budgetScopeFor(LOCAL_ACTOR, { store, clock, settings: { defaultDailyCap: cap } });
    const service = h.app.service.metered(
      createMeter({
        ...scope,
        reservation,
        keyPrefix: 'test',
        command: 'test',
        accountId: 'test-account',
        owner: h.app.processId,
      }),
    );
    return { service, reservation, scope };
  };

  it('moves what a call cost from the reservation to the ledger', async () => {
    h = await startHarness();
    const { service, reservation, scope } = metered(25);
    await reserveWithinCap(scope, reservation, 20);
    await service.songs.query({ action: 'countries' });
    expect(await h.spentToday()).toBe(10);
    expect(reservation.left).toBe(10);
    expect((await budgetOf(scope)).spentToday).toBe(20);
    await reservation.release();
    expect((await budgetOf(scope)).spentToday).toBe(10);
  });

  it('holds the cap for paid calls of one invocation made at the same time', async () => {
    h = await startHarness();
    const { service } = metered(15);
    const calls = await Promise.allSettled([
      service.songs.query({ action: 'countries' }),
      service.songs.query({ action: 'countries' }),
    ]);
    expect(calls.map((c) => c.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = calls.find((c) => c.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(CreditCapError);
    expect(await h.spentToday()).toBe(10);
  });
});
