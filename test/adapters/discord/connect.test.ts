/**
 * Many-team mode on Discord, end to end (real discord.js against the fake, the sandbox as the service): every
 * server the bot is in is a tenant that connects its own key with `/scout connect key`, typed into a private
 * modal, never a command option; a server without a key gets nothing from the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import { DEMO_KEY, DEMO_TEAM_ID } from '../../../src/sandbox/index.js';
import type { FakeUser } from '../../fakes/discord-fake.js';
import { answered, type Bot, callback, createWorld, edited, GUILD, slash, type World } from './harness.js';

/** A second server, which connects no key. */
const GUILD_B = '300000000000000005';
const CHANNEL_B = '400000000000000005';
/** Manage Server (1 << 5). */
const ADMIN: FakeUser = { id: '200000000000000010', username: 'olga', permissions: String(1n << 5n) };
const MEMBER: FakeUser = { id: '200000000000000011', username: 'pim', permissions: '0' };

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld({
    keys: [{ key: DEMO_KEY, teamId: DEMO_TEAM_ID, credits: 100_000 }],
    guilds: [{ id: GUILD_B, channelId: CHANNEL_B }],
  });
  bot = await world.startBot({ databasePath: ':memory:', multi: true });
});

afterAll(async () => {
  await world?.stop();
});

type Callback = { type: number; data: Record<string, unknown> };
const answerOf = async (id: string, what: string) =>
  (await world.fake.waitFor(callback(id), what)).body as Callback;
const bodyOf = async (token: string, what: string) =>
  JSON.stringify((await world.fake.waitFor(answered(token), what)).body);

/** Opens the `/scout connect key` form as `user` and returns the modal, or the answer when none opened. */
async function openConnect(user: FakeUser): Promise<Callback> {
  const open = slash(world.fake, 'connect', 'key', [], { user });
  return answerOf(open.id, 'the connect answer');
}

/** Submits the connect form with `key` as `user`; resolves with the deferral and the private answer. */
async function submitKey(modalId: string, key: string, user: FakeUser = ADMIN) {
  const submit = world.fake.interact(
    5,
    {
      custom_id: modalId,
      components: [{ type: 1, components: [{ type: 4, custom_id: 'key', value: key }] }],
    },
    { user },
  );
  const deferral = await answerOf(submit.id, 'the deferral');
  const answer = (await world.fake.waitFor(edited(submit.token), 'the private answer')).body;
  return { deferral, answer: JSON.stringify(answer) };
}

describe('connecting a server’s own key', () => {
  it('stays in every server it is added to', () => {
    expect(world.fake.requests.some((r) => r.method === 'DELETE' && r.path.startsWith('/users/'))).toBe(
      false,
    );
    expect(world.fake.guilds()).toEqual([GUILD, GUILD_B]);
  });

  it('a member of a server without a key is told to ask an admin; nothing reaches the service', async () => {
    const { fake, sandbox } = world;
    const before = sandbox.requests().length;
    const lists = slash(fake, 'lists', 'show', [], { user: MEMBER });
    const shown = await bodyOf(lists.token, 'the not-connected answer');
    expect(shown).toContain('Ask an admin to run /scout connect');
    const complete = slash(fake, 'list', 'show', [{ type: 3, name: 'list', value: '', focused: true }], {
      type: 4,
    });
    expect(await answerOf(complete.id, 'autocomplete')).toEqual({ type: 8, data: { choices: [] } });
    const dm = slash(fake, 'lists', 'show', [], { guildId: null });
    expect(JSON.stringify((await answerOf(dm.id, 'a DM refusal')).data)).toContain(OUTSIDE_MESSAGE);
    expect(sandbox.requests().slice(before)).toEqual([]);
  });

  it('a member without Manage Server is told which role it needs, and no form opens', async () => {
    const answer = await openConnect(MEMBER);
    expect(answer.type).toBe(4);
    expect(answer.data.flags).toBe(64);
    expect(JSON.stringify(answer.data)).toContain('needs a member with Manage Server');
  });

  it('an admin types the key into a modal; the answer is private and the key goes nowhere else', async () => {
    const { fake, sandbox } = world;
    const modal = await openConnect(ADMIN);
    expect(modal.type).toBe(9);
    const form = modal.data as { custom_id: string; components: Array<{ components: unknown[] }> };
    const inputs = form.components.flatMap((row) => row.components);
    expect(inputs).toEqual([expect.objectContaining({ type: 4, custom_id: 'key', required: true })]);

    const { deferral, answer } = await submitKey(form.custom_id, DEMO_KEY);
    expect(deferral).toEqual({ type: 5, data: { flags: 64 } });
    expect(answer).toContain('Connected');
    expect(JSON.stringify(fake.requests)).not.toContain(DEMO_KEY);
    const access = await bot.app.tenants.access({ platform: 'discord', workspaceId: GUILD });
    if (access.status !== 'ok') throw new Error(`GUILD is ${access.status}`);

    // A second submission of the same form does nothing more.
    const checks = sandbox.requests(DEMO_KEY).length;
    const replay = await submitKey(form.custom_id, DEMO_KEY);
    expect(replay.answer).toContain('expired');
    expect(sandbox.requests(DEMO_KEY)).toHaveLength(checks);

    // Everyone in the server now uses the team's account: its lists, in the command and in autocomplete.
    const names = (await access.account.service.crm.listLists()).data.lists.map((l) => l.name ?? l.id);
    expect(names.length).toBeGreaterThan(0);
    const lists = slash(fake, 'lists', 'show', [], { user: MEMBER });
    const shown = await bodyOf(lists.token, 'the team’s lists');
    expect(names.some((name) => shown.includes(name))).toBe(true);
    const complete = slash(fake, 'list', 'show', [{ type: 3, name: 'list', value: '', focused: true }], {
      type: 4,
      user: MEMBER,
    });
    const choices = (await answerOf(complete.id, 'list autocomplete')).data.choices as Array<{
      name: string;
    }>;
    expect(choices.map((c) => c.name)).toEqual(expect.arrayContaining(names.slice(0, 3)));

    // The other server still has no key.
    const other = slash(fake, 'lists', 'show', [], { user: MEMBER, guildId: GUILD_B, channelId: CHANNEL_B });
    expect(await bodyOf(other.token, 'the other server')).toContain('Ask an admin');
  });

  it('takes a key form from its own person only, and keeps no key with it', async () => {
    const { sandbox } = world;
    const modal = await openConnect(ADMIN);
    const formId = (modal.data as { custom_id: string }).custom_id;
    const requests = sandbox.requests().length;
    const taken = await submitKey(formId, 'a-key-typed-by-a-member-0001', MEMBER);
    expect(taken.answer).toContain('expired');
    expect(sandbox.requests()).toHaveLength(requests);
    const person = { platform: 'discord' as const, workspaceId: GUILD, userId: ADMIN.id };
    const stored = await bot.app.store.actions.lookup(formId, person, bot.app.clock.now());
    if (stored.status !== 'ok') throw new Error(`the admin's form is ${stored.status}`);
    expect(stored.record.payload).toEqual({ family: 'connect', command: 'key', given: {}, fields: ['key'] });
    expect((await submitKey(formId, DEMO_KEY)).answer).toContain('Connected');
    const used = await bot.app.store.actions.lookup(formId, person, bot.app.clock.now());
    expect(JSON.stringify(used.status === 'used' ? used.record.payload : null)).not.toContain(DEMO_KEY);
  });
});
