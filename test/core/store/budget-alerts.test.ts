/** The budget alerts repository: the once-guard of each alert, and one process at a time posting it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/core/store/index.js';

let store: Store;
beforeEach(() => {
  store = openStore(':memory:', { balanceAlert: 500 });
});
afterEach(() => store.close());

const now = new Date('2026-03-10T12:00:00Z');
const DAY = '2026-03-10';
const ana = { platform: 'slack' as const, workspaceId: 'T1', userId: 'U1' };
const cap = { kind: 'cap' as const, spent: 80, cap: 100, resetsAt: '2026-03-11T00:00:00.000Z' };
const low = { kind: 'balance' as const, balance: 490, threshold: 500, crossedBy: 'U1' };

describe('budget alerts', () => {
  it('queue each threshold once a day, and never 80% once 100% is queued', () => {
    let woken = 0;
    store.alerts.onQueued(() => {
      woken += 1;
    });
    expect(store.alerts.queueCap(ana, '80', DAY, cap, now)).toBe(true);
    expect(store.alerts.queueCap(ana, '80', DAY, { ...cap, spent: 90 }, now)).toBe(false);
    expect(store.alerts.queueCap(ana, '100', DAY, { ...cap, spent: 100 }, now)).toBe(true);
    expect(store.alerts.queueCap(ana, '80', '2026-03-11', cap, now)).toBe(true);
    const bob = { ...ana, userId: 'U2' };
    expect(store.alerts.queueCap(bob, '100', DAY, cap, now)).toBe(true);
    expect(store.alerts.queueCap(bob, '80', DAY, cap, now)).toBe(false);
    expect(woken).toBe(4);
    expect(store.alerts.unsent().map((a) => `${a.userId}:${a.threshold}:${a.day}`)).toEqual([
      'U1:100:2026-03-10',
      'U1:80:2026-03-10',
      'U1:80:2026-03-11',
      'U2:100:2026-03-10',
    ]);
  });

  it('queue a tenant’s balance alert once a day, to each known admin and the person once', () => {
    const tenant = { platform: 'slack' as const, workspaceId: 'T1' };
    store.tenants.addAdmin(tenant, 'U7', 'U8', now);
    store.alerts.sawAdmin({ ...tenant, userId: 'U9' }, now);
    expect(store.alerts.knownAdmins(tenant).sort()).toEqual(['U7', 'U8', 'U9']);
    expect(store.alerts.knownAdmins({ platform: 'discord', workspaceId: 'T1' })).toEqual([]);
    expect(store.alerts.queueBalance(tenant, ['U7', 'U8', 'U9', 'U1', 'U7'], DAY, low, now)).toBe(true);
    expect(store.alerts.queueBalance(tenant, ['U5'], DAY, { ...low, crossedBy: 'U5' }, now)).toBe(false);
    expect(
      store.alerts
        .unsent()
        .map((a) => a.userId)
        .sort(),
    ).toEqual(['U1', 'U7', 'U8', 'U9']);
    expect(store.alerts.balanceAlert).toBe(500);
  });

  it('let one live process post an alert, and another take it over once that one is gone', () => {
    const self = (id: string) => ({ id, host: 'h', pid: id === 'p1' ? 1 : 2 });
    store.processes.register(self('p1'), () => true, now);
    store.processes.register(self('p2'), () => true, now);
    store.alerts.queueCap(ana, '80', DAY, cap, now);
    const [alert] = store.alerts.unsent();
    if (alert === undefined) throw new Error('no alert');
    expect(store.alerts.claim(alert, 'p1', now)).toEqual({ mayHaveLanded: false, attempts: 1 });
    expect(store.alerts.claim(alert, 'p2', now)).toBeNull();
    // Its own post that failed is p1's to try again, knowing it may have landed.
    expect(store.alerts.claim(alert, 'p1', now)).toEqual({ mayHaveLanded: true, attempts: 2 });
    store.processes.unregister('p1', now);
    expect(store.alerts.claim(alert, 'p2', now)).toEqual({ mayHaveLanded: true, attempts: 3 });
    store.alerts.markPosted(alert, { channelId: 'D1', messageId: '1.2' }, now);
    expect(store.alerts.claim(alert, 'p2', now)).toBeNull();
    expect(store.alerts.unsent()).toEqual([]);
    store.alerts.drop(alert);
    expect(store.db.prepare('SELECT state FROM budget_alerts').pluck().all()).toEqual(['posted']);
    expect(store.alerts.purge('2026-03-11')).toBe(1);
  });
});
