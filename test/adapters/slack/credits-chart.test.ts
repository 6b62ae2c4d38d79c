/**
 * `/scout credits` through real Bolt in HTTP mode: the answer is private, so the spend chart is uploaded with
 * files.uploadV2 without being shared in any channel, and shown to the person alone in an image block that refers
 * to the uploaded file (slack_file); the fake Web API keeps the PNG's bytes. App Home shows the same chart the same
 * way, uploaded once for as long as the spend does not change, and falls back to the sparkline when Slack refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { CHART_HEIGHT, CHART_WIDTH } from '../../../src/core/charts/render.js';
import { type ResponsePost, slashCommandBody } from '../../fakes/slack-api.js';
import { isPng, pngSize } from '../../helpers/png.js';
import { sendEvent, sendForm, startBotAdapter, startWorld, type World } from './helpers.js';

const CHANNEL = 'C0CREDITS';
const TEAM = 'T0001';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const posts = (id: string, count: number) =>
  world.slack.waitFor(() => {
    const found = world.slack.responses.filter((r) => r.id === id);
    return found.length >= count ? found : null;
  }, 10_000);

const textOf = (post: ResponsePost | undefined) => JSON.stringify(post?.body ?? {});

async function spent(userId: string, daysAgo: number, credits: number) {
  await world.app.store.ledger.record({
    platform: 'slack',
    workspaceId: TEAM,
    userId,
    at: new Date(Date.now() - daysAgo * 86_400_000),
    operation: 'creators search',
    units: 1,
    credits,
    balance: null,
    idempotencyKey: `slack-chart-${userId}-${daysAgo}`,
  });
}

const credits = async (id: string) => {
  const url = world.slack.responseUrl(id);
  const form = slashCommandBody({ text: 'credits', responseUrl: url, channelId: CHANNEL, teamId: TEAM });
  expect((await sendForm(adapter.port, form)).status).toBe(200);
};

/** The Home tab view published for the next app_home_opened (the last of `count` publishes), as text. */
async function homeTab(count = 1): Promise<string> {
  const before = world.slack.calls.filter((c) => c.method === 'views.publish').length;
  await sendEvent(adapter.port, TEAM, { type: 'app_home_opened', user: 'U0001', channel: 'D1', tab: 'home' });
  const published = await world.slack.waitFor(() => {
    const all = world.slack.calls.filter((c) => c.method === 'views.publish');
    return all.length >= before + count ? all.at(-1) : null;
  });
  return JSON.stringify(published?.args.view);
}

const imageBlocks = (view: string) =>
  (JSON.parse(view) as { blocks: Array<{ type: string; slack_file?: { id: string } }> }).blocks.filter(
    (block) => block.type === 'image',
  );

describe('credits chart on Slack', () => {
  it('says there is no spend yet and uploads nothing', async () => {
    expect(await homeTab()).toContain('*Team, last 30 days*\\nNo spend yet.');
    await credits('none');
    const [answer] = await posts('none', 1);
    expect(answer?.body.response_type).toBe('ephemeral');
    expect(textOf(answer)).toContain('No spend yet.');
    expect(world.slack.uploads).toHaveLength(0);
  });

  it('uploads the chart as a PNG and shows it privately by reference', async () => {
    await spent('U0ANA', 0, 30);
    await spent('U0BO', 4, 12);
    await credits('chart');
    const [answer, image] = await posts('chart', 2);
    expect(answer?.body.response_type).toBe('ephemeral');
    expect(textOf(answer)).toMatch(/[▁▂▃▄▅▆▇█]{30} {2}42 credits/);

    const upload = await world.slack.waitFor(() => world.slack.uploads.find((u) => u.bytes !== null));
    // One upload in all: the answer without spend had none.
    expect(world.slack.uploads).toHaveLength(1);
    // Not shared in the channel: everyone there would see it, and the answer is for one person.
    expect(upload.channelId).toBeNull();
    expect(upload.filename).toMatch(/^spend-\d{4}-\d{2}-\d{2}\.png$/);
    const bytes = upload.bytes as Buffer;
    expect(isPng(bytes)).toBe(true);
    expect(pngSize(bytes)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    const asked = world.slack.calls.find((c) => c.method === 'files.getUploadURLExternal');
    expect(Number(asked?.args.length)).toBe(bytes.byteLength);

    expect(image?.body.response_type).toBe('ephemeral');
    expect(image?.body.replace_original).toBe(false);
    expect(image?.body.blocks).toEqual([
      {
        type: 'image',
        slack_file: { id: upload.id },
        alt_text: 'Team spend per day, last 30 days',
        title: { type: 'plain_text', text: 'Team spend per day, last 30 days' },
      },
    ]);
    expect(textOf(image)).not.toContain('cannot show a file');

    // The Home tab shows the same chart by reference to a file uploaded unshared for it, with the sparkline.
    const home = await homeTab();
    expect(home).toMatch(
      /\*Team, last 30 days\*\\n[▁▂▃▄▅▆▇█]{30} {2}42 credits · `\/scout credits` for the numbers by person/,
    );
    expect(world.slack.uploads).toHaveLength(2);
    const homeUpload = world.slack.uploads[1];
    expect(homeUpload?.channelId).toBeNull();
    expect(isPng(homeUpload?.bytes as Buffer)).toBe(true);
    expect(pngSize(homeUpload?.bytes as Buffer)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    expect(imageBlocks(home)).toEqual([
      {
        type: 'image',
        slack_file: { id: homeUpload?.id },
        alt_text: 'Team spend per day, last 30 days',
        title: { type: 'plain_text', text: 'Team spend per day, last 30 days' },
      },
    ]);
    // Opening the tab again while the spend is the same uploads nothing new.
    expect(imageBlocks(await homeTab())).toEqual(imageBlocks(home));
    expect(world.slack.uploads).toHaveLength(2);
  });

  it('uploads a new Home chart when the spend changes, and shows the tab without it when Slack refuses it', async () => {
    await spent('U0CY', 1, 5);
    const changed = await homeTab();
    expect(changed).toMatch(/[▁▂▃▄▅▆▇█]{30} {2}47 credits/);
    expect(world.slack.uploads).toHaveLength(3);
    expect(imageBlocks(changed)[0]?.slack_file?.id).toBe(world.slack.uploads[2]?.id);

    // Slack no longer shows that file (deleted, say): the tab is published again without the image.
    world.slack.failNext('views.publish', 'invalid_blocks');
    const fallback = await homeTab(2);
    expect(imageBlocks(fallback)).toEqual([]);
    expect(fallback).toMatch(/[▁▂▃▄▅▆▇█]{30} {2}47 credits/);
    // The refused file is forgotten: the next opening uploads the chart again.
    const again = await homeTab();
    expect(world.slack.uploads).toHaveLength(4);
    expect(imageBlocks(again)[0]?.slack_file?.id).toBe(world.slack.uploads[3]?.id);
  });
});
