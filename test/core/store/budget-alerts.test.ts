/** The budget alerts repository: the once-guard of each alert, queued in the outbox. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/index.js';
import { openTestStore } from './engine.js';

let store: Store;
beforeEach(async () => {
  store = await openTestStore({ balanceAlert: 500 });
});
afterEach(async () => {
  await store.close();
});

const now = new Date('2026-03-10T12:00:00Z');
const DAY = '2026-03-10';
const ana = { platform: 'slack' as const, workspaceId: 'T1', userId: 'U1' };
const cap = { kind: 'cap' as const, spent: 80, cap: 100, resetsAt: '2026-03-11T00:00:00.000Z' };
const low = { kind: 'balance' as const, balance: 490, threshold: 500, crossedBy: 'U1' };
const unsent = () => store.outbox.unposted('budget-alert');

describe('budget alerts', () => {
  it('queue each threshold once a day, and never 80% once 100% is queued', async () => {
    let woken = 0;
    store.alerts.onQueued(() => {
      woken += 1;
    });
    expect(await store.alerts.queueCap(ana, '80', DAY, cap, now)).toBe(true);
    expect(await store.alerts.queueCap(ana, '80', DAY, { ...cap, spent: 90 }, now)).toBe(false);
    expect(await store.alerts.queueCap(ana, '100', DAY, { ...cap, spent: 100 }, now)).toBe(true);
    expect(await store.alerts.queueCap(ana, '80', '2026-03-11', cap, now)).toBe(true);
    const bob = { ...ana, userId: 'U2' };
    expect(await store.alerts.queueCap(bob, '100', DAY, cap, now)).toBe(true);
    expect(await store.alerts.queueCap(bob, '80', DAY, cap, now)).toBe(false);
    expect(woken).toBe(4);
    expect((await unsent()).map((a) => a.key)).toEqual([
      'alert:U1:80:2026-03-10',
      'alert:U1:100:2026-03-10',
      'alert:U1:80:2026-03-11',
      'alert:U2:100:2026-03-10',
    ]);
    // 100% at once settled 80% for Bob, unsent.
    expect((await store.outbox.find(bob, 'alert:U2:80:2026-03-10'))?.state).toBe('dropped');
    expect((await unsent())[1]).toMatchObject({
      to: { userId: 'U1' },
      payload: { threshold: '100', day: DAY, details: { ...cap, spent: 100 } },
    });
  });

  it('queue a tenant’s balance alert once a day, to each known admin and the person once', async () => {
    const tenant = { platform: 'slack' as const, workspaceId: 'T1' };
    await store.tenants.addAdmin(tenant, 'U7', 'U8', now);
    await store.alerts.sawAdmin({ ...tenant, userId: 'U9' }, now);
    expect((await store.alerts.knownAdmins(tenant)).sort()).toEqual(['U7', 'U8', 'U9']);
    expect(await store.alerts.knownAdmins({ platform: 'discord', workspaceId: 'T1' })).toEqual([]);
    expect(await store.alerts.queueBalance(tenant, ['U7', 'U8', 'U9', 'U1', 'U7'], DAY, low, now)).toBe(true);
    expect(await store.alerts.queueBalance(tenant, ['U5'], DAY, { ...low, crossedBy: 'U5' }, now)).toBe(
      false,
    );
    const people = (await unsent()).map((a) => ('userId' in a.to ? a.to.userId : a.to.channelId));
    expect(people.sort()).toEqual(['U1', 'U7', 'U8', 'U9']);
    // Another tenant, or the next day, is news again.
    expect(await store.alerts.queueBalance({ ...tenant, workspaceId: 'T2' }, ['U5'], DAY, low, now)).toBe(
      true,
    );
    expect(await store.alerts.queueBalance(tenant, ['U5'], '2026-03-11', low, now)).toBe(true);
    expect(store.alerts.balanceAlert).toBe(500);
  });
});
