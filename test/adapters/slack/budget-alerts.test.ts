/**
 * Budget alerts on Slack, end to end: signed slash commands to the real Bolt app in HTTP mode spend credits in the
 * sandbox; the jobs send the alert through the Slack adapter's Outbound, which opens the person's DM with the bot
 * (conversations.open) and posts there through the fake Web API, keyed in the message metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import type { ApiCall } from '../../fakes/slack-api.js';
import { slashCommandBody } from '../../fakes/slack-api.js';
import { responseTo, sendForm, startBotAdapter, startWorld, type World } from './helpers.js';

const ANA = 'U0ANA';

let world: World;
let adapter: SlackAdapter;
let jobs: Jobs;

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
  jobs = createJobs({
    app: world.app,
    outbound: new Map([['slack', adapter.outbound]]),
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent' }),
    pollIntervalMs: 3_600_000,
    digestCheckMs: 3_600_000,
    alertCheckMs: 3_600_000,
  });
  await jobs.start();
});

afterAll(async () => {
  await jobs?.stop();
  await adapter?.stop();
  await world?.stop();
});

/** Runs `/scout <text>` as Ana and waits for the answer at its response_url. */
async function run(text: string, id: string): Promise<string> {
  const url = world.slack.responseUrl(id);
  const { status } = await sendForm(adapter.port, slashCommandBody({ text, responseUrl: url, userId: ANA }));
  expect(status).toBe(200);
  return JSON.stringify((await responseTo(world.slack, id)).body);
}

/** The posts to Ana's DM channel. */
const dmPosts = (): ApiCall[] =>
  world.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === 'D0ANA');

describe('budget alerts on Slack', () => {
  it('send a person passing 80% of their cap one DM with the numbers, keyed for the look-up after a crash', async () => {
    const today = world.app.clock.now().toISOString().slice(0, 10);
    await world.app.store.settings.setDailyCap(
      { platform: 'slack', workspaceId: 'T0001', userId: ANA },
      25,
      'U0ADMIN',
      world.app.clock.now(),
    );
    expect(await run('songs countries', 'first')).toContain('United States');
    // 10 of 25: no alert.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(world.slack.calls.some((c) => c.method === 'conversations.open')).toBe(false);

    expect(await run('songs global', 'second')).not.toContain('daily cap');
    const open = await world.slack.waitFor(() =>
      world.slack.calls.find((c) => c.method === 'conversations.open'),
    );
    expect(open.args.users).toBe(ANA);
    expect(open.token).toBe('xoxb-test');
    const [dm] = await world.slack.waitFor(() => (dmPosts().length > 0 ? dmPosts() : undefined));
    const shown = JSON.stringify(dm?.args.blocks);
    expect(String(dm?.args.text)).toContain('You have used *80%* of your daily credit cap');
    expect(shown).toContain('20 of 25 credits spent today');
    expect(shown).toContain('Resets');
    expect(shown).toContain('00:00 UTC');
    expect(dm?.args.metadata).toMatchObject({ event_payload: { key: `alert:${ANA}:80:${today}` } });

    // Refused at the cap: nothing spent, and no second alert.
    expect(await run('songs weeks country:US', 'third')).toContain('daily cap');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dmPosts()).toHaveLength(1);
    await jobs.stop();
    await jobs.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dmPosts()).toHaveLength(1);
    // Only Ana was written to privately.
    const opened = world.slack.calls.filter((c) => c.method === 'conversations.open');
    expect(opened.map((c) => c.args.users)).toEqual([ANA]);
  });
});
