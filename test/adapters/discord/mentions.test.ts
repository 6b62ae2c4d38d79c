/**
 * Through real discord.js against the fake gateway and REST: `/scout credits cap` and `/scout admins add` with a
 * mention answer with a real mention of that person in the embed, sent with allowed mentions that parse nothing, so
 * the person is named without being pinged, and no broadcast or role is ever parsed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest, FakeUser } from '../../fakes/discord-fake.js';
import { type Bot, createWorld, edited, followed, GUILD, slash, type World } from './harness.js';

/** Manage Server (1 << 5). */
const ADMIN: FakeUser = { id: '200000000000000010', username: 'olga', permissions: String(1n << 5n) };
const BOB = '200000000000000042';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
});

afterAll(async () => {
  await world?.stop();
});

type Body = {
  content?: string;
  embeds?: Array<{ description?: string }>;
  allowed_mentions?: unknown;
};

/** `/scout <group> <sub> who:<who> [amount]` by the admin; resolves with the edit of the deferred reply. */
async function run(group: string, sub: string, who: string, amount?: string): Promise<Body> {
  const options = [
    { type: 3, name: 'who', value: who },
    ...(amount === undefined ? [] : [{ type: 3, name: 'amount', value: amount }]),
  ];
  const sent = slash(world.fake, group, sub, options, { user: ADMIN });
  const answer: FakeRequest = await world.fake.waitFor(edited(sent.token), `${group} ${sub}`);
  return answer.body as Body;
}

const descriptions = (body: Body) => (body.embeds ?? []).map((embed) => embed.description ?? '').join('\n');

describe('mentions in Discord answers', () => {
  it('says whose cap was set with a real mention that pings nobody', async () => {
    const body = await run('credits', 'cap', `<@!${BOB}>`, '6');
    expect(descriptions(body)).toContain(`The daily cap of <@${BOB}> is now 6 credits.`);
    expect(body.content ?? '').not.toContain('<@');
    // Discord parses no mention of any kind from the answer: Bob is named, not notified.
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(
      await bot.app.store.settings.dailyCap({ platform: 'discord', workspaceId: GUILD, userId: BOB }),
    ).toBe(6);

    const removed = await run('credits', 'cap', `<@${BOB}>`, 'off');
    expect(descriptions(removed)).toContain(`The daily cap of <@${BOB}> is removed.`);
    expect(removed.allowed_mentions).toEqual({ parse: [] });
  });

  it('mentions the admin added, without pinging them', async () => {
    const body = await run('admins', 'add', `<@${BOB}>`);
    expect(descriptions(body)).toContain(`<@${BOB}> is now a Scout admin.`);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('refuses a role or a broadcast as the person, with nothing parsed as a mention', async () => {
    for (const who of ['<@&300000000000000009>', '@here']) {
      const sent = slash(
        world.fake,
        'credits',
        'cap',
        [
          { type: 3, name: 'who', value: who },
          { type: 3, name: 'amount', value: '6' },
        ],
        { user: ADMIN },
      );
      // A private refusal after a public deferral: the deferred reply is deleted and a follow-up answers.
      const answer = await world.fake.waitFor(followed(sent.token), 'the refusal');
      const body = answer.body as Body;
      expect(descriptions(body)).toContain('is not a person');
      // A user or role mention needs digits; the usage line's `<@person|everyone>` is inline code.
      expect(descriptions(body)).not.toMatch(/(?<!\\)<@[!&]?\d+>/);
      expect(descriptions(body)).not.toMatch(/(?<!\\)@(here|everyone)/);
      expect(body.allowed_mentions).toEqual({ parse: [] });
    }
  });
});
