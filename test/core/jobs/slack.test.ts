/**
 * Reply notifications and digests on Slack, end to end: signed slash commands to the real Bolt app in HTTP
 * mode, the jobs posting through the Slack adapter's Outbound to the fake Slack Web API, the sandbox as the
 * service, one file database across restarts.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import type { App } from '../../../src/app.js';
import { utcDay } from '../../../src/core/credits.js';
import type { Jobs } from '../../../src/core/jobs/index.js';
import {
  blockActionPayload,
  type FakeSlack,
  signedHeaders,
  slashCommandBody,
  startFakeSlack,
} from '../../fakes/slack-api.js';
import {
  type ChatWorld,
  crashAfterLanding,
  type Exchange,
  type Front,
  startChatWorld,
  startFront,
  testLogger,
} from './chat-world.js';
import { until } from './fixture.js';

const SECRET = 'jobs-signing-secret-0001';
const TEAM_ID = 'T0001';
const REPLIES = 'C0REPLIES';
const TRENDS = 'C0TRENDS';
const POLLING = { pollIntervalMs: 10, digestCheckMs: 60_000 };

let world: ChatWorld | null = null;
let slack: FakeSlack | null = null;
let front: Front | null = null;
const adapters: SlackAdapter[] = [];

afterEach(async () => {
  await world?.close();
  for (const adapter of adapters.splice(0)) await adapter.stop();
  // Posts held as if the process died with them in flight get a platform error, which Slack's client does not retry.
  await front?.stop({ status: 200, body: { ok: false, error: 'channel_not_found' } });
  await slack?.stop();
  world = null;
  slack = null;
  front = null;
});

async function setUp(start: string): Promise<{ world: ChatWorld; slack: FakeSlack; front: Front }> {
  world = await startChatWorld(start);
  slack = await startFakeSlack({ teamId: TEAM_ID });
  front = await startFront(slack.apiUrl.replace(/\/api\/$/, ''));
  return { world, slack, front };
}

async function startAdapter(app: App, apiBase: string): Promise<SlackAdapter> {
  const adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-jobs',
      oauth: null,
      signingSecret: SECRET,
      appToken: null,
      apiUrl: `${apiBase}/api/`,
      port: 0,
    },
    chat: app.chat,
    logger: testLogger(),
  });
  adapters.push(adapter);
  await adapter.start();
  return adapter;
}

/** Sends a signed Slack request to the adapter's events endpoint. */
async function send(adapter: SlackAdapter, form: Record<string, string>): Promise<number> {
  const body = new URLSearchParams(form).toString();
  const res = await request(`http://127.0.0.1:${adapter.port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body),
    body,
  });
  await res.body.text();
  return res.statusCode;
}

/** Runs `/scout <text>` in `channelId` and returns what Slack got at the response_url. */
async function slash(
  adapter: SlackAdapter,
  fake: FakeSlack,
  text: string,
  channelId: string,
  userId = 'U0ANA',
): Promise<Record<string, unknown>> {
  const id = `r-${fake.responses.length}-${Date.now()}`;
  const status = await send(
    adapter,
    slashCommandBody({ text, responseUrl: fake.responseUrl(id), channelId, userId, teamId: TEAM_ID }),
  );
  expect(status).toBe(200);
  return (await fake.waitFor(() => fake.responses.find((r) => r.id === id))).body;
}

/** The chat.postMessage calls that reached Slack, with the ts Slack answered. */
const posts = (f: Front) =>
  f.exchanges
    .filter((e) => e.path === '/api/chat.postMessage')
    .map((e: Exchange) => ({
      args: Object.fromEntries(new URLSearchParams(e.body)),
      ts: (JSON.parse(e.answer) as { ts?: string }).ts,
    }))
    .map((p) => ({ ...p, all: JSON.stringify(p.args) }));

const countOf = (f: Front, body: string) => posts(f).filter((p) => p.all.includes(body)).length;

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

/** A running Scout: its app, its Slack adapter and its jobs. */
interface Run {
  app: App;
  adapter: SlackAdapter;
  jobs: Jobs;
}

/** Starts Scout behind `front` with `/scout notify` in REPLIES (unless `subscribe` is false), then its jobs. */
async function startRun(w: ChatWorld, f: Front, fake: FakeSlack, subscribe = true): Promise<Run> {
  const app = await w.app();
  const adapter = await startAdapter(app, f.url);
  if (subscribe) await slash(adapter, fake, 'notify', REPLIES);
  return { app, adapter, jobs: await w.startJobs(app, 'slack', adapter.outbound, POLLING) };
}

const postMessage = (method: string, path: string) => method === 'POST' && path === '/api/chat.postMessage';

/** Lets the platform take the next post but loses its answer, then stops `run` without any cleanup. */
const crashOnceItLands = (run: Run, f: Front, trigger: () => void) =>
  crashAfterLanding(f, postMessage, trigger, async () => {
    await run.jobs.stop();
    await run.adapter.stop();
  });

const postOf = (f: Front, body: string) => posts(f).find((p) => p.all.includes(body));

describe('reply notifications on Slack', () => {
  it('subscribe by slash command, announce a reply once, and thread later replies of its mail thread', async () => {
    const { world, slack, front } = await setUp('2026-03-10T12:00:00Z');
    const app = await world.app();
    const adapter = await startAdapter(app, front.url);
    const subscribed = await slash(adapter, slack, 'notify', REPLIES);
    expect(subscribed.response_type).toBe('in_channel');
    expect(JSON.stringify(subscribed)).toMatch(/\d+ earlier replies exist/);

    await world.startJobs(app, 'slack', adapter.outbound, POLLING);
    await morePolls(world, 3);
    // History is not announced.
    expect(posts(front)).toEqual([]);

    const first = world.replyArrives('First answer: I would love to work with you.');
    await until(() => posts(front).length === 1, 'the first notification');
    const [post] = posts(front);
    expect(post?.args.channel).toBe(REPLIES);
    expect(post?.args.thread_ts).toBeUndefined();
    expect(post?.all).toContain('First answer');
    expect(post?.ts).toMatch(/^\d+\.\d+$/);
    await morePolls(world, 3);
    expect(countOf(front, 'First answer')).toBe(1);

    world.replyArrives('Second answer: my rate is 500.', first.thread_id ?? undefined);
    await until(() => posts(front).length === 2, 'the threaded notification');
    expect(posts(front)[1]?.all).toContain('Second answer');
    expect(posts(front)[1]?.args.channel).toBe(REPLIES);
    expect(posts(front)[1]?.args.thread_ts).toBe(post?.ts);

    // "Show conversation" on the notification answers with the mail thread.
    const blocks = JSON.parse(post?.args.blocks ?? '[]') as Array<{
      type: string;
      elements?: Array<{ type: string; action_id: string; text?: { text: string } }>;
    }>;
    const show = blocks
      .flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []))
      .find((e) => e.type === 'button' && e.text?.text === 'Show conversation');
    expect(show).toBeDefined();
    const responseUrl = slack.responseUrl('conversation');
    const pressed = blockActionPayload({
      actionId: show?.action_id ?? '',
      responseUrl,
      channelId: REPLIES,
      teamId: TEAM_ID,
      userId: 'U0ANA',
    });
    expect(await send(adapter, { payload: JSON.stringify(pressed) })).toBe(200);
    const conversation = await slack.waitFor(() => slack.responses.find((r) => r.id === 'conversation'));
    expect(JSON.stringify(conversation.body)).toContain('First answer');
  });

  it('a lost answer to a post at the end of a long thread is found by reading the whole thread', async () => {
    const { world, slack, front } = await setUp('2026-03-10T12:00:00Z');
    const first = await startRun(world, front, slack);
    const j = world.replyArrives('Reply J');
    await until(() => countOf(front, 'Reply J') === 1, 'reply J');
    const jTs = postOf(front, 'Reply J')?.ts as string;
    // The team talks in J's thread; Slack lists a thread oldest first, so the next post lands past page two.
    slack.chatter(REPLIES, 450, jTs);
    await crashOnceItLands(first, front, () => {
      world.replyArrives('Reply K, in the thread of J', j.thread_id ?? undefined);
    });

    await startRun(world, front, slack, false);
    world.replyArrives('Reply L, in the thread of J', j.thread_id ?? undefined);
    await until(() => countOf(front, 'Reply L') === 1, 'reply L after the restart');

    expect(countOf(front, 'Reply K')).toBe(1);
    const reads = slack.calls.filter((c) => c.method === 'conversations.replies');
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(reads.some((c) => c.args.cursor === '400')).toBe(true);
    for (const body of ['Reply K', 'Reply L']) expect(postOf(front, body)?.args.thread_ts, body).toBe(jTs);
  });

  it('a history Slack refuses to show does not hold a notification back', async () => {
    const { world, slack, front } = await setUp('2026-03-10T12:00:00Z');
    const first = await startRun(world, front, slack);
    await crashOnceItLands(first, front, () => world.replyArrives('Reply H'));

    // An install without the history scopes: the look-up fails, and H is posted rather than kept waiting.
    front.serve = (req, _body, res) => {
      if (req.url !== '/api/conversations.history') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'missing_scope' }));
      return true;
    };
    await startRun(world, front, slack, false);
    world.replyArrives('Reply I');
    await until(() => countOf(front, 'Reply I') === 1, 'reply I after the restart');
    expect(countOf(front, 'Reply H')).toBe(2);
  });
});

describe('daily viral digests on Slack', () => {
  it('a digest made by slash command fires once at its local time, in its channel, charged to its creator', async () => {
    // 10 March 2026: Paris is UTC+1, so 09:00 Europe/Paris is 08:00 UTC.
    const { world, slack, front } = await setUp('2026-03-10T07:58:00Z');
    const app = await world.app();
    const adapter = await startAdapter(app, front.url);
    const scheduled = await slash(adapter, slack, 'digest 09:00 Europe/Paris top:3', TRENDS, 'U0DIGEST');
    expect(JSON.stringify(scheduled)).toContain('First post: 2026-03-10 08:00 UTC');
    const digestJobs = { pollIntervalMs: 60_000, digestCheckMs: 10 };
    const jobs = await world.startJobs(app, 'slack', adapter.outbound, digestJobs);

    await moreChecks(world, 3);
    world.clock.set(new Date('2026-03-10T07:59:59Z'));
    await moreChecks(world, 3);
    expect(posts(front)).toEqual([]);

    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    await until(() => posts(front).length === 1, 'the digest');
    const [digest] = posts(front);
    expect(digest?.args.channel).toBe(TRENDS);
    expect(digest?.all).toContain('Daily viral digest #1');
    expect(digest?.all).toContain('2026-03-10');
    const creator = { platform: 'slack' as const, workspaceId: TEAM_ID, userId: 'U0DIGEST' };
    expect(await app.store.ledger.spent(creator, utcDay(world.clock.now()))).toBeGreaterThan(0);

    await moreChecks(world, 3);
    world.clock.set(new Date('2026-03-10T15:00:00Z'));
    await moreChecks(world, 3);
    expect(posts(front)).toHaveLength(1);

    // A restart later that day posts nothing again (the restarted Scout learns its workspace at start, as any does).
    await jobs.stop();
    await adapter.stop();
    const restarted = await world.app();
    const again = await startAdapter(restarted, front.url);
    await world.startJobs(restarted, 'slack', again.outbound, digestJobs);
    await moreChecks(world, 3);
    expect(posts(front)).toHaveLength(1);

    // The next day at the same local time, the next one.
    world.clock.set(new Date('2026-03-11T08:00:00Z'));
    await until(() => posts(front).length === 2, 'the next day’s digest');
    expect(posts(front)[1]?.args.channel).toBe(TRENDS);
    expect(posts(front)[1]?.all).toContain('2026-03-11');
  });
});
