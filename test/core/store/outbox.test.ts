/**
 * The outbox: a post queued once under its key, claimed by one live process at a time (taken over once its owner is
 * gone or lets it go), flagged as possibly posted on every attempt after the first, and read back in order, by
 * thread and by series.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/index.js';
import type { NewPost } from '../../../src/core/store/outbox.js';
import { openTestStore } from './engine.js';

let store: Store;
beforeEach(async () => {
  store = await openTestStore();
});
afterEach(async () => {
  await store.close();
});

const t0 = new Date('2026-03-10T12:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const tenant = { platform: 'slack' as const, workspaceId: 'T1' };

/** A reply-like post in channel C1. */
const post = (key: string, more: Partial<NewPost> = {}): NewPost => ({
  kind: 'reply',
  ...tenant,
  to: { channelId: 'C1' },
  key,
  series: 'subscription:1',
  payload: { key },
  ...more,
});

const register = async (id: string) =>
  store.processes.register({ id, host: 'h', pid: id.length }, () => true, t0);

describe('the outbox', () => {
  it('queues a post once per tenant and key, and hands its posts out in the order they happened', async () => {
    expect(await store.outbox.queue(post('b', { happenedAt: later(2).toISOString() }), t0)).toBe(true);
    expect(await store.outbox.queue(post('b', { payload: { other: true } }), t0)).toBe(false);
    expect(await store.outbox.queue(post('b', { workspaceId: 'T2' }), t0)).toBe(true);
    await store.outbox.queue(post('undated'), t0);
    await store.outbox.queue(post('a', { happenedAt: later(1).toISOString() }), t0);
    await store.outbox.queue(post('skipped', { state: 'dropped' }), t0);
    await store.outbox.queue(post('digest', { kind: 'digest' }), t0);
    const queued = await store.outbox.unposted('reply');
    expect(queued.map((p) => `${p.workspaceId}:${p.key}`)).toEqual(['T1:a', 'T1:b', 'T2:b', 'T1:undated']);
    expect(queued[1]).toMatchObject({ to: { channelId: 'C1' }, payload: { key: 'b' }, state: 'pending' });
    expect((await store.outbox.find(tenant, 'skipped'))?.state).toBe('dropped');
    expect(await store.outbox.find(tenant, 'none')).toBeNull();
    expect(await store.outbox.count({ series: 'subscription:1', tenant })).toBe(5);
  });

  it('lets one live process post, and another take it over, possibly posted, once that one is gone', async () => {
    await register('p1');
    await register('p22');
    await store.outbox.queue(post('k', { kind: 'budget-alert', to: { userId: 'U1' }, series: null }), t0);
    const [queued] = await store.outbox.unposted('budget-alert');
    if (queued === undefined) throw new Error('not queued');
    expect(queued.to).toEqual({ userId: 'U1' });
    expect(await store.outbox.claim(queued.id, 'p1', t0)).toEqual({ mayHaveLanded: false, attempts: 1 });
    expect(await store.outbox.claim(queued.id, 'p22', t0)).toBeNull();
    // Its own post that failed is p1's to try again, knowing it may have landed.
    expect(await store.outbox.claim(queued.id, 'p1', t0)).toEqual({ mayHaveLanded: true, attempts: 2 });
    await store.processes.unregister('p1', t0);
    expect(await store.outbox.claim(queued.id, 'p22', t0)).toEqual({ mayHaveLanded: true, attempts: 3 });
    await store.outbox.markPosted(queued.id, { channelId: 'D1', messageId: '1.2', threadId: null }, t0);
    expect(await store.outbox.claim(queued.id, 'p22', t0)).toBeNull();
    await store.outbox.drop(queued.id);
    expect((await store.outbox.find(tenant, 'k'))?.state).toBe('posted');
    expect(await store.outbox.unposted('budget-alert')).toEqual([]);
  });

  it('frees a post its owner let go of when stopped, and one whose owner stopped beating', async () => {
    await register('p1');
    await register('p22');
    await store.outbox.queue(post('stopped'), t0);
    await store.outbox.queue(post('silent'), t0);
    const [stopped, silent] = await store.outbox.unposted('reply');
    if (stopped === undefined || silent === undefined) throw new Error('not queued');
    await store.outbox.claim(stopped.id, 'p1', t0);
    await store.outbox.claim(silent.id, 'p1', t0);
    await store.outbox.release(stopped.id, 'p22');
    expect(await store.outbox.claim(stopped.id, 'p22', t0)).toBeNull();
    await store.outbox.release(stopped.id, 'p1');
    expect(await store.outbox.claim(stopped.id, 'p22', t0)).toEqual({ mayHaveLanded: true, attempts: 2 });
    expect(await store.outbox.claim(silent.id, 'p22', later(29_000))).toBeNull();
    await store.processes.heartbeat({ id: 'p22', host: 'h', pid: 3 }, later(31_000));
    expect(await store.outbox.claim(silent.id, 'p22', later(31_000))).toEqual({
      mayHaveLanded: true,
      attempts: 2,
    });
  });

  it('finds the first posted post of a thread, in the chat thread a later one opened', async () => {
    const threaded = (key: string, at: number) =>
      post(key, { thread: 'mail-1', happenedAt: later(at).toISOString() });
    await store.outbox.queue(threaded('m1', 0), t0);
    await store.outbox.queue(threaded('m2', 1), t0);
    const [m1, m2] = await store.outbox.unposted('reply');
    if (m1 === undefined || m2 === undefined) throw new Error('not queued');
    expect(await store.outbox.threadPost('subscription:1', 'mail-1')).toBeNull();
    // The first notification is a top-level post: no chat thread yet.
    await store.outbox.markPosted(m1.id, { channelId: 'C1', messageId: 'P1', threadId: null }, later(1));
    expect(await store.outbox.threadPost('subscription:1', 'mail-1')).toEqual({
      channelId: 'C1',
      messageId: 'P1',
      threadId: null,
    });
    // The second started a thread on it; later replies go there without starting another.
    await store.outbox.markPosted(m2.id, { channelId: 'C1', messageId: 'P2', threadId: 'P1' }, later(2));
    expect(await store.outbox.threadPost('subscription:1', 'mail-1')).toEqual({
      channelId: 'C1',
      messageId: 'P1',
      threadId: 'P1',
    });
    expect(await store.outbox.threadPost('subscription:1', 'mail-2')).toBeNull();
    expect(await store.outbox.threadPost('subscription:2', 'mail-1')).toBeNull();
    expect(await store.outbox.count({ series: 'subscription:1', state: 'posted' })).toBe(2);
  });

  it('forgets a tenant’s unposted posts of a kind, and purges a kind’s old posts', async () => {
    await store.outbox.queue(post('old-posted'), t0);
    await store.outbox.queue(post('pending'), later(1));
    await store.outbox.queue(post('other tenant', { workspaceId: 'T2' }), later(1));
    await store.outbox.queue(post('digest', { kind: 'digest' }), t0);
    const [posted] = await store.outbox.unposted('reply');
    if (posted === undefined) throw new Error('not queued');
    await store.outbox.markPosted(posted.id, { channelId: 'C1', messageId: 'P1', threadId: null }, t0);
    expect(await store.outbox.forget('reply', tenant)).toBe(1);
    expect((await store.outbox.unposted('reply')).map((p) => p.key)).toEqual(['other tenant']);
    expect(await store.outbox.purge('reply', later(1))).toBe(1);
    expect(await store.outbox.find(tenant, 'old-posted')).toBeNull();
    expect(await store.outbox.find(tenant, 'digest')).not.toBeNull();
  });
});
