/**
 * Budget alerts across processes, on Slack: Scouts sharing one database file (replicas, or a process and its
 * restart) take signed slash commands through the real Bolt app, and their jobs send the alerts through the Slack
 * adapter's Outbound behind a front that can hold a post or lose its answer, as when a process is killed.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import type { App } from '../../../src/app.js';
import type { Jobs } from '../../../src/core/jobs/index.js';
import { sql } from '../../../src/core/store/sql.js';
import { type FakeSlack, signedHeaders, slashCommandBody, startFakeSlack } from '../../fakes/slack-api.js';
import {
  type ChatWorld,
  crashAfterLanding,
  type Front,
  startChatWorld,
  startFront,
  testLogger,
} from './chat-world.js';
import { until } from './fixture.js';

const SECRET = 'alerts-signing-secret-0001';
const TEAM_ID = 'T0001';
const ANA = 'U0ANA';
const DM = 'D0ANA';
const JOBS = { pollIntervalMs: 3_600_000, digestCheckMs: 3_600_000, alertCheckMs: 20 };

let world: ChatWorld | null = null;
let slack: FakeSlack | null = null;
let front: Front | null = null;
const adapters: SlackAdapter[] = [];

afterEach(async () => {
  await world?.close();
  for (const adapter of adapters.splice(0)) await adapter.stop();
  await front?.stop({ status: 200, body: { ok: false, error: 'channel_not_found' } });
  await slack?.stop();
  world = null;
  slack = null;
  front = null;
});

/** A running Scout: its app, its Slack adapter and its jobs. */
interface Run {
  app: App;
  adapter: SlackAdapter;
  jobs: Jobs;
}

async function setUp(): Promise<{ world: ChatWorld; slack: FakeSlack; front: Front }> {
  world = await startChatWorld('2026-03-10T12:00:00Z');
  slack = await startFakeSlack({ teamId: TEAM_ID });
  front = await startFront(slack.apiUrl.replace(/\/api\/$/, ''));
  return { world, slack, front };
}

/** Starts a Scout on the world's database file, talking to Slack through the front. */
async function startRun(w: ChatWorld, f: Front): Promise<Run> {
  const app = await w.app();
  const adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-alerts',
      oauth: null,
      signingSecret: SECRET,
      appToken: null,
      apiUrl: `${f.url}/api/`,
      port: 0,
    },
    chat: app.chat,
    logger: testLogger(),
  });
  adapters.push(adapter);
  await adapter.start();
  return { app, adapter, jobs: await w.startJobs(app, 'slack', adapter.outbound, JOBS) };
}

/** Runs `/scout <text>` as Ana in `channelId` through `run`'s adapter; resolves with the answer. */
async function slash(run: Run, fake: FakeSlack, text: string, channelId: string): Promise<string> {
  const id = `r-${channelId}-${fake.responses.length}-${Date.now()}`;
  const body = new URLSearchParams(
    slashCommandBody({ text, responseUrl: fake.responseUrl(id), channelId, userId: ANA, teamId: TEAM_ID }),
  ).toString();
  const res = await request(`http://127.0.0.1:${run.adapter.port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body),
    body,
  });
  await res.body.text();
  expect(res.statusCode).toBe(200);
  return JSON.stringify((await fake.waitFor(() => fake.responses.find((r) => r.id === id))).body);
}

/** The posts that reached Slack in Ana's DM channel, with their text. */
const dmPosts = (f: Front) =>
  f.exchanges
    .filter((e) => e.path === '/api/chat.postMessage')
    .map((e) => Object.fromEntries(new URLSearchParams(e.body)))
    .filter((args) => args.channel === DM);

const setCap = (app: App, cap: number) =>
  app.store.settings.setDailyCap(
    { platform: 'slack', workspaceId: TEAM_ID, userId: ANA },
    cap,
    'U0ADMIN',
    app.clock.now(),
  );

const alertStates = async (app: App) =>
  (
    await app.store.db.all<{ key: string; state: string }>(
      sql`SELECT key, state FROM outbox WHERE user_id = ${ANA} ORDER BY key`,
    )
  ).map((row) => ({ threshold: row.key.split(':')[2], state: row.state }));

const postMessage = (method: string, path: string) => method === 'POST' && path === '/api/chat.postMessage';

/** Stops a Scout with no cleanup of its posts: its jobs and adapter end, and the process leaves the database. */
const kill = async (run: Run) => {
  await run.jobs.stop();
  await run.adapter.stop();
  await run.app.stop();
};

describe('budget alerts across processes', () => {
  it('two Scouts on one database send each alert once, whichever of them recorded the spend', async () => {
    const { world, slack, front } = await setUp();
    const one = await startRun(world, front);
    const two = await startRun(world, front);
    await setCap(one.app, 50);
    // Alternating between the two; each call past 80% tries the once-guard again, from either process.
    const runs = [one, two, one, two, one];
    for (const [i, run] of runs.entries()) {
      expect(await slash(run, slack, 'songs countries', `C${i}`)).toContain('United States');
    }
    await until(() => dmPosts(front).length === 2, 'the two alerts');
    // Both processes look for unsent alerts every 20 ms: give them time to send one twice.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const posts = dmPosts(front);
    expect(posts).toHaveLength(2);
    expect(posts[0]?.text).toContain('You have used *80%* of your daily credit cap');
    expect(posts[1]?.text).toContain('You have reached your daily credit cap');
    expect(await alertStates(one.app)).toEqual([
      { threshold: '100', state: 'posted' },
      { threshold: '80', state: 'posted' },
    ]);
  });

  it('a DM Slack took whose answer was lost is found after a restart, not sent again', async () => {
    const { world, slack, front } = await setUp();
    const first = await startRun(world, front);
    await setCap(first.app, 20);
    await slash(first, slack, 'songs countries', 'C1');
    let answered: Promise<string> = Promise.resolve('');
    await crashAfterLanding(
      front,
      postMessage,
      () => {
        answered = slash(first, slack, 'songs global', 'C2');
      },
      () => kill(first),
    );
    // The command was answered; its alert is in Slack, and the database still says it is being posted.
    expect(await answered).toContain('"10 credits"');
    expect(dmPosts(front)).toHaveLength(1);

    const second = await startRun(world, front);
    expect(await alertStates(second.app)).toContainEqual({ threshold: '100', state: 'posting' });
    await until(
      async () => (await alertStates(second.app)).some((a) => a.threshold === '100' && a.state === 'posted'),
      'the alert to be found',
    );
    expect(dmPosts(front)).toHaveLength(1);
    expect(slack.calls.some((c) => c.method === 'conversations.history' && c.args.channel === DM)).toBe(true);

    // At the cap the next call is refused: nothing more is sent.
    expect(await slash(second, slack, 'songs weeks country:US', 'C3')).toContain('daily cap');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dmPosts(front)).toHaveLength(1);
  });

  it('a DM that never reached Slack before a stop is sent once after the restart', async () => {
    const { world, slack, front } = await setUp();
    const first = await startRun(world, front);
    await setCap(first.app, 20);
    await slash(first, slack, 'songs countries', 'C1');
    front.hold = postMessage;
    expect(await slash(first, slack, 'songs global', 'C2')).toContain('"10 credits"');
    await until(() => front.held.length === 1, 'the DM to start');
    await kill(first);
    front.hold = null;

    const second = await startRun(world, front);
    await until(() => dmPosts(front).length === 1, 'the DM after the restart');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dmPosts(front)).toHaveLength(1);
    expect(dmPosts(front)[0]?.text).toContain('You have reached your daily credit cap');
    expect(await alertStates(second.app)).toContainEqual({ threshold: '100', state: 'posted' });
  });
});
