/**
 * Single-team mode on Discord, end to end (real discord.js against the fake, the sandbox as the service): only the
 * servers of DISCORD_GUILD_IDS are served, anything from elsewhere is refused before any work, the bot leaves
 * unlisted servers, and a server that removes the bot stops its jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import type { FakeRequest } from '../../fakes/discord-fake.js';
import {
  type Bot,
  CHANNEL,
  callback,
  createWorld,
  edited,
  GUILD,
  messageOf,
  press,
  slash,
  titles,
  type World,
} from './harness.js';

/** A server nobody listed, which the bot is in when it connects. */
const STRAY = '300000000000000003';
/** A listed server the bot joins later. */
const LATER = '300000000000000004';
/** An unlisted server interactions come from. */
const OTHER = '300000000000000002';
const OTHER_CHANNEL = '400000000000000002';
const FROM_OTHER = { guildId: OTHER, channelId: OTHER_CHANNEL };
const LIST = 'Confidential Launch';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld({ guilds: [{ id: STRAY, channelId: '400000000000000003' }] });
  bot = await world.startBot({ databasePath: ':memory:', guildIds: [GUILD, LATER] });
});

afterAll(async () => {
  await world?.stop();
});

const leaves = (guildId: string) => (r: FakeRequest) =>
  r.method === 'DELETE' && r.path === `/users/@me/guilds/${guildId}`;

/** Waits until `check` holds. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The body of an interaction's callback. */
const answerOf = async (id: string, what: string) =>
  (await world.fake.waitFor(callback(id), what)).body as { type: number; data: Record<string, unknown> };

describe('servers the bot is in', () => {
  it('leaves an unlisted server it finds when it connects, and stays in the listed one', async () => {
    const { fake } = world;
    expect(fake.requests.filter(leaves(STRAY))).toHaveLength(1);
    expect(fake.requests.some(leaves(GUILD))).toBe(false);
    expect(fake.guilds()).toEqual([GUILD]);
  });

  it('on GUILD_CREATE leaves an unlisted server and stays in a listed one', async () => {
    const { fake } = world;
    fake.join({ id: LATER, channelId: '400000000000000004' });
    fake.join({ id: OTHER, channelId: OTHER_CHANNEL });
    // Dispatches are handled in order: by the time the second server is left, the first was seen.
    await fake.waitFor(leaves(OTHER), 'leaving the unlisted server');
    expect(fake.requests.some(leaves(LATER))).toBe(false);
    expect(fake.guilds()).toEqual([GUILD, LATER]);
  });
});

describe('interactions from outside the listed servers', () => {
  it('are refused privately before any token, row or service request, naming nothing of the team', async () => {
    const { fake, sandbox } = world;
    const actor = {
      platform: 'discord' as const,
      workspaceId: GUILD,
      userId: '200000000000000001',
      isAdmin: false,
    };
    await bot.app.dispatcher.text({ actor, channelId: CHANNEL, text: `lists create "${LIST}"` });
    const names = (await bot.app.service.crm.listLists()).data.lists.map((l) => l.name ?? l.id);
    expect(names).toContain(LIST);
    const search = slash(fake, 'creators', 'search', [{ type: 3, name: 'followers', value: '>1k' }]);
    const page1 = await messageOf(fake.waitFor(edited(search.token), 'page 1 in the listed server'));
    const form = slash(fake, 'creators', 'search', [{ type: 5, name: 'form', value: true }]);
    const modalId = ((await answerOf(form.id, 'the filters form')).data as { custom_id: string }).custom_id;
    const before = sandbox.requests().length;

    const outside = [
      slash(fake, 'lists', 'show', [], FROM_OTHER),
      slash(fake, 'creators', 'search', [{ type: 5, name: 'form', value: true }], FROM_OTHER),
      press(fake, page1, /^Next/, undefined, FROM_OTHER),
      fake.interact(
        5,
        {
          custom_id: modalId,
          components: [{ type: 1, components: [{ type: 4, custom_id: 'filters', value: 'bio:vegan' }] }],
        },
        FROM_OTHER,
      ),
      slash(fake, 'lists', 'show', [], { guildId: null }),
    ];
    for (const { id, token } of outside) {
      const answer = await answerOf(id, 'a refusal');
      expect(answer.type).toBe(4);
      expect(answer.data.flags).toBe(64);
      const shown = JSON.stringify(answer.data);
      expect(shown).toContain(OUTSIDE_MESSAGE);
      for (const name of names) expect(shown).not.toContain(name);
      expect(fake.requests.some((r) => r.path.startsWith('/webhooks/') && r.path.includes(token))).toBe(
        false,
      );
    }

    const lists = slash(fake, 'list', 'show', [{ type: 3, name: 'list', value: 'con', focused: true }], {
      type: 4,
      ...FROM_OTHER,
    });
    const country = slash(
      fake,
      'creators',
      'search',
      [{ type: 3, name: 'country', value: 'germ', focused: true }],
      { type: 4, ...FROM_OTHER },
    );
    for (const { id } of [lists, country]) {
      expect(await answerOf(id, 'an empty autocomplete')).toEqual({ type: 8, data: { choices: [] } });
    }
    expect(sandbox.requests().slice(before)).toEqual([]);

    // The button still works in its own server: the refusal touched nothing.
    const next = press(fake, page1, /^Next/);
    expect((await answerOf(next.id, 'deferUpdate')).type).toBe(6);
    const page2 = await messageOf(fake.waitFor(edited(next.token), 'page 2'));
    expect(titles(page2)).toHaveLength(5);
    expect(titles(page2)).not.toEqual(titles(page1));
  });
});

describe('a listed server that removes the bot', () => {
  it('keeps its jobs through an outage, stops them when removed, and is served again when it adds the bot back', async () => {
    const { fake } = world;
    const { app } = bot;
    const actor = {
      platform: 'discord' as const,
      workspaceId: GUILD,
      userId: '200000000000000001',
      isAdmin: false,
    };
    await app.dispatcher.text({ actor, channelId: CHANNEL, text: 'notify on' });
    const active = async () =>
      (await app.store.subscriptions.active()).filter((s) => s.workspaceId === GUILD);
    expect(await active()).toHaveLength(1);

    fake.removeFromGuild(GUILD, { unavailable: true });
    // An interaction sent after the outage is handled after it: once it is answered, the outage was seen.
    const probe = slash(
      fake,
      'creators',
      'search',
      [{ type: 3, name: 'country', value: 'fr', focused: true }],
      {
        type: 4,
      },
    );
    await answerOf(probe.id, 'autocomplete after the outage');
    expect(await active()).toHaveLength(1);
    expect(fake.requests.some(leaves(GUILD))).toBe(false);

    fake.removeFromGuild(GUILD);
    await until(async () => (await active()).length === 0, 'the subscriptions to stop');
    expect(app.tenants.isServed({ platform: 'discord', workspaceId: GUILD })).toBe(false);

    fake.join({ id: GUILD, channelId: CHANNEL });
    await until(
      () => app.tenants.isServed({ platform: 'discord', workspaceId: GUILD }),
      'GUILD served again',
    );
    const again = slash(fake, 'notify', 'list', []);
    expect((await answerOf(again.id, 'defer')).type).toBe(5);
    expect(fake.requests.some(leaves(GUILD))).toBe(false);
  });
});
