/**
 * A page of ten creators end to end on Slack: `/scout creators … perPage:10` through the real Bolt app against the
 * sandbox and the fake Slack, which answers invalid_blocks where Slack would (slack-blocks.ts). The page is one
 * carousel of ten cards with the notification text, pages in place, and a card's button works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { CARDS_PER_PAGE_MAX } from '../../../src/core/ui/index.js';
import { blockActionPayload, type ResponsePost, slashCommandBody } from '../../fakes/slack-api.js';
import { type Block, buttonIds, cardTitles, SECRET, signedPost, startWorld, type World } from './helpers.js';

/** The service key of the Slack test world (helpers.ts). */
const SERVICE_KEY = 'slack-test-key-0001';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld();
  adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-test',
      oauth: null,
      signingSecret: SECRET,
      appToken: null,
      apiUrl: world.slack.apiUrl,
      port: 0,
    },
    chat: world.app.chat,
    logger: createLogger({ level: 'silent' }),
    postIntervalMs: 10,
  });
  await adapter.start();
});

afterAll(async () => {
  await adapter?.stop();
  await world?.stop();
});

const send = async (form: Record<string, string>) =>
  (await signedPost(adapter.port, new URLSearchParams(form).toString())).status;

const press = (payload: Record<string, unknown>) => send({ payload: JSON.stringify(payload) });

const responseTo = (id: string) => world.slack.waitFor(() => world.slack.responses.find((r) => r.id === id));

const blocksOf = (post: ResponsePost | undefined) => (post?.body.blocks ?? []) as Block[];

type Card = { hero_image?: { image_url: string }; title?: { text: string }; body?: { text: string } };

/** What makes a page of ten: one carousel of ten cards, each with the creator's picture, facts and buttons. */
function expectTenCreators(post: ResponsePost | undefined): void {
  const blocks = blocksOf(post);
  const carousels = blocks.filter((b) => b.type === 'carousel');
  expect(carousels).toHaveLength(1);
  const cards = (carousels[0]?.elements ?? []) as Card[];
  expect(cards).toHaveLength(CARDS_PER_PAGE_MAX);
  for (const card of cards) {
    expect(card.hero_image?.image_url).toMatch(/^https:\/\//);
    expect(card.title?.text.length).toBeLessThanOrEqual(150);
    expect(card.body?.text).toMatch(/^Followers /);
  }
  expect(buttonIds(blocks, 'Add to list')).toHaveLength(CARDS_PER_PAGE_MAX);
  expect(buttonIds(blocks, 'Details')).toHaveLength(CARDS_PER_PAGE_MAX);
  // The text Slack shows in notifications names the creators too.
  expect(String(post?.body.text)).toContain('Followers: ');
}

describe('Slack: a page of ten creators', () => {
  it('answers with one carousel Slack takes, pages in place, and presses a card’s button', async () => {
    expect(
      await send(
        slashCommandBody({
          text: 'creators followers:10k-100k perPage:10',
          responseUrl: world.slack.responseUrl('ten'),
        }),
      ),
    ).toBe(200);
    const first = await responseTo('ten');
    expectTenCreators(first);

    const [next] = buttonIds(blocksOf(first), 'Next');
    expect(next).toBeDefined();
    await press(
      blockActionPayload({ actionId: next as string, responseUrl: world.slack.responseUrl('ten-2') }),
    );
    const second = await responseTo('ten-2');
    expect(second?.body.replace_original).toBe(true);
    expectTenCreators(second);
    expect(cardTitles(blocksOf(second))).not.toEqual(cardTitles(blocksOf(first)));

    // The third card's Details, a button on its carousel card, shows that creator's profile.
    const details = buttonIds(blocksOf(second), 'Details')[2];
    await press(
      blockActionPayload({ actionId: details as string, responseUrl: world.slack.responseUrl('ten-3') }),
    );
    const profile = await responseTo('ten-3');
    const [third] = cardTitles(blocksOf(second)).slice(2);
    const handle = /\|(@[^ ]+)/.exec(third ?? '')?.[1] ?? third ?? '';
    expect(JSON.stringify(blocksOf(profile))).toContain(handle);

    // Slack took every message: nothing was refused.
    expect(world.slack.refusals).toEqual([]);
  });

  it('refuses more than ten creators a page, privately, sending nothing to the service', async () => {
    const before = world.sandbox.requests(SERVICE_KEY).length;
    await send(
      slashCommandBody({
        text: 'creators followers:10k-100k perPage:11',
        responseUrl: world.slack.responseUrl('eleven'),
      }),
    );
    const refused = await responseTo('eleven');
    expect(refused?.body.response_type).toBe('ephemeral');
    expect(String(refused?.body.text)).toMatch(/perPage.*10/);
    expect(world.sandbox.requests(SERVICE_KEY).length).toBe(before);
  });
});
