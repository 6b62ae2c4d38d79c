/**
 * Reply notifications and digests on Discord, end to end: INTERACTION_CREATE over the fake gateway to the real
 * discord.js client, the jobs posting through the Discord adapter's Outbound to the fake's channel and thread
 * routes (behind a front that can hold a post), the sandbox as the service, one file database across restarts.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../../../src/adapters/discord/index.js';
import type { App } from '../../../src/app.js';
import { utcDay } from '../../../src/core/credits.js';
import type { Jobs } from '../../../src/core/jobs/index.js';
import { createLogger, type Logger } from '../../../src/core/logger.js';
import { reply, text } from '../../../src/core/ui/index.js';
import { APP_ID, CHANNEL, edited, GUILD, slash } from '../../adapters/discord/harness.js';
import { createFakeDiscord, type FakeDiscord, type FakeUser } from '../../fakes/discord-fake.js';
import {
  type ChatWorld,
  crashAfterLanding,
  type Front,
  startChatWorld,
  startFront,
  testLogger,
} from './chat-world.js';
import { until } from './fixture.js';

const POLLING = { pollIntervalMs: 10, digestCheckMs: 60_000 };
const DIGESTS = { pollIntervalMs: 60_000, digestCheckMs: 10 };

let world: ChatWorld | null = null;
let fake: FakeDiscord | null = null;
let front: Front | null = null;
const adapters: DiscordAdapter[] = [];

afterEach(async () => {
  await world?.close();
  for (const adapter of adapters.splice(0)) await adapter.stop();
  // Posts held as if the process died with them in flight get an error discord.js does not retry.
  await front?.stop({ status: 404, body: { message: 'Unknown Channel', code: 10003 } });
  await fake?.stop();
  world = null;
  fake = null;
  front = null;
});

async function setUp(start: string): Promise<{ world: ChatWorld; fake: FakeDiscord; front: Front }> {
  world = await startChatWorld(start);
  fake = createFakeDiscord({ applicationId: APP_ID, guildId: GUILD, channelId: CHANNEL });
  await fake.start();
  front = await startFront(fake.apiUrl.replace(/\/api$/, ''));
  return { world, fake, front };
}

/** Starts the real adapter of `app`, its REST calls going through the front. */
async function startAdapter(app: App, apiBase: string, logger = testLogger()): Promise<DiscordAdapter> {
  const adapter = createDiscordAdapter({
    config: { token: 'fake-token', applicationId: APP_ID, apiUrl: `${apiBase}/api`, guildIds: [GUILD] },
    chat: app.chat,
    logger,
  });
  adapters.push(adapter);
  await adapter.start();
  return adapter;
}

/** JSON text without Discord's markdown escapes (`\:`, serialised as `\\:`), to search for plain text. */
const plain = (json: string) => json.replace(/\\\\([^\w\s\\])/g, '$1');

/** Runs `/scout <group> <sub>` and returns the edit of its deferred reply, as plain JSON text. */
async function command(
  discord: FakeDiscord,
  group: string,
  sub: string,
  options: Array<Record<string, unknown>> = [],
  user?: FakeUser,
): Promise<string> {
  const sent = slash(discord, group, sub, options, user === undefined ? {} : { user });
  return plain(JSON.stringify((await discord.waitFor(edited(sent.token), `/scout ${group} ${sub}`)).body));
}

/**
 * The channel messages that reached Discord: where they went, what they said, the id Discord gave them. A repeat
 * Discord answered with an earlier message (same nonce) is that message, listed once.
 */
const posts = (f: Front) =>
  f.exchanges
    .map((e) => ({ exchange: e, route: /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(e.path) }))
    .filter(({ exchange, route }) => exchange.method === 'POST' && route !== null && exchange.status === 200)
    .map(({ exchange, route }) => ({
      channelId: route?.[1],
      all: plain(exchange.body),
      id: (JSON.parse(exchange.answer) as { id?: string }).id,
    }))
    .filter((post, index, all) => all.findIndex((p) => p.id === post.id) === index);

const postOf = (f: Front, body: string) => posts(f).find((p) => p.all.includes(body));
const countOf = (f: Front, body: string) => posts(f).filter((p) => p.all.includes(body)).length;

/** Requests to start a thread on a message. */
const threadRequests = (f: Front) =>
  f.exchanges.filter((e) => e.method === 'POST' && /\/messages\/\d+\/threads$/.test(e.path));

/** Threads Discord started (a request for a thread a message already has is refused). */
const threadStarts = (f: Front) => threadRequests(f).filter((e) => e.status < 300);

/** Resolves once the poller read the service `n` more times (each idle poll is one request). */
const morePolls = (w: ChatWorld, n: number) => {
  const at = w.pollCount();
  return until(() => w.pollCount() >= at + n, `${n} more polls`);
};

/** Resolves once the digest loop checked `n` more times (one clock read per active digest and check). */
const moreChecks = (w: ChatWorld, n: number) => {
  const at = w.clockReads;
  return until(() => w.clockReads >= at + n, `${n} more digest checks`);
};

/** A running Scout: its app, its Discord adapter and its jobs. */
interface Run {
  app: App;
  adapter: DiscordAdapter;
  jobs: Jobs;
}

/** Starts Scout on `world` behind `front`, runs `before` (a subscription, a digest), then its jobs. */
async function startRun(
  w: ChatWorld,
  f: Front,
  intervals: typeof POLLING,
  before: () => Promise<unknown> = async () => undefined,
  logger = testLogger(),
): Promise<Run> {
  const app = await w.app();
  const adapter = await startAdapter(app, f.url, logger);
  await before();
  return { app, adapter, jobs: await w.startJobs(app, 'discord', adapter.outbound, intervals) };
}

const channelPost = (method: string, path: string) =>
  method === 'POST' && /^\/api\/v10\/channels\/\d+\/messages$/.test(path);

/** Lets the platform take the next post but loses its answer, then stops `run` without any cleanup. */
const crashOnceItLands = (run: Run, f: Front, trigger: () => void) =>
  crashAfterLanding(f, channelPost, trigger, async () => {
    await run.jobs.stop();
    await run.adapter.stop();
  });

/** POSTs whose body names `body`: every attempt, including repeats Discord answered with an earlier message. */
const attempts = (f: Front, body: string) =>
  f.exchanges.filter((e) => e.method === 'POST' && plain(e.body).includes(body));

/** A logger that keeps its warnings (and worse) for the test to read. */
function warningLogger(): { logger: Logger; messages: string[] } {
  const messages: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      messages.push(String((JSON.parse(String(chunk)) as { msg?: unknown }).msg));
      done();
    },
  });
  return { logger: createLogger({ level: 'warn', destination }), messages };
}

/** Whether Scout read the recent messages of `channelId`. */
const historyRead = (f: Front, channelId: string | undefined) =>
  f.exchanges.findIndex(
    (e) => e.method === 'GET' && e.path.startsWith(`/api/v10/channels/${channelId}/messages?`),
  );

describe('reply notifications on Discord', () => {
  it('subscribe by interaction, announce a reply once, and thread later replies of its mail thread', async () => {
    const { world, fake, front } = await setUp('2026-03-10T12:00:00Z');
    const app = await world.app();
    const adapter = await startAdapter(app, front.url);
    expect(await command(fake, 'notify', 'on')).toMatch(/\d+ earlier replies exist/);
    const [subscription] = await app.store.subscriptions.list({ platform: 'discord', workspaceId: GUILD });
    expect(subscription?.channelId).toBe(CHANNEL);

    await world.startJobs(app, 'discord', adapter.outbound, POLLING);
    await morePolls(world, 3);
    // History is not announced.
    expect(posts(front)).toEqual([]);

    const first = world.replyArrives('Lark answers: I would love to work with you.');
    await until(() => posts(front).length === 1, 'the first notification');
    const [post] = posts(front);
    expect(post?.channelId).toBe(CHANNEL);
    expect(post?.all).toContain('Lark answers');
    expect(post?.id).toMatch(/^\d{17,19}$/);
    await morePolls(world, 3);
    expect(posts(front)).toHaveLength(1);
    expect(threadStarts(front)).toEqual([]);

    world.replyArrives('Wren answers: my rate is 500.', first.thread_id ?? undefined);
    await until(() => posts(front).length === 2, 'the threaded notification');
    // A thread started on the first notification (the fake gives it the message's id) takes the second.
    expect(threadStarts(front).map((e) => e.path)).toEqual([
      `/api/v10/channels/${CHANNEL}/messages/${post?.id}/threads`,
    ]);
    expect(posts(front)[1]?.channelId).toBe(post?.id);
    expect(posts(front)[1]?.all).toContain('Wren answers');
    expect(fake.message(post?.id ?? '')?.thread).toBeDefined();

    world.replyArrives('Finch answers: next week works.', first.thread_id ?? undefined);
    await until(() => posts(front).length === 3, 'the second threaded notification');
    expect(posts(front)[2]?.channelId).toBe(post?.id);
    expect(threadStarts(front)).toHaveLength(1);
    await morePolls(world, 3);
    for (const body of ['Lark answers', 'Wren answers', 'Finch answers'])
      expect(countOf(front, body)).toBe(1);
  });

  it('a lost answer is found by its ref past the first page of a busy channel’s history', async () => {
    const { world, fake, front } = await setUp('2026-03-10T12:00:00Z');
    const first = await startRun(world, front, POLLING, () => command(fake, 'notify', 'on'));
    let f: { thread_id?: string | null | undefined } = {};
    await crashOnceItLands(first, front, () => {
      f = world.replyArrives('Reply foxtrot');
    });
    expect(countOf(front, 'Reply foxtrot')).toBe(1);
    // The outage outlasts the few minutes Discord keeps a nonce: only the footer ref can tell the post apart. The
    // channel is busy meanwhile: foxtrot is past the first page of its history.
    fake.forgetNonces();
    fake.chatter(CHANNEL, 150);

    const second = await startRun(world, front, POLLING);
    world.replyArrives('Reply golf, in the thread of foxtrot', f.thread_id ?? undefined);
    await until(() => countOf(front, 'Reply golf') === 1, 'reply golf after the restart');
    await morePolls(world, 3);

    expect(countOf(front, 'Reply foxtrot')).toBe(1);
    const tries = attempts(front, 'Reply foxtrot');
    expect(tries).toHaveLength(1);
    expect(plain(tries[0]?.body ?? '')).toMatch(/"footer":\{"text":"ref [\w-]{10}"\}/);
    // The restart read the channel's recent messages before posting anything.
    const golf = front.exchanges.findIndex(
      (e) => e.method === 'POST' && plain(e.body).includes('Reply golf'),
    );
    expect(historyRead(front, CHANNEL)).toBeGreaterThan(-1);
    expect(historyRead(front, CHANNEL)).toBeLessThan(golf);
    expect(front.exchanges.some((e) => e.method === 'GET' && /\/messages\?.*before=\d+/.test(e.path))).toBe(
      true,
    );
    // Golf goes into a thread on the message Discord had, found by the look-up.
    expect(postOf(front, 'Reply golf')?.channelId).toBe(postOf(front, 'Reply foxtrot')?.id);
    await until(
      async () => (await second.app.store.outbox.unposted('reply')).length === 0,
      'foxtrot and golf recorded',
    );
  });

  it('without Read Message History a notification is not held back; it says why, and the nonce stops a repeat', async () => {
    const { world, fake, front } = await setUp('2026-03-10T12:00:00Z');
    const first = await startRun(world, front, POLLING, () => command(fake, 'notify', 'on'));
    await crashOnceItLands(first, front, () => world.replyArrives('Reply kilo'));
    // Scout loses Read Message History in the channel; the restart comes within Discord's nonce window.
    fake.denyHistory();

    const { logger, messages } = warningLogger();
    const second = await startRun(world, front, POLLING, undefined, logger);
    const lima = world.replyArrives('Reply lima');
    await until(() => countOf(front, 'Reply lima') === 1, 'reply lima after the restart');
    // Threads need no history either: a later reply to lima starts one on its notification by id.
    world.replyArrives('Reply mike, in the thread of lima', lima.thread_id ?? undefined);
    await until(() => countOf(front, 'Reply mike') === 1, 'reply mike in a thread');
    expect(postOf(front, 'Reply mike')?.channelId).toBe(postOf(front, 'Reply lima')?.id);

    expect(messages.filter((m) => m.includes('Read Message History'))).toHaveLength(1);
    expect(historyRead(front, CHANNEL)).toBe(-1);
    expect(countOf(front, 'Reply kilo')).toBe(1);
    // Kilo was sent again with the same nonce, and Discord answered with the message it already had.
    expect(attempts(front, 'Reply kilo')).toHaveLength(2);
    // Both are recorded as posted (lima's record follows Discord's answer).
    await until(
      async () => (await second.app.store.outbox.unposted('reply')).length === 0,
      'kilo and lima recorded',
    );
  });
});

describe('the Discord outbound', () => {
  it('a post of several messages cut off after the first sends only the rest when tried again', async () => {
    const { world, fake, front } = await setUp('2026-03-10T12:00:00Z');
    const app = await world.app();
    const first = await startAdapter(app, front.url);
    const long = reply(
      ['a', 'b', 'c'].map((letter) => text(letter.repeat(3000))),
      { visibility: 'channel' },
    );
    const channel = { platform: 'discord' as const, workspaceId: GUILD, channelId: CHANNEL };
    let sent = 0;
    // The process stops while the second message is on its way: it never reaches Discord.
    front.hold = (method, path) => channelPost(method, path) && ++sent === 2;
    void first.outbound.post(channel, long, { key: 'test:long' }).catch(() => null);
    await until(() => front.held.length === 1, 'the second message to be held');
    await first.stop();
    front.hold = null;
    fake.forgetNonces();

    const second = await startAdapter(app, front.url);
    const again = await second.outbound.post(channel, long, { key: 'test:long', mayHaveLanded: true });
    const landed = posts(front);
    // Three messages (two 3,000-character embeds do not fit one with the ref); the first was not sent again.
    expect(landed.map((p) => ['a', 'b', 'c'].find((l) => p.all.includes(l.repeat(3000))))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(attempts(front, 'aaaa')).toHaveLength(1);
    expect(again.messageId).toBe(landed[0]?.id);
    // Each message carries its own ref.
    const refs = landed.map((p) => /"text":"(ref [\w-]{10})"/.exec(p.all)?.[1]);
    expect(new Set(refs).size).toBe(3);
  });
});

describe('daily viral digests on Discord', () => {
  it('a digest made by interaction fires once at its local time, in its channel, charged to its creator', async () => {
    // 10 March 2026: Paris is UTC+1, so 09:00 Europe/Paris is 08:00 UTC.
    const { world, fake, front } = await setUp('2026-03-10T07:58:00Z');
    const app = await world.app();
    const adapter = await startAdapter(app, front.url);
    const creator: FakeUser = { id: '200000000000000042', username: 'dee' };
    const scheduled = await command(
      fake,
      'digest',
      'add',
      [
        { type: 3, name: 'time', value: '09:00' },
        { type: 3, name: 'tz', value: 'Europe/Paris' },
        { type: 4, name: 'top', value: 3 },
      ],
      creator,
    );
    expect(scheduled).toContain('First post: 2026-03-10 08:00 UTC');
    const jobs = await world.startJobs(app, 'discord', adapter.outbound, DIGESTS);

    await moreChecks(world, 3);
    world.clock.set(new Date('2026-03-10T07:59:59Z'));
    await moreChecks(world, 3);
    expect(posts(front)).toEqual([]);

    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    await until(() => posts(front).length === 1, 'the digest');
    const [digest] = posts(front);
    expect(digest?.channelId).toBe(CHANNEL);
    expect(digest?.all).toContain('Daily viral digest #1');
    expect(digest?.all).toContain('2026-03-10');
    const ledgerActor = { platform: 'discord' as const, workspaceId: GUILD, userId: creator.id };
    expect(await app.store.ledger.spent(ledgerActor, utcDay(world.clock.now()))).toBeGreaterThan(0);

    await moreChecks(world, 3);
    world.clock.set(new Date('2026-03-10T15:00:00Z'));
    await moreChecks(world, 3);
    expect(posts(front)).toHaveLength(1);

    // A restart later that day (a new process: its adapter serves the listed server again) posts nothing again.
    await jobs.stop();
    await adapter.stop();
    const restarted = await world.app();
    const readapted = await startAdapter(restarted, front.url);
    await world.startJobs(restarted, 'discord', readapted.outbound, DIGESTS);
    await moreChecks(world, 3);
    expect(posts(front)).toHaveLength(1);

    // The next day at the same local time, the next one, in the same channel.
    world.clock.set(new Date('2026-03-11T08:00:00Z'));
    await until(() => posts(front).length === 2, 'the next day’s digest');
    expect(posts(front)[1]?.channelId).toBe(CHANNEL);
    expect(posts(front)[1]?.all).toContain('2026-03-11');
    expect(threadStarts(front)).toEqual([]);
  });
});
