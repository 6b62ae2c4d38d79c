/**
 * Autocomplete on `/scout`, end to end (real discord.js against the fake gateway and REST, the sandbox as the
 * service): enumerations answer with the values matching what is typed (prefix first, then any containing match,
 * case aside), a comma list completes its last item and keeps the earlier ones, the `filters` text completes option
 * names and values, every answer keeps to Discord's limits (the fake refuses one that does not), people outside the
 * served servers get no suggestions, and a value typed past the suggestions is still checked when sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRIES, MAIN_CATEGORIES } from '../../../src/core/service/enums.js';
import type { FakeOrigin } from '../../fakes/discord-fake.js';
import { answered, type Bot, callback, createWorld, slash, type World } from './harness.js';

/** A server the bot is in that this deployment does not serve. */
const OTHER = '300000000000000002';
const FROM_OTHER = { guildId: OTHER, channelId: '400000000000000002' };

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld({ guilds: [{ id: OTHER, channelId: FROM_OTHER.channelId }] });
  bot = await world.startBot({ databasePath: ':memory:' });
});

afterAll(async () => {
  await world?.stop();
});

type Choice = { name: string; value: string };

/** Types `value` into `option` of `/scout <group> <sub>` (the option focused) and resolves with the suggestions. */
async function suggest(
  group: string,
  sub: string,
  option: string,
  value: string,
  origin: FakeOrigin = {},
): Promise<Choice[]> {
  const { id } = slash(world.fake, group, sub, [{ type: 3, name: option, value, focused: true }], {
    type: 4,
    ...origin,
  });
  const answer = await world.fake.waitFor(callback(id), `suggestions for ${option}`);
  // The fake refuses, as Discord does, an answer over 25 choices or with a name or value over 100 characters.
  expect(answer.refused).toBeUndefined();
  const body = answer.body as { type: number; data: { choices: Choice[] } };
  expect(body.type).toBe(8);
  return body.data.choices;
}

describe('autocomplete of an enumeration', () => {
  it('answers the categories matching what was typed: those starting with it first, then those containing it', async () => {
    const choices = await suggest('creators', 'search', 'main_category', 'AR');
    const starting = MAIN_CATEGORIES.filter((c) => c.toLowerCase().startsWith('ar'));
    const containing = MAIN_CATEGORIES.filter(
      (c) => !c.toLowerCase().startsWith('ar') && c.toLowerCase().includes('ar'),
    );
    expect(starting.length).toBeGreaterThan(0);
    expect(containing.length).toBeGreaterThan(2);
    expect(choices).toEqual([...starting, ...containing].map((c) => ({ name: c, value: c })));
  });

  it('lists the first 25 values before anything is typed, and none for text matching nothing', async () => {
    const all = await suggest('creators', 'search', 'main_category', '');
    expect(all.map((c) => c.value)).toEqual(MAIN_CATEGORIES.slice(0, 25));
    expect(await suggest('creators', 'search', 'main_category', 'zzq')).toEqual([]);
  });

  it('completes the last item of a comma list, keeping the earlier ones and not offering them again', async () => {
    const choices = await suggest('viral', 'search', 'categories', 'Food, fash');
    expect(choices).toEqual([{ name: 'Food,Fashion', value: 'Food,Fashion' }]);
    const again = await suggest('viral', 'search', 'categories', 'food,fo');
    expect(again.map((c) => c.value)).not.toContain('food,Food');
  });

  it('leaves out completions of a long comma list that Discord would not take, and sends 25 of the rest', async () => {
    const earlier = COUNTRIES.filter((c) => !c.toLowerCase().includes('a')).slice(0, 11);
    const head = `${earlier.join(',')},`;
    const choices = await suggest('viral', 'search', 'countries', `${head}a`);
    const matching = [
      ...COUNTRIES.filter((c) => c.toLowerCase().startsWith('a')),
      ...COUNTRIES.filter((c) => !c.toLowerCase().startsWith('a') && c.toLowerCase().includes('a')),
    ];
    const fitting = matching.filter((c) => `${head}${c}`.length <= 100);
    // Among the first 25 matches some are too long to send: they leave room to later ones that fit.
    expect(matching.slice(0, 25).filter((c) => fitting.includes(c)).length).toBeLessThan(25);
    expect(fitting.length).toBeGreaterThan(25);
    expect(choices.map((c) => c.value)).toEqual(fitting.slice(0, 25).map((c) => `${head}${c}`));
  });
});

describe('autocomplete of the filters text', () => {
  it('completes option names with their descriptions, then the values of an enumerated one', async () => {
    const names = await suggest('creators', 'search', 'filters', 'bio:vegan hair');
    expect(names[0]).toEqual({ name: 'bio:vegan hair', value: 'bio:vegan hair' });
    expect(names).toContainEqual({
      name: 'hairColor: Hair colours, comma-separated.',
      value: 'bio:vegan hairColor:',
    });
    const values = await suggest('viral', 'search', 'filters', 'views:>1m contentFormats:tut');
    expect(values).toContainEqual({
      name: 'contentFormats:tutorial',
      value: 'views:>1m contentFormats:tutorial',
    });
  });
});

describe('autocomplete from outside the served servers', () => {
  it('answers no suggestions, and asks the service nothing', async () => {
    const before = world.sandbox.requests().length;
    expect(await suggest('creators', 'search', 'main_category', 'ar', FROM_OTHER)).toEqual([]);
    expect(await suggest('viral', 'search', 'categories', 'Food,fa', { guildId: null })).toEqual([]);
    expect(await suggest('list', 'show', 'list', '', FROM_OTHER)).toEqual([]);
    expect(world.sandbox.requests().slice(before)).toEqual([]);
  });
});

describe('a value typed past the suggestions', () => {
  it('is checked when the command is sent: a short answer to its author, nothing asked of the service', async () => {
    const before = world.sandbox.requests().length;
    const sent = slash(world.fake, 'creators', 'search', [
      { type: 3, name: 'main_category', value: 'Beauty and Personnal' },
    ]);
    const answer = await world.fake.waitFor(answered(sent.token), 'the validation answer');
    expect(JSON.stringify(answer.body)).toMatch(/mainCategory cannot be/);
    expect(world.sandbox.requests().slice(before)).toEqual([]);
    expect(bot.app.registry.command('creators', 'search')).toBeDefined();
  });
});
