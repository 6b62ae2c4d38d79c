import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../../../src/adapters/discord/index.js';
import {
  BOT_PERMISSIONS,
  buildCommandJson,
  inviteText,
  inviteUrl,
  registerCommands,
} from '../../../src/adapters/discord/registration.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import {
  createFakeDiscord,
  type FakeDiscord,
  type FakeMessage,
  type FakeRequest,
} from '../../fakes/discord-fake.js';
import { cardTitles, interactive, isV2, messageText } from './layout.js';

const APP_ID = '100000000000000001';
const GUILD = '300000000000000001';
const CHANNEL = '400000000000000001';
const KEY = 'discord-key-0001';
const LIST = 'Spring Launch';

let sandbox: Sandbox;
let app: App;
let fake: FakeDiscord;
let bot: DiscordAdapter;

beforeAll(async () => {
  sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    keys: [{ key: KEY, teamId: 'team_d', credits: 100_000 }],
  });
  await sandbox.start();
  const logger = createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr });
  app = await createApp({
    service: {
      apiKey: KEY,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
    },
    databasePath: ':memory:',
    logger,
    families: FAMILIES,
  });
  fake = createFakeDiscord({ applicationId: APP_ID, guildId: GUILD, channelId: CHANNEL });
  await fake.start();
  bot = createDiscordAdapter({
    config: { token: 'fake-token', applicationId: APP_ID, apiUrl: fake.apiUrl, guildIds: [GUILD] },
    chat: app.chat,
    logger,
  });
  await bot.start();
});

afterAll(async () => {
  await bot?.stop();
  await fake?.stop();
  await app?.stop();
  await sandbox?.stop();
});

const components = (message: Record<string, unknown>) => interactive(message);
const buttonId = (message: Record<string, unknown>, label: RegExp) => {
  const found = components(message).find((c) => c.type === 2 && label.test(c.label ?? ''));
  if (found?.custom_id === undefined)
    throw new Error(`No button ${label} in ${JSON.stringify(components(message))}`);
  return found.custom_id;
};
const titles = (message: Record<string, unknown>) => cardTitles(message);
const text = (message: Record<string, unknown>) => messageText(message);

const callback = (id: string) => (r: FakeRequest) =>
  r.method === 'POST' && r.path.startsWith(`/interactions/${id}/`);
const edited = (token: string) => (r: FakeRequest) =>
  r.method === 'PATCH' && r.path.includes(`/${token}/messages/@original`);
const followed = (token: string) => (r: FakeRequest) =>
  r.method === 'POST' && r.path === `/webhooks/${APP_ID}/${token}`;

const slash = (group: string, sub: string, options: Array<Record<string, unknown>>, type = 2) =>
  fake.interact(type, {
    id: '500000000000000001',
    name: 'scout',
    type: 1,
    options: [{ type: 2, name: group, options: [{ type: 1, name: sub, options }] }],
  });

const messageOf = async (request: Promise<FakeRequest>): Promise<FakeMessage> => {
  const body = (await request).body as Record<string, unknown>;
  const stored = [...fake.requests].reverse().find((r) => r.body === body);
  expect(stored).toBeDefined();
  return {
    ...body,
    id: '600000000000000001',
    channel_id: CHANNEL,
    type: 0,
    content: '',
    author: { id: APP_ID, username: 'scout', discriminator: '0', avatar: null, bot: true },
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    pinned: false,
    flags: (body.flags as number | undefined) ?? 0,
  };
};

describe('Discord bot against a fake Discord', () => {
  it('logs in over the gateway with the bot token', () => {
    const identify = fake.gatewayFrames.find((f) => f.op === 2);
    expect(identify?.d).toMatchObject({ token: 'fake-token' });
    expect(fake.requests.some((r) => r.path === '/gateway/bot' && r.auth === 'Bot fake-token')).toBe(true);
  });

  let page1: FakeMessage;

  it('defers a slash command, then edits the reply into creator cards with a pager', async () => {
    const { id, token } = slash('creators', 'search', [{ type: 3, name: 'followers', value: '>1k' }]);
    const ack = await fake.waitFor(callback(id), 'defer');
    expect(ack.body).toMatchObject({ type: 5 });
    expect(ack.auth).toBeNull();
    page1 = await messageOf(fake.waitFor(edited(token), 'edit'));
    // A page of cards is a Components V2 message: each card's buttons in a row under it, the pager below.
    expect(isV2(page1)).toBe(true);
    expect(titles(page1)).toHaveLength(5);
    expect(titles(page1)[0]).toMatch(/^1\. \\?@/);
    expect(components(page1).map((c) => c.label)).toEqual(
      expect.arrayContaining(['Add to list', 'Details', 'Next ▶ (up to 5 credits)']),
    );
    // The deferral came before any service work: the callback is the first request of this interaction.
    expect(fake.requests.indexOf(ack)).toBeLessThan(fake.requests.findIndex(edited(token)));
  });

  it('next page updates the message through the button interaction', async () => {
    const { id, token } = fake.interact(
      3,
      { custom_id: buttonId(page1, /^Next/), component_type: 2 },
      { message: page1 },
    );
    expect((await fake.waitFor(callback(id), 'deferUpdate')).body).toMatchObject({ type: 6 });
    const page2 = await messageOf(fake.waitFor(edited(token), 'page 2'));
    expect(titles(page2)).toHaveLength(5);
    expect(titles(page2)).not.toEqual(titles(page1));
    // Where we are: on the pager, or said under the page when the cards' buttons need the pager's room.
    expect(JSON.stringify(page2.components)).toContain('Page 2');
    // The page stays a Components V2 message: the edit keeps the flag, which Discord never takes away.
    expect(isV2(page2)).toBe(true);
  });

  it('the list select adds the creator to a CRM list in the sandbox', async () => {
    const created = await app.dispatcher.text({
      actor: { platform: 'discord', workspaceId: GUILD, userId: '200000000000000001', isAdmin: false },
      channelId: CHANNEL,
      text: `lists create "${LIST}"`,
    });
    expect(JSON.stringify(created)).toContain('Created');
    const press = fake.interact(
      3,
      // The first card's: buttons are in the cards' order.
      { custom_id: buttonId(page1, /^Add to list/), component_type: 2 },
      { message: page1 },
    );
    const picker = await messageOf(fake.waitFor(followed(press.token), 'picker'));
    expect(picker.flags).toBe(64);
    const select = components(picker).find((c) => c.type === 3);
    const option = select?.options?.find((o) => o.label === LIST);
    expect(option).toBeDefined();
    const before = sandbox.requests(KEY).length;
    const choose = fake.interact(
      3,
      { custom_id: select?.custom_id, component_type: 3, values: [option?.value] },
      { message: picker },
    );
    const added = await messageOf(
      fake.waitFor((r) => followed(choose.token)(r) || edited(choose.token)(r), 'added'),
    );
    expect(text(added)).toMatch(/Added/);
    const adds = sandbox
      .requests(KEY)
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path.includes('/crm/lists/'));
    expect(adds.length).toBeGreaterThan(0);
  });

  it('a modal submission updates a contact', async () => {
    const show = slash('list', 'show', [{ type: 3, name: 'list', value: LIST }]);
    const listed = await messageOf(fake.waitFor(edited(show.token), 'list show'));
    // The contacts are a table; its menu opens one contact with its buttons.
    const shown = text(listed);
    expect(shown).toMatch(/```[^`]*Creator +Status +Followers +Engagement \(%\)[^`]*```/);
    const listId = (await app.service.crm.listLists()).data.lists.find((l) => l.name === LIST)?.id as string;
    const contacts = (await app.service.crm.listCreators({ listId })).data.items;
    expect(contacts.length).toBeGreaterThan(0);
    for (const contact of contacts) {
      const name = (contact.influencer as { nickname: string }).nickname;
      expect(shown).toMatch(
        new RegExp(`@${contact.handle} · ${name} +To outreach +[\\d.]+[KM]? +[\\d.]+ +—`),
      );
    }
    const menu = components(listed).find((c) => c.type === 3 && c.placeholder === 'Act on a contact…');
    const choose = fake.interact(
      3,
      { custom_id: menu?.custom_id, component_type: 3, values: [menu?.options?.[0]?.value] },
      { message: listed },
    );
    const chosen = await messageOf(
      fake.waitFor((r) => followed(choose.token)(r) || edited(choose.token)(r), 'the contact'),
    );
    expect(components(chosen).map((c) => c.label)).toEqual(['Set status', 'Edit', 'Remove']);
    const edit = fake.interact(
      3,
      { custom_id: buttonId(chosen, /Edit$/), component_type: 2 },
      { message: chosen },
    );
    const opened = await fake.waitFor(callback(edit.id), 'modal');
    expect(opened.body).toMatchObject({ type: 9, data: { title: expect.stringMatching(/^\/scout Edit @/) } });
    const modal = (
      opened.body as { data: { custom_id: string; components: Array<{ components: unknown[] }> } }
    ).data;
    const status = modal.components.flatMap((row) => row.components as Array<Record<string, string>>)[0];
    // The status hint comes from the allowed values, which are the ones accepted.
    expect(status).toMatchObject({ custom_id: 'status', label: 'Status' });
    expect(status?.placeholder).toBe('To outreach, Outreached, Negotiating, Working, Done, Cancelled');
    const modalId = modal.custom_id;
    const before = sandbox.requests(KEY).length;
    const submit = fake.interact(
      5,
      {
        custom_id: modalId,
        components: [
          { type: 1, components: [{ type: 4, custom_id: 'status', value: 'negotiating' }] },
          { type: 1, components: [{ type: 4, custom_id: 'notes', value: 'Call Monday' }] },
          { type: 1, components: [{ type: 4, custom_id: 'contactEmail', value: '' }] },
        ],
      },
      { message: chosen },
    );
    const updated = await messageOf(
      fake.waitFor((r) => followed(submit.token)(r) || edited(submit.token)(r), 'update'),
    );
    expect(text(updated)).toMatch(/Updated/);
    expect(text(updated)).toContain('Negotiating');
    const patches = sandbox
      .requests(KEY)
      .slice(before)
      .filter((r) => r.method !== 'GET');
    expect(patches.length).toBeGreaterThan(0);
  });

  it('autocomplete answers long enumerations and the team CRM lists', async () => {
    const country = slash(
      'creators',
      'search',
      [{ type: 3, name: 'country', value: 'germ', focused: true }],
      4,
    );
    const answer = await fake.waitFor(callback(country.id), 'autocomplete');
    expect(answer.body).toMatchObject({
      type: 8,
      data: { choices: expect.arrayContaining([{ name: 'Germany', value: 'Germany' }]) },
    });
    const list = slash('list', 'show', [{ type: 3, name: 'list', value: 'spr', focused: true }], 4);
    const lists = await fake.waitFor(callback(list.id), 'list autocomplete');
    expect(lists.body).toMatchObject({
      type: 8,
      data: { choices: expect.arrayContaining([{ name: LIST, value: LIST }]) },
    });
  });

  it('the registration sends the command JSON built from the declarations', async () => {
    const count = await registerCommands(
      { token: 'fake-token', applicationId: APP_ID, apiUrl: fake.apiUrl, guildIds: [GUILD] },
      app.chat.catalogue,
      GUILD,
    );
    expect(count).toBe(1);
    const put = await fake.waitFor((r) => r.method === 'PUT', 'registration');
    expect(put.path).toBe(`/applications/${APP_ID}/guilds/${GUILD}/commands`);
    expect(put.auth).toBe('Bot fake-token');
    expect(put.body).toEqual(JSON.parse(JSON.stringify(buildCommandJson(app.chat.catalogue))));
  });

  it('the invite link asks for the bot, its commands, and what the outbound posts need', () => {
    const url = new URL(inviteUrl(APP_ID));
    expect(url.origin).toBe('https://discord.com');
    expect(url.pathname).toMatch(/\/oauth2\/authorize$/);
    expect(url.searchParams.get('client_id')).toBe(APP_ID);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    // View Channel, Send Messages, Embed Links, Read Message History, Create Public Threads, Send in Threads.
    const bits = [1n << 10n, 1n << 11n, 1n << 14n, 1n << 16n, 1n << 35n, 1n << 38n];
    expect(BOT_PERMISSIONS).toBe(bits.reduce((a, b) => a | b));
    expect(url.searchParams.get('permissions')).toBe(BOT_PERMISSIONS.toString());
  });

  it('the registration output says which servers a single-team deployment serves', () => {
    const config = { token: 'fake-token', applicationId: APP_ID, apiUrl: null, guildIds: [GUILD] };
    const single = inviteText(config, true);
    expect(single).toContain(inviteUrl(APP_ID));
    expect(single).toMatch(/Only the servers in DISCORD_GUILD_IDS \(300000000000000001\) are served/);
    expect(inviteText({ ...config, guildIds: [] }, false)).toBe(
      `Add the bot to a server: ${inviteUrl(APP_ID)}\n`,
    );
  });
});
