/**
 * Budget alerts on Discord, end to end through real discord.js and the fake gateway and REST: slash commands spend
 * credits in the sandbox; the jobs send each alert through the Discord adapter's Outbound, which opens the person's
 * DM channel (`POST /users/@me/channels`) and posts there with an enforced nonce and a footer `ref`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDay } from '../../../src/core/credits.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import type { FakeUser } from '../../fakes/discord-fake.js';
import { type Bot, CHANNEL, createWorld, edited, GUILD, KEY, slash, type World } from './harness.js';

/** Manage Server (1 << 5): a platform admin. */
const OLGA: FakeUser = { id: '200000000000000010', username: 'olga', permissions: String(1n << 5n) };
const ANA: FakeUser = { id: '200000000000000001', username: 'ana', permissions: '0' };

let world: World;
let bot: Bot;
let jobs: Jobs;

beforeAll(async () => {
  world = await createWorld();
  // The sandbox's 100,000 credits: two songs calls (10 credits each) bring it below 99,985.
  bot = await world.startBot({ databasePath: ':memory:', settings: { balanceAlert: 99_985 } });
  jobs = createJobs({
    app: bot.app,
    outbound: new Map([['discord', bot.adapter.outbound]]),
    logger: world.logger,
    pollIntervalMs: 3_600_000,
    digestCheckMs: 3_600_000,
    alertCheckMs: 3_600_000,
  });
  await jobs.start();
});

afterAll(async () => {
  await jobs?.stop();
  await world?.stop();
});

/** Runs `/scout songs <sub>` as `user` and waits for the answer. */
async function songs(sub: string, user: FakeUser): Promise<string> {
  const sent = slash(world.fake, 'songs', sub, [], { user });
  return JSON.stringify((await world.fake.waitFor(edited(sent.token), `songs ${sub}`)).body);
}

type Embed = {
  description?: string;
  footer?: { text?: string };
  fields?: Array<{ name: string; value: string }>;
};
type Body = { embeds?: Embed[]; nonce?: string; enforce_nonce?: boolean };

/** Messages posted to DM channels, each with the person whose DM channel it is (opened just before it). */
function directMessages(): Array<{ to: string; body: Body; text: string }> {
  const owner = new Map<string, string>();
  let opened: string | null = null;
  const found: Array<{ to: string; body: Body; text: string }> = [];
  for (const request of world.fake.requests) {
    if (request.method === 'POST' && request.path === '/users/@me/channels')
      opened = String((request.body as { recipient_id?: unknown }).recipient_id);
    const channel = /^\/channels\/(\d+)\/messages$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || channel === undefined || channel === CHANNEL) continue;
    if (!owner.has(channel) && opened !== null) owner.set(channel, opened);
    const body = request.body as Body;
    found.push({ to: owner.get(channel) ?? '?', body, text: JSON.stringify(body.embeds ?? []) });
  }
  return found;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async (check: () => boolean, what: string) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 5000) throw new Error(`Timed out waiting for ${what}`);
    await wait(10);
  }
};

describe('budget alerts on Discord', () => {
  it('DM the known admins and the person when the balance drops, and the person at 80% of their cap, once each', async () => {
    await bot.app.store.settings.setDailyCap(
      { platform: 'discord', workspaceId: GUILD, userId: ANA.id },
      25,
      OLGA.id,
      bot.app.clock.now(),
    );
    // Olga, a server admin, spends first: 99,990 left, still above the threshold.
    expect(await songs('countries', OLGA)).toContain('United States');
    await wait(50);
    expect(directMessages()).toEqual([]);

    // Ana's call leaves 99,980: Olga (an admin seen spending) and Ana are told, once.
    expect(await songs('countries', ANA)).toContain('United States');
    await until(() => directMessages().length === 2, 'the balance alerts');
    const opened = world.fake.requests.filter((r) => r.method === 'POST' && r.path === '/users/@me/channels');
    expect(opened.map((r) => (r.body as { recipient_id: string }).recipient_id).sort()).toEqual(
      [ANA.id, OLGA.id].sort(),
    );
    for (const dm of directMessages()) {
      expect(dm.text).toContain('down to **99,980 credits**, below the alert threshold of 99,985 credits');
      expect(dm.body.enforce_nonce).toBe(true);
      expect(dm.body.embeds?.at(-1)?.footer?.text).toMatch(/ref [\w-]{10}$/);
    }
    expect(
      directMessages()
        .map((dm) => dm.to)
        .sort(),
    ).toEqual([ANA.id, OLGA.id].sort());
    expect(world.sandbox.credits(KEY)).toBe(99_980);

    // Ana's second call: 20 of her 25 credits, and the balance lower still. Only the 80% alert, to her.
    expect(await songs('global', ANA)).not.toContain('daily cap');
    await until(() => directMessages().length === 3, 'the 80% alert');
    const [, , capAlert] = directMessages();
    expect(capAlert?.to).toBe(ANA.id);
    expect(capAlert?.text).toContain('You have used **80%** of your daily credit cap');
    const fields = capAlert?.body.embeds?.flatMap((embed) => embed.fields ?? []) ?? [];
    expect(fields.map((f) => [f.name, f.value.replaceAll('\\', '')])).toEqual([
      ['Spent today', '20 credits'],
      ['Daily cap', '25 credits'],
      ['Resets', `${utcDay(bot.app.clock.now()).to.toISOString().slice(0, 10)} 00:00 UTC`],
    ]);
    await wait(50);
    expect(directMessages()).toHaveLength(3);
  });
});
