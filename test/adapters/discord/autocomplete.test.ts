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
    const choices = await suggest('creators', 'search', 'category', 'AR');
    const starting = MAIN_CATEGORIES.filter((c) => c.toLowerCase().startsWith('ar'));
    const containing = MAIN_CATEGORIES.filter(
      (c) => !c.toLowerCase().startsWith('ar') && c.toLowerCase().includes('ar'),
    );
    expect(starting.length).toBeGreaterThan(0);
    expect(containing.length).toBeGreaterThan(2);
    expect(choices).toEqual([...starting, ...containing].map((c) => ({ name: c, value: c })));
  });

  it('lists the first 25 values before anything is typed, and none for text matching nothing', async () => {
    const all = await suggest('creators', 'search', 'category', '');
    expect(all.map((c) => c.value)).toEqual(MAIN_CATEGORIES.slice(0, 25));
    expect(await suggest('creators', 'search', 'category', 'zzq')).toEqual([]);
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
  it('completes option names people are given with their descriptions, then the values of an enumerated one', async () => {
    const names = await suggest('creators', 'search', 'filters', 'bio:vegan hair');
    expect(names[0]).toEqual({ name: 'bio:vegan hair', value: 'bio:vegan hair' });
    expect(names).toContainEqual({
      name: 'hair: Hair colours, comma-separated.',
      value: 'bio:vegan hair:',
    });
    // Not the service's spelling of it, unless that is what is being typed.
    expect(JSON.stringify(names)).not.toContain('hairColor');
    const spelled = await suggest('creators', 'search', 'filters', 'bio:vegan hairC');
    expect(spelled.map((c) => c.value)).toContain('bio:vegan hairColor:');
    // A free-text option offers the values the service is known to take.
    const statuses = await suggest('outreach', 'messages', 'filters', 'status:re');
    expect(statuses.map((c) => c.value)).toEqual(
      expect.arrayContaining(['status:received', 'status:replied']),
    );
    const values = await suggest('viral', 'search', 'filters', 'views:>1m contentFormats:tut');
    expect(values).toContainEqual({
      name: 'contentFormats:tutorial',
      value: 'views:>1m contentFormats:tutorial',
    });
  });
});

describe('autocomplete of the names and spellings the service uses', () => {
  it("offers the service's names of a range's bounds in filters, and leaves out those already set", async () => {
    const followers = await suggest('creators', 'search', 'filters', 'niche:yoga followersM');
    expect(followers).toEqual([
      { name: 'niche:yoga followersM', value: 'niche:yoga followersM' },
      { name: 'followersMin: Lower bound of followers (one number).', value: 'niche:yoga followersMin:' },
      { name: 'followersMax: Upper bound of followers (one number).', value: 'niche:yoga followersMax:' },
    ]);
    const sponsored = await suggest('creators', 'search', 'filters', 'sponsorshipPostsCountM');
    expect(sponsored.map((c) => c.value)).toEqual([
      'sponsorshipPostsCountM',
      'sponsorshipPostsCountMin:',
      'sponsorshipPostsCountMax:',
    ]);
    const oneSet = await suggest('creators', 'search', 'filters', 'followersMin:10k followersM');
    expect(oneSet.map((c) => c.value)).toEqual([
      'followersMin:10k followersM',
      'followersMin:10k followersMax:',
    ]);
    // A plain word is completed by the names people are given alone.
    const plain = await suggest('creators', 'search', 'filters', 'followersMin:10k followers');
    expect(plain.map((c) => c.value)).toEqual(['followersMin:10k followers', 'followersMin:10k followers:']);
    const bothSet = await suggest('creators', 'search', 'filters', 'subscribers:10k-50k followers');
    expect(bothSet.map((c) => c.value)).toEqual(['subscribers:10k-50k followers']);
    // Nothing typed yet: the options themselves, not their bounds, fill the 25 suggestions.
    const fresh = await suggest('creators', 'search', 'filters', '');
    expect(fresh.map((c) => c.value).filter((v) => /(Min|Max):$/.test(v))).toEqual([]);
  });

  it('suggests the country a code or short form means, first', async () => {
    expect((await suggest('creators', 'search', 'country', 'PK'))[0]).toEqual({
      name: 'Pakistan',
      value: 'Pakistan',
    });
    expect((await suggest('creators', 'search', 'country', 'usa'))[0]?.value).toBe('United States');
    expect((await suggest('creators', 'search', 'country', 'uk')).map((c) => c.value).slice(0, 2)).toEqual([
      'United Kingdom',
      'Ukraine',
    ]);
    expect((await suggest('creators', 'search', 'country', 'Holl')).map((c) => c.value)).toEqual([
      'Netherlands',
    ]);
    expect(await suggest('viral', 'search', 'countries', 'Japan,usa')).toContainEqual({
      name: 'Japan,United States',
      value: 'Japan,United States',
    });
    // The same in the filters text, where an option is typed as name:value.
    const inFilters = await suggest('creators', 'search', 'filters', 'bio:yoga country:pk');
    expect(inFilters[1]).toEqual({ name: 'country:Pakistan', value: 'bio:yoga country:Pakistan' });
    // A code is offered only typed whole: one letter lists the names that start with it.
    const p = await suggest('creators', 'search', 'country', 'p');
    expect(p.map((c) => c.value).slice(0, 3)).toEqual(['Pakistan', 'Palau', 'Palestine']);
  });
});

describe('autocomplete from outside the served servers', () => {
  it('answers no suggestions, and asks the service nothing', async () => {
    const before = world.sandbox.requests().length;
    expect(await suggest('creators', 'search', 'category', 'ar', FROM_OTHER)).toEqual([]);
    expect(await suggest('viral', 'search', 'categories', 'Food,fa', { guildId: null })).toEqual([]);
    expect(await suggest('list', 'show', 'list', '', FROM_OTHER)).toEqual([]);
    expect(world.sandbox.requests().slice(before)).toEqual([]);
  });
});

describe('a value typed past the suggestions', () => {
  it("is checked when the command is sent: a short answer to its author in people's words, nothing asked of the service", async () => {
    const before = world.sandbox.requests().length;
    const sent = slash(world.fake, 'creators', 'search', [
      { type: 3, name: 'category', value: 'Beauty and Personnal' },
    ]);
    const answer = await world.fake.waitFor(answered(sent.token), 'the validation answer');
    expect(JSON.stringify(answer.body)).toMatch(/category cannot be \\"Beauty and Personnal\\"/);
    expect(JSON.stringify(answer.body)).not.toContain('mainCategory');
    expect(world.sandbox.requests().slice(before)).toEqual([]);
    expect(bot.app.registry.command('creators', 'search')).toBeDefined();
  });
});
