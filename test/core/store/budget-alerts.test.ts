/** The budget alerts repository: the once-guard of each alert, and one process at a time posting it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/index.js';
import { sql } from '../../../src/core/store/sql.js';
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
    expect((await store.alerts.unsent()).map((a) => `${a.userId}:${a.threshold}:${a.day}`)).toEqual([
      'U1:100:2026-03-10',
      'U1:80:2026-03-10',
      'U1:80:2026-03-11',
      'U2:100:2026-03-10',
    ]);
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
    expect((await store.alerts.unsent()).map((a) => a.userId).sort()).toEqual(['U1', 'U7', 'U8', 'U9']);
    expect(store.alerts.balanceAlert).toBe(500);
  });

  it('let one live process post an alert, and another take it over once that one is gone', async () => {
    const self = (id: string) => ({ id, host: 'h', pid: id === 'p1' ? 1 : 2 });
    await store.processes.register(self('p1'), () => true, now);
    await store.processes.register(self('p2'), () => true, now);
    await store.alerts.queueCap(ana, '80', DAY, cap, now);
    const [alert] = await store.alerts.unsent();
    if (alert === undefined) throw new Error('no alert');
    expect(await store.alerts.claim(alert, 'p1', now)).toEqual({ mayHaveLanded: false, attempts: 1 });
    expect(await store.alerts.claim(alert, 'p2', now)).toBeNull();
    // Its own post that failed is p1's to try again, knowing it may have landed.
    expect(await store.alerts.claim(alert, 'p1', now)).toEqual({ mayHaveLanded: true, attempts: 2 });
    await store.processes.unregister('p1', now);
    expect(await store.alerts.claim(alert, 'p2', now)).toEqual({ mayHaveLanded: true, attempts: 3 });
    await store.alerts.markPosted(alert, { channelId: 'D1', messageId: '1.2' }, now);
    expect(await store.alerts.claim(alert, 'p2', now)).toBeNull();
    expect(await store.alerts.unsent()).toEqual([]);
    await store.alerts.drop(alert);
    expect(
      (await store.db.all<{ state: string }>(sql`SELECT state FROM budget_alerts`)).map((row) => row.state),
    ).toEqual(['posted']);
    expect(await store.alerts.purge('2026-03-11')).toBe(1);
  });
});
