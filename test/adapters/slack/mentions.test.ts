/**
 * Through real Bolt against the fake Slack Web API: `/scout credits cap @bob 6` and `/scout admins add @bob`, typed
 * with a mention (Slack sends it as `<@U…|name>`), answer with a real mention of that person in the blocks and in
 * the notification text, and text that only looks like a mention stays literal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { type ResponsePost, slashCommandBody } from '../../fakes/slack-api.js';
import { responseTo, sendForm, startBotAdapter, startWorld, type World } from './helpers.js';

const ADMIN = 'U0ADMIN';
const BOB = 'U0BOB';

let world: World;
let adapter: SlackAdapter;
let sequence = 0;

beforeAll(async () => {
  world = await startWorld();
  world.slack.admins.add(ADMIN);
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

/** `/scout <text>` by the workspace admin; resolves with the answer posted to its response_url. */
async function slash(text: string): Promise<ResponsePost> {
  sequence += 1;
  const id = `mention-${sequence}`;
  const { status } = await sendForm(
    adapter.port,
    slashCommandBody({ text, responseUrl: world.slack.responseUrl(id), userId: ADMIN }),
  );
  expect(status).toBe(200);
  return responseTo(world.slack, id);
}

/** The mrkdwn of an answer's section blocks. */
const sections = (post: ResponsePost): string =>
  ((post.body.blocks ?? []) as Array<{ type: string; text?: { text: string } }>)
    .filter((block) => block.type === 'section')
    .map((block) => block.text?.text ?? '')
    .join('\n');

/** Every `<…>` token of Slack markup in an answer: its blocks and its notification text. */
const tokens = (post: ResponsePost): string[] =>
  `${JSON.stringify(post.body.blocks ?? [])}\n${String(post.body.text)}`.match(/<[^<>]*>/g) ?? [];

describe('mentions in Slack answers', () => {
  it('says whose cap was set, and removed, with a real mention, for the channel', async () => {
    const set = await slash(`credits cap <@${BOB}|bob> 6`);
    expect(set.body.response_type).toBe('in_channel');
    expect(sections(set)).toContain(`The daily cap of <@${BOB}> is now 6 credits.`);
    expect(String(set.body.text)).toContain(`The daily cap of <@${BOB}> is now 6 credits.`);
    expect(tokens(set)).toEqual([`<@${BOB}>`, `<@${BOB}>`]);
    expect(
      await world.app.store.settings.dailyCap({ platform: 'slack', workspaceId: 'T0001', userId: BOB }),
    ).toBe(6);

    const removed = await slash(`credits cap <@${BOB}> off`);
    expect(sections(removed)).toContain(`The daily cap of <@${BOB}> is removed.`);
  });

  it('mentions the admin added, and the admins listed', async () => {
    const added = await slash(`admins add <@${BOB}|bob>`);
    expect(sections(added)).toContain(`<@${BOB}> is now a Scout admin.`);
    expect(String(added.body.text)).toContain(`<@${BOB}> is now a Scout admin.`);
    const listed = await slash('admins');
    expect(sections(listed)).toContain(`Scout admins: <@${BOB}>.`);
  });

  it('refuses a broadcast or a role as the person, with no mention in the answer', async () => {
    for (const who of ['<!channel>', '<!here>', '<!subteam^S0TEAM|devs>']) {
      const refused = await slash(`credits cap ${who} 6`);
      expect(JSON.stringify(refused.body)).toContain('is not a person');
      expect(tokens(refused)).toEqual([]);
    }
  });
});
