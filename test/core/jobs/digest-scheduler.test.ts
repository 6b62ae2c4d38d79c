import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import type { App } from '../../../src/app.js';
import type { Actor } from '../../../src/core/actor.js';
import { utcDay } from '../../../src/core/credits.js';
import { createDigestScheduler, type Jobs, zonedInstant } from '../../../src/core/jobs/index.js';
import { renderText } from '../../../src/core/ui/index.js';
import {
  type RecordingOutbound,
  recordedJobs,
  recordingOutbound,
  silentLogger,
  startWorld,
  until,
  type World,
} from './fixture.js';

let world: World;
const jobs: Jobs[] = [];
const ana: Actor = { ...LOCAL_ACTOR, userId: 'ana', userName: 'Ana' };

beforeEach(async () => {
  // 10 March 2026: Paris is UTC+1 (summer time starts on 29 March).
  world = await startWorld('2026-03-10T07:58:00Z');
});
afterEach(async () => {
  for (const running of jobs.splice(0)) await running.stop();
  await world.close();
});

/** The jobs of `app` posting through `outbound`, checking digests every 10 ms. */
const startDigestJobs = (app: App, outbound: RecordingOutbound): Jobs =>
  recordedJobs(app, outbound, { pollIntervalMs: 60_000, digestCheckMs: 10 }, jobs);

/** The digest scheduler of `app` posting through `outbound`, checked by the test. */
const schedulerOf = (app: App, outbound: RecordingOutbound) =>
  createDigestScheduler({
    app,
    outbound: new Map([['terminal', outbound]]),
    logger: silentLogger(),
    clock: world.clock,
  });

describe('daily viral digests', () => {
  it('fire once at their local time, in their time zone, charged to their creator', async () => {
    const app = await world.app();
    const outbound = recordingOutbound();
    const scheduled = await app.dispatcher.text({
      actor: ana,
      channelId: 'trends',
      text: 'digest 09:00 Europe/Paris top:3',
    });
    expect(renderText(scheduled).text).toContain('First post: 2026-03-10 08:00 UTC');
    const scheduler = schedulerOf(app, outbound);
    expect(await scheduler.check()).toBe(0);
    world.clock.set(new Date('2026-03-10T07:59:59Z'));
    expect(await scheduler.check()).toBe(0);
    expect(outbound.posts).toEqual([]);

    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    expect(await scheduler.check()).toBe(1);
    world.clock.set(new Date('2026-03-10T15:00:00Z'));
    expect(await scheduler.check()).toBe(0);
    expect(outbound.posts).toHaveLength(1);
    const first = outbound.posts[0];
    expect(first?.channel.channelId).toBe('trends');
    expect(first?.text).toContain('Daily viral digest #1 · 2026-03-10');
    expect(first?.reply.nodes.filter((n) => n.type === 'card')).toHaveLength(3);

    const day = utcDay(world.clock.now());
    expect(await app.store.ledger.spent(ana, day)).toBeGreaterThan(0);
    expect(await app.store.ledger.spent(LOCAL_ACTOR, day)).toBe(0);

    // The next day, the posts of the first digest are left out.
    world.clock.set(new Date('2026-03-11T08:00:00Z'));
    expect(await scheduler.check()).toBe(1);
    // Each post's card links to its own video.
    const ids = (n: number) =>
      (outbound.posts[n]?.reply.nodes ?? []).flatMap((node) =>
        node.type === 'card' && node.link !== null ? [node.link.url] : [],
      );
    expect(ids(1)).toHaveLength(3);
    expect(ids(1).filter((id) => ids(0).includes(id))).toEqual([]);
  });

  it('posts a digest cut off by a stop again at start, with its key, flagged as possibly posted, once', async () => {
    const app = await world.app();
    await app.dispatcher.text({ actor: ana, channelId: 'trends', text: 'digest 08:00 UTC top:2' });
    const before = recordingOutbound('before-');
    // The process dies while posting the digest: the post never completes and nothing more is recorded.
    before.hangAfter = 0;
    const first = startDigestJobs(app, before);
    await first.start();
    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    await until(() => before.hung.length === 1, 'the digest post to start');
    await first.stop();

    const restarted = await world.app();
    const after = recordingOutbound('after-');
    const second = startDigestJobs(restarted, after);
    await second.start();
    await until(
      async () => (await restarted.store.outbox.unposted('digest')).length === 0,
      'the digest posted',
    );
    const [cutOff] = before.hung;
    expect(cutOff).toMatchObject({ key: expect.any(String), mayHaveLanded: false });
    // It may have reached the platform: the retry carries its key, flagged so the Outbound looks for it first.
    expect(after.posts).toHaveLength(1);
    expect(after.posts[0]).toMatchObject({ key: cutOff?.key, mayHaveLanded: true });
    expect(after.posts[0]?.text).toContain('Daily viral digest #1 · 2026-03-10');
    const run = await restarted.store.outbox.find(LOCAL_ACTOR, 'digest:1:2026-03-10');
    expect(run).toMatchObject({ state: 'posted', attempts: 2 });
    await second.stop();
    world.clock.set(new Date('2026-03-10T15:00:00Z'));
    const scheduler = schedulerOf(restarted, after);
    expect(await scheduler.check()).toBe(0);
    expect(after.posts).toHaveLength(1);
  });

  it('is left to the Scout posting it by another sharing the database', async () => {
    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    const one = await world.app();
    await one.dispatcher.text({ actor: ana, channelId: 'trends', text: 'digest 08:00 UTC top:2' });
    const slow = recordingOutbound('one-');
    slow.hangAfter = 0;
    void schedulerOf(one, slow).check();
    await until(() => slow.hung.length === 1, 'the first Scout posting');
    // The second finds the day queued and claimed by a live process: it neither chooses nor posts it again.
    const two = await world.app();
    const other = recordingOutbound('two-');
    expect(await schedulerOf(two, other).check()).toBe(0);
    expect(other.posts).toEqual([]);
    expect(other.hung).toEqual([]);
  });

  it('posts nothing of a digest removed after its day was queued', async () => {
    const app = await world.app();
    await app.dispatcher.text({ actor: ana, channelId: 'trends', text: 'digest 08:00 UTC top:2' });
    const [digest] = await app.store.digests.active();
    if (digest === undefined) throw new Error('no digest');
    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    await app.store.digests.begin(digest, '2026-03-10', { posts: [], note: null }, world.clock.now());
    await app.store.digests.remove(ana, digest.id, world.clock.now());
    const outbound = recordingOutbound();
    expect(await schedulerOf(app, outbound).check()).toBe(0);
    expect(outbound.posts).toEqual([]);
    expect(await app.store.outbox.find(ana, 'digest:1:2026-03-10')).toMatchObject({ state: 'dropped' });
  });

  it('posts a digest missed while Scout was down at start, unless its day is over', async () => {
    const app = await world.app();
    await app.dispatcher.text({ actor: ana, channelId: 'trends', text: 'digest 08:30 UTC top:2' });
    await app.dispatcher.text({ actor: ana, channelId: 'late', text: 'digest 23:30 America/New_York top:2' });
    await app.stop();

    // Scout comes back at 10:00 UTC: the 08:30 UTC digest is due; 23:30 in New York (03:30 UTC next day) is not.
    world.clock.set(new Date('2026-03-10T10:00:00Z'));
    const restarted = await world.app();
    const outbound = recordingOutbound();
    const running = startDigestJobs(restarted, outbound);
    await running.start();
    await until(() => outbound.posts.length === 1, 'the missed digest');
    expect(outbound.posts[0]?.channel.channelId).toBe('trends');
    await running.stop();

    // Down again from before 23:30 New York time until after that day ended there: that day is skipped.
    expect(zonedInstant('2026-03-10', '23:30', 'America/New_York').toISOString()).toBe(
      '2026-03-11T03:30:00.000Z',
    );
    world.clock.set(new Date('2026-03-11T04:30:00Z'));
    const scheduler = schedulerOf(restarted, outbound);
    expect(await scheduler.check()).toBe(0);
    world.clock.set(new Date('2026-03-11T05:00:00Z'));
    expect(await scheduler.check()).toBe(0);
  });
});
