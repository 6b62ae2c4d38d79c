/**
 * Direct messages to Scout in many-team mode, end to end (real discord.js against the fake, the sandbox as the
 * service): a DM counts only the servers that connected a key, so a member of one connected server and one without
 * a key is answered for the connected one without being asked to choose (even when they last used Scout in the
 * other), and a member only of servers without a key gets the answer a slash command there gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import { DEMO_KEY, DEMO_TEAM_ID } from '../../../src/sandbox/index.js';
import type { FakeMessage, FakePost, FakeRequest, FakeUser } from '../../fakes/discord-fake.js';
import { answered, type Bot, createWorld, GUILD, slash, text, type World } from './harness.js';

/** A second server, which connects no key. */
const GUILD_B = '300000000000000005';
const CHANNEL_B = '400000000000000005';
/** A member of both servers. */
const MIA: FakeUser = { id: '200000000000000031', username: 'mia', permissions: '0' };
/** A member of GUILD_B only. */
const NED: FakeUser = { id: '200000000000000032', username: 'ned', permissions: '0' };
const NOT_CONNECTED = 'Ask an admin to run /scout connect';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld({
    keys: [{ key: DEMO_KEY, teamId: DEMO_TEAM_ID, credits: 100_000 }],
    guilds: [{ id: GUILD_B, channelId: CHANNEL_B }],
  });
  world.fake.addMember(GUILD, MIA);
  for (const user of [MIA, NED]) world.fake.addMember(GUILD_B, user);
  bot = await world.startBot({ databasePath: ':memory:', multi: true });
});

afterAll(async () => {
  await world?.stop();
});

type Body = { content?: string; embeds?: unknown[] };

/** The bot's reply to a message. */
const replyTo = (message: FakeMessage) => (r: FakeRequest) =>
  r.method === 'POST' &&
  r.path === `/channels/${String(message.channel_id)}/messages` &&
  (r.body as { message_reference?: { message_id?: string } }).message_reference?.message_id === message.id;

/** Sends a DM and waits for the bot's reply to it. */
async function dm(post: FakePost, what: string): Promise<string> {
  const sent = world.fake.say({ ...post, guildId: null });
  const body = (await world.fake.waitFor(replyTo(sent), what)).body as Body;
  return `${body.content ?? ''} ${text(body as Record<string, unknown>)}`;
}

describe('direct messages in many-team mode', () => {
  it('a member of a connected server and one without a key is answered for the connected one', async () => {
    const { fake } = world;
    const connected = await bot.app.tenants.connect(
      { platform: 'discord', workspaceId: GUILD },
      DEMO_KEY,
      '200000000000000010',
    );
    const names = (await connected.account.service.crm.listLists()).data.lists.map((l) => l.name ?? l.id);
    expect(names.length).toBeGreaterThan(0);

    const shown = await dm({ content: 'lists', author: MIA }, 'the lists DM');
    expect(shown).not.toMatch(/which one/);
    expect(shown).not.toContain(NOT_CONNECTED);
    expect(names.some((name) => shown.includes(name))).toBe(true);

    // Last used in the server without a key (told so there): DMs are still for the connected one.
    const run = slash(fake, 'lists', 'show', [], { user: MIA, guildId: GUILD_B, channelId: CHANNEL_B });
    const there = JSON.stringify((await fake.waitFor(answered(run.token), 'lists in GUILD_B')).body);
    expect(there).toContain(NOT_CONNECTED);
    const again = await dm({ content: 'lists', author: MIA }, 'the next DM');
    expect(again).not.toContain(NOT_CONNECTED);
    expect(names.some((name) => again.includes(name))).toBe(true);
  });

  it('a member only of a server without a key gets the answer a slash command there gets', async () => {
    const { sandbox } = world;
    const before = sandbox.requests().length;
    const shown = await dm({ content: 'lists', author: NED }, 'the not-connected DM');
    expect(shown).toContain(NOT_CONNECTED);
    expect(shown).not.toContain(OUTSIDE_MESSAGE);
    expect(shown).not.toMatch(/which one/);
    expect(sandbox.requests().slice(before)).toEqual([]);
  });
});
