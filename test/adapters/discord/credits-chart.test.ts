/**
 * `/scout credits show` through the real discord.js client: with spend, the private answer carries the spend chart
 * as a PNG attachment (a multipart body the fake REST parses) and an embed showing it by its attachment name; without
 * spend it says so and attaches nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH } from '../../../src/core/charts/render.js';
import type { FakeRequest } from '../../fakes/discord-fake.js';
import { isPng, pngSize } from '../../helpers/png.js';
import { answered, type Bot, createWorld, GUILD, slash, text, type World } from './harness.js';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

async function spent(userId: string, daysAgo: number, credits: number) {
  await bot.app.store.ledger.record({
    platform: 'discord',
    workspaceId: GUILD,
    userId,
    at: new Date(Date.now() - daysAgo * 86_400_000),
    operation: 'creators search',
    units: 1,
    credits,
    balance: null,
    idempotencyKey: `discord-chart-${userId}-${daysAgo}`,
  });
}

/** The private answer of a run: the last edit or follow-up that is not the deferral's placeholder. */
const finalAnswer = (token: string) => (r: FakeRequest) =>
  answered(token)(r) && JSON.stringify(r.body).includes('Team, last 30 days');

describe('credits chart on Discord', () => {
  it('says there is no spend yet, with nothing attached', async () => {
    const run = slash(world.fake, 'credits', 'show', []);
    const answer = await world.fake.waitFor(finalAnswer(run.token), 'the answer');
    expect(text(answer.body as Record<string, unknown>)).toContain('No spend yet.');
    expect(answer.files).toEqual([]);
    expect(JSON.stringify(answer.body)).not.toContain('attachment://');
  });

  it('attaches the chart as a PNG and shows it in an embed', async () => {
    await spent('200000000000000011', 0, 25);
    await spent('200000000000000012', 6, 5);
    const run = slash(world.fake, 'credits', 'show', []);
    const answer = await world.fake.waitFor(finalAnswer(run.token), 'the answer');
    const body = answer.body as { embeds: Array<{ image?: { url: string } }>; flags?: number };
    expect(text(answer.body as Record<string, unknown>)).toMatch(/[▁▂▃▄▅▆▇█]{30} {2}30 credits/);

    expect(answer.files).toHaveLength(1);
    const [sent] = answer.files;
    expect(sent?.name).toMatch(/^spend-\d{4}-\d{2}-\d{2}\.png$/);
    expect(isPng(sent?.data as Buffer)).toBe(true);
    expect(pngSize(sent?.data as Buffer)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    const images = body.embeds.filter((embed) => embed.image !== undefined);
    expect(images).toEqual([{ image: { url: `attachment://${sent?.name}` } }]);
  });
});
