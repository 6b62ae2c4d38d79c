import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notice, reply } from '../../../src/core/ui/index.js';
import type { Bot } from './harness.js';
import {
  answered,
  CHANNEL,
  createWorld,
  edited,
  followed,
  GUILD,
  KEY,
  messageOf,
  press,
  slash,
  text,
  titles,
  type World,
} from './harness.js';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
});

afterAll(async () => {
  await world?.stop();
});

const serviceCalls = (path: string, since: number) =>
  world.sandbox
    .requests(KEY)
    .slice(since)
    .filter((r) => r.path === path);

describe('paid confirmations on Discord', () => {
  it('asks on an ephemeral reply; Confirm runs the call once, a second click nothing more', async () => {
    const { fake } = world;
    const before = world.sandbox.requests(KEY).length;
    // A filter: profiles of no one in particular are refused before anything is priced.
    const ask = slash(fake, 'creators', 'profiles', [
      { type: 3, name: 'category', value: 'Fitness' },
      { type: 3, name: 'filters', value: 'perPage:30' },
    ]);
    const prompt = await messageOf(fake.waitFor(followed(ask.token), 'confirmation'));
    expect(prompt.flags).toBe(64);
    expect(text(prompt)).toContain('30 credits');
    expect(fake.requests.some((r) => r.method === 'DELETE' && r.path.includes(ask.token))).toBe(true);
    expect(serviceCalls('/api/v1/creators', before)).toHaveLength(0);

    const confirm = press(fake, prompt, /^Confirm/);
    const result = await messageOf(fake.waitFor(answered(confirm.token), 'confirmed result'));
    expect(titles(result).length).toBeGreaterThan(0);
    expect(serviceCalls('/api/v1/creators', before)).toHaveLength(1);

    const again = press(fake, prompt, /^Confirm/);
    const second = await messageOf(fake.waitFor(answered(again.token), 'second click'));
    expect(second.flags).toBe(64);
    expect(text(second)).toMatch(/Already/);
    expect(serviceCalls('/api/v1/creators', before)).toHaveLength(1);
  });
});

describe('filters beyond the typed options', () => {
  it('the filters text option reaches options without a typed option', async () => {
    const { fake } = world;
    const before = world.sandbox.requests(KEY).length;
    const run = slash(fake, 'creators', 'search', [
      { type: 3, name: 'filters', value: 'bio:"vegan chef" hairColor:"Red hair"' },
    ]);
    await fake.waitFor(answered(run.token), 'search answer');
    const [search] = serviceCalls('/api/v2/creators/search', before);
    expect(search?.query).toMatchObject({ bio: 'vegan chef', hairColor: 'Red hair' });
  });
});

describe('outbound posts', () => {
  it('posts to a channel, then later posts into one thread of the first', async () => {
    const { fake } = world;
    const channel = { platform: 'discord' as const, workspaceId: GUILD, channelId: CHANNEL };
    const first = await bot.adapter.outbound.post(channel, reply([notice('info', 'Digest ready')]));
    expect(first).toMatchObject({ platform: 'discord', channelId: CHANNEL, threadId: null });
    const posted = fake.message(first.messageId);
    expect(posted?.channel_id).toBe(CHANNEL);
    expect(JSON.stringify(posted?.embeds)).toContain('Digest ready');

    const second = await bot.adapter.outbound.post(channel, reply([notice('info', 'Reply from ana')]), {
      inThreadOf: first,
    });
    expect(second.threadId).not.toBeNull();
    const inThread = fake.message(second.messageId);
    expect(inThread?.channel_id).toBe(second.threadId);
    expect(JSON.stringify(inThread?.embeds)).toContain('Reply from ana');

    // A later post in the thread of the same first message reuses its thread.
    const third = await bot.adapter.outbound.post(channel, reply([notice('info', 'Reply from bo')]), {
      inThreadOf: first,
    });
    expect(third.threadId).toBe(second.threadId);
    expect(fake.message(third.messageId)?.channel_id).toBe(second.threadId);
    const threadCreations = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/threads'));
    expect(threadCreations).toHaveLength(1);
    expect(threadCreations[0]?.path).toBe(`/channels/${CHANNEL}/messages/${first.messageId}/threads`);
  });
});

describe('admin detection from member permissions', () => {
  const cap = (user: { id: string; username: string; permissions: string }, amount: string) =>
    slash(
      world.fake,
      'credits',
      'cap',
      [
        { type: 3, name: 'who', value: '<@200000000000000042>' },
        { type: 3, name: 'amount', value: amount },
      ],
      { user },
    );
  const capOf = () =>
    bot.app.store.settings.dailyCap({
      platform: 'discord',
      workspaceId: GUILD,
      userId: '200000000000000042',
    });

  it('refuses credits cap to a plain member', async () => {
    const { fake } = world;
    const run = cap({ id: '200000000000000011', username: 'plain', permissions: '0' }, '100');
    const answer = await messageOf(fake.waitFor(answered(run.token), 'refusal'));
    expect(answer.flags).toBe(64);
    expect(text(answer)).toMatch(/admin/i);
    expect(await capOf()).toBeNull();
  });

  it.each([
    ['Manage Guild', (1n << 5n).toString(), '150'],
    ['Administrator', (1n << 3n).toString(), '250'],
  ])('allows credits cap with %s', async (_name, permissions, amount) => {
    const { fake } = world;
    const run = cap({ id: `2000000000000000${amount}`, username: 'admin', permissions }, amount);
    const answer = await messageOf(fake.waitFor(edited(run.token), 'cap set'));
    expect(text(answer)).toContain(`${amount} credits`);
    expect(await capOf()).toBe(Number(amount));
  });
});
