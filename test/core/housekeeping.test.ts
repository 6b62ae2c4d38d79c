import { afterEach, beforeEach, expect, it } from 'vitest';
import { createManualClock } from '../../src/core/clock.js';
import { createHousekeeping } from '../../src/core/housekeeping.js';
import { openStore, type Store } from '../../src/core/store/index.js';

const DAY = 86_400_000;
const actor = { platform: 'slack', workspaceId: 'T1', userId: 'U1' } as const;
let store: Store;
beforeEach(async () => {
  store = await openStore({ path: ':memory:' });
});
afterEach(() => store.close());

it('drops claims, long-expired buttons and sessions, stale profiles and lapsed reservations, keeping what can still be used', async () => {
  const clock = createManualClock('2026-11-01T00:00:00Z');
  const t0 = clock.now();
  await store.invocations.begin('old', t0, 10_000, null);
  const button = await store.actions.create({ kind: 'k', payload: null, actor, ttlMs: DAY, now: t0 });
  await store.searches.create({
    actor,
    command: 'creators',
    filters: {},
    ids: [],
    nextServicePage: null,
    serviceTotalPages: null,
    createdAt: t0,
    expiresAt: new Date(t0.getTime() + DAY),
  });
  await store.profiles.put('acct', [{ id: 'p', profile: {} }], t0);
  // A reservation a stopped process never gave back: it expires within the hour.
  await store.reservations.put('r', actor, 5, null, new Date(t0.getTime() + 3_600_000));
  // A conversation's last answer, kept as long as its buttons work: a day.
  await store.conversations.put(actor, 'dm', { line: 'lists', actions: [] }, new Date(t0.getTime() + DAY));
  const job = createHousekeeping(store, clock, {
    invocationsMs: DAY,
    expiredElementsMs: 10 * DAY,
    profilesMs: 7 * DAY,
  });

  clock.advance(2 * DAY);
  expect(await job.runOnce()).toEqual({
    invocations: 1,
    actions: 0,
    searches: 0,
    conversations: 1,
    profiles: 0,
    reservations: 1,
  });
  // Expired, but still answered as expired rather than unknown.
  expect((await store.actions.lookup(button, actor, clock.now())).status).toBe('expired');
  clock.advance(10 * DAY);
  expect(await job.runOnce()).toEqual({
    invocations: 0,
    actions: 1,
    searches: 1,
    conversations: 0,
    profiles: 1,
    reservations: 0,
  });
  expect((await store.actions.lookup(button, actor, clock.now())).status).toBe('unknown');
});
