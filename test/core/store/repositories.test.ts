import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store/index.js';
import { EVERYONE } from '../../../src/core/store/settings.js';
import { openTestStore } from './engine.js';

let store: Store;
beforeEach(async () => {
  store = await openTestStore();
});
afterEach(async () => {
  await store.close();
});

const ana = { platform: 'slack', workspaceId: 'T1', userId: 'U1' } as const;
const bob = { platform: 'slack', workspaceId: 'T1', userId: 'U2' } as const;
const t0 = new Date('2026-11-20T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

describe('action tokens', () => {
  it('are short, opaque and scoped to their workspace', async () => {
    const token = await store.actions.create({
      kind: 'creators.page',
      payload: { page: 2 },
      actor: ana,
      ttlMs: 60_000,
      now: t0,
    });
    expect(token.length).toBeLessThanOrEqual(100);
    expect(token).toMatch(/^creators\.page:[A-Za-z0-9_-]{16}$/);
    expect(await store.actions.lookup(token, bob, t0)).toMatchObject({
      status: 'ok',
      record: { payload: { page: 2 } },
    });
    expect(await store.actions.lookup(token, { ...ana, workspaceId: 'T2' }, t0)).toEqual({
      status: 'unknown',
    });
    expect(await store.actions.lookup(token, { ...ana, platform: 'discord' }, t0)).toEqual({
      status: 'unknown',
    });
    expect(await store.actions.lookup('creators.page:nope', ana, t0)).toEqual({ status: 'unknown' });
    expect(await store.actions.lookup('x'.repeat(500), ana, t0)).toEqual({ status: 'unknown' });
  });

  it('expire, can be personal, and single-use ones are consumed once', async () => {
    const token = await store.actions.create({
      kind: 'credits.confirm',
      payload: null,
      actor: ana,
      personal: true,
      rerun: 'creators search',
      ttlMs: 1000,
      now: t0,
    });
    expect((await store.actions.lookup(token, bob, t0)).status).toBe('not-yours');
    expect(await store.actions.consume(token, t0)).toBe(true);
    expect(await store.actions.consume(token, t0)).toBe(false);
    expect((await store.actions.lookup(token, ana, t0)).status).toBe('used');
    const expired = await store.actions.lookup(token, ana, later(1000));
    expect(expired).toMatchObject({ status: 'expired', record: { rerun: 'creators search' } });
    expect(await store.actions.purge(later(2000))).toBe(1);
    expect((await store.actions.lookup(token, ana, later(1000))).status).toBe('unknown');
  });
});

describe('invocations', () => {
  it('let the first of two duplicates run and hand the second what was kept of its reply, and when', async () => {
    expect(await store.invocations.begin('k', t0, 10_000, null)).toEqual({ status: 'started' });
    expect(await store.invocations.begin('k', later(10), 10_000, null)).toEqual({ status: 'running' });
    await store.invocations.finish('k', { nodes: [] }, later(20));
    expect(await store.invocations.begin('k', later(30), 10_000, null)).toEqual({
      status: 'done',
      reply: { nodes: [] },
      at: later(20),
    });
    expect(await store.invocations.begin('k', later(10_001), 10_000, null)).toEqual({ status: 'started' });
  });

  it('take over a stale running claim and forget a released one', async () => {
    await store.invocations.begin('k', t0, 10_000, null, 60_000);
    expect(await store.invocations.begin('k', later(60_000), 10_000, null, 60_000)).toEqual({
      status: 'started',
    });
    await store.invocations.release('k');
    expect(await store.invocations.begin('k', later(60_001), 10_000, null)).toEqual({ status: 'started' });
  });

  it('take over at once a claim of a process that is gone, and keep one of a live process', async () => {
    const live = { id: 'p-live', host: 'h', pid: 111 };
    const dead = { id: 'p-dead', host: 'h', pid: 222 };
    const elsewhere = { id: 'p-far', host: 'other', pid: 222 };
    await store.processes.register(live, () => true, t0);
    await store.processes.register(dead, () => true, t0);
    await store.processes.register(elsewhere, () => true, t0);
    await store.invocations.begin('a', t0, 10_000, live.id);
    await store.invocations.begin('b', t0, 10_000, dead.id);
    await store.invocations.begin('c', t0, 10_000, elsewhere.id);
    // A new process on host h finds pid 222 gone: its claim goes; the other host's is judged by its heartbeat.
    const gone = await store.processes.register(
      { id: 'p-new', host: 'h', pid: 333 },
      (pid) => pid !== 222,
      later(10),
    );
    expect(gone).toBe(1);
    expect(await store.invocations.begin('a', later(20), 10_000, 'p-new')).toEqual({ status: 'running' });
    expect(await store.invocations.begin('b', later(20), 10_000, 'p-new')).toEqual({ status: 'started' });
    expect(await store.invocations.begin('c', later(20), 10_000, 'p-new')).toEqual({ status: 'running' });
    // A heartbeat that stops makes the claim free once it is stale; a live one keeps it.
    await store.processes.heartbeat(live, later(40_000));
    expect(await store.invocations.begin('c', later(40_001), 10_000, 'p-new')).toEqual({ status: 'started' });
    expect(await store.invocations.begin('a', later(40_002), 10_000, 'p-new')).toEqual({ status: 'running' });
    // A process of another container with the same host name and pid keeps its claims while it beats.
    const twin = { id: 'p-twin', host: 'h', pid: 333 };
    await store.processes.register(twin, () => true, later(40_004));
    expect(await store.invocations.begin('x', later(40_005), 10_000, 'p-new')).toEqual({ status: 'started' });
    await store.processes.heartbeat({ id: 'p-new', host: 'h', pid: 333 }, later(40_006));
    expect(await store.invocations.begin('x', later(40_007), 10_000, twin.id)).toEqual({ status: 'running' });
    // A clean stop releases what the process still held.
    await store.processes.unregister(live.id, new Date());
    expect(await store.invocations.begin('a', later(40_003), 10_000, 'p-new')).toEqual({ status: 'started' });
  });
});

describe('profile cache', () => {
  it('returns only fresh profiles among the ids asked', async () => {
    await store.profiles.put('acct_1', [{ id: 'a', profile: { handle: 'a' } }], t0);
    await store.profiles.put('acct_1', [{ id: 'b', profile: { handle: 'b' } }], later(5000));
    const fresh = await store.profiles.getFresh('acct_1', ['a', 'b', 'c'], later(1000));
    expect([...fresh.keys()]).toEqual(['b']);
    expect(fresh.get('b')).toEqual({ profile: { handle: 'b' }, fetchedAt: later(5000) });
    expect((await store.profiles.getFresh('acct_1', [], t0)).size).toBe(0);
    expect(await store.profiles.purge(later(1000))).toBe(1);
  });

  it('serves a profile only to the account that bought it', async () => {
    await store.profiles.put('acct_1', [{ id: 'a', profile: { handle: 'a' } }], t0);
    expect((await store.profiles.getFresh('acct_2', ['a'], t0)).size).toBe(0);
    await store.profiles.put('acct_2', [{ id: 'a', profile: { handle: 'a2' } }], later(10));
    expect((await store.profiles.getFresh('acct_1', ['a'], t0)).get('a')?.profile).toEqual({ handle: 'a' });
    expect((await store.profiles.getFresh('acct_2', ['a'], t0)).get('a')?.profile).toEqual({ handle: 'a2' });
  });

  it('are found by platform and handle, ignoring ASCII case and a leading @, whatever else they hold', async () => {
    await store.profiles.put(
      'acct_1',
      [
        { id: 'x', profile: { source: 'TikTok', handle: '@Émile_Zola', bio: 'zero\u0000byte' } },
        { id: 'y', profile: { source: 'instagram', handle: 'emile_zola' } },
      ],
      t0,
    );
    const found = await store.handles.find('acct_1', 'tiktok', 'Émile_ZOLA', t0);
    // A NUL character, which PostgreSQL's JSON refuses, is not kept.
    expect(found?.profile).toMatchObject({ handle: '@Émile_Zola', bio: 'zerobyte' });
    // Only ASCII letters fold: É is not é.
    expect(await store.handles.find('acct_1', 'tiktok', 'émile_zola', t0)).toBeNull();
    expect((await store.handles.find('acct_1', 'instagram', 'Emile_Zola', t0))?.profile).toMatchObject({
      handle: 'emile_zola',
    });
    expect(await store.handles.find('acct_2', 'tiktok', 'Émile_Zola', t0)).toBeNull();
    expect(await store.handles.find('acct_1', 'tiktok', 'Émile_Zola', later(1))).toBeNull();
  });
});

describe('search sessions', () => {
  it('collect ids without duplicates and track the service paging', async () => {
    const session = await store.searches.create({
      actor: ana,
      command: 'creators search niche:yoga',
      filters: { nichesToPromote: 'yoga' },
      ids: ['a', 'b', 'a'],
      nextServicePage: 2,
      serviceTotalPages: 3,
      createdAt: t0,
      expiresAt: later(60_000),
    });
    expect(session.ids).toEqual(['a', 'b']);
    const extended = await store.searches.extend(session.id, ['b', 'c'], null, 3);
    expect(extended.ids).toEqual(['a', 'b', 'c']);
    expect(await store.searches.get(session.id, ana)).toMatchObject({
      ids: ['a', 'b', 'c'],
      nextServicePage: null,
      actor: ana,
    });
    expect(await store.searches.get('missing', ana)).toBeUndefined();
    // Only within the tenant that made it.
    expect(await store.searches.get(session.id, { ...ana, workspaceId: 'other' })).toBeUndefined();
    expect(await store.searches.get(session.id, { ...ana, platform: 'discord' })).toBeUndefined();
  });
});

describe('settings', () => {
  it('resolve a person cap before the workspace default', async () => {
    expect(await store.settings.dailyCap(ana)).toBeNull();
    await store.settings.setDailyCap({ ...ana, userId: EVERYONE }, 100, 'admin', t0);
    expect(await store.settings.dailyCap(ana)).toBe(100);
    await store.settings.setDailyCap(ana, 10, 'admin', t0);
    expect(await store.settings.dailyCap(ana)).toBe(10);
    expect(await store.settings.dailyCap(bob)).toBe(100);
    expect(await store.settings.caps(ana)).toEqual([
      { userId: '*', dailyCap: 100 },
      { userId: 'U1', dailyCap: 10 },
    ]);
    await store.settings.setDailyCap(ana, null, 'admin', t0);
    expect(await store.settings.dailyCap(ana)).toBe(100);
  });

  it('remember preferences per person', async () => {
    await store.settings.setPreference(ana, 'last-list', 'L1');
    await store.settings.setPreference(ana, 'last-list', 'L2');
    expect(await store.settings.preference(ana, 'last-list')).toBe('L2');
    expect(await store.settings.preference(bob, 'last-list')).toBeNull();
  });
});

describe('reply announcements', () => {
  it('queue each new reply once per subscription in the outbox, in the order the replies were written', async () => {
    const { subscription } = await store.subscriptions.subscribe({
      platform: 'discord',
      workspaceId: 'G1',
      channelId: 'C1',
      projectId: null,
      createdBy: 'U1',
      now: t0,
    });
    const fresh = (messageId: string, at: number | null) => ({
      messageId,
      threadId: 'mail-1',
      messageAt: at === null ? null : later(at).toISOString(),
      message: { id: messageId },
      subscriptions: [subscription],
    });
    expect(await store.subscriptions.recordPoll('key', 3, [fresh('m2', 60_000), fresh('m0', null)], t0)).toBe(
      2,
    );
    expect(await store.subscriptions.recordPoll('key', 3, [fresh('m1', 0), fresh('m2', 60_000)], t0)).toBe(1);
    expect(await store.subscriptions.seen('key', ['m0', 'm1', 'm2', 'm3'])).toEqual(
      new Set(['m0', 'm1', 'm2']),
    );
    const queued = await store.outbox.unposted('reply');
    expect(queued.map((post) => post.key)).toEqual([
      `reply:${subscription.id}:m1`,
      `reply:${subscription.id}:m2`,
      `reply:${subscription.id}:m0`,
    ]);
    expect(queued[0]).toMatchObject({
      platform: 'discord',
      workspaceId: 'G1',
      to: { channelId: 'C1' },
      thread: 'mail-1',
      payload: { subscriptionId: subscription.id, message: { id: 'm1' } },
    });
    const [first] = queued;
    if (first === undefined) throw new Error('not queued');
    await store.outbox.markPosted(first.id, { channelId: 'C1', messageId: 'P1', threadId: null }, t0);
    expect(await store.subscriptions.postedCount(subscription.id)).toBe(1);
  });
});
