import { describe, expect, it } from 'vitest';
import { bindTokens } from '../../../src/core/command/bind.js';
import { coerceParam, type ParamTable, parseHumanNumber } from '../../../src/core/command/params.js';
import { editDistance, fold, matchChoice } from '../../../src/core/command/suggest.js';
import { MAX_COMMAND_LENGTH, TokenizeError, tokenize } from '../../../src/core/command/tokenize.js';
import { COUNTRIES, MAIN_CATEGORIES } from '../../../src/core/service/enums.js';

describe('tokenize', () => {
  it('splits words, key:value and key=value pairs, honouring quotes', () => {
    const tokens = tokenize(
      ' creators  search country:"United States" niche=\'skin care\' followers:10k-100k ',
    );
    expect(tokens.map((t) => [t.key, t.value])).toEqual([
      [null, 'creators'],
      [null, 'search'],
      ['country', 'United States'],
      ['niche', 'skin care'],
      ['followers', '10k-100k'],
    ]);
  });

  it('keeps URLs and quoted words bare, accepts smart quotes', () => {
    expect(tokenize('remix image https://x.test/a.png “two words”').map((t) => [t.key, t.value])).toEqual([
      [null, 'remix'],
      [null, 'image'],
      [null, 'https://x.test/a.png'],
      [null, 'two words'],
    ]);
    expect(tokenize('hook:“wait for it”')[0]).toMatchObject({ key: 'hook', value: 'wait for it' });
  });

  it('reads an apostrophe within a word as part of it, a quote only where a value begins', () => {
    expect(tokenize("lists create O'Brien Picks").map((t) => t.value)).toEqual([
      'lists',
      'create',
      "O'Brien",
      'Picks',
    ]);
    expect(tokenize('list It’s Summer').map((t) => t.value)).toEqual(['list', 'It’s', 'Summer']);
    expect(tokenize("name:'O Brien' it's")).toMatchObject([
      { key: 'name', value: 'O Brien' },
      { key: null, value: "it's" },
    ]);
  });

  it('refuses unclosed quotes and overlong input', () => {
    expect(() => tokenize('country:"United States')).toThrow(TokenizeError);
    expect(() => tokenize('x'.repeat(MAX_COMMAND_LENGTH + 1))).toThrow(/too long/);
  });
});

describe('numbers, choices and ranges', () => {
  it('reads human numbers', () => {
    expect(parseHumanNumber('10k')).toBe(10_000);
    expect(parseHumanNumber('1.5M')).toBe(1_500_000);
    expect(parseHumanNumber('10,000')).toBe(10_000);
    expect(parseHumanNumber('3%', { percent: true })).toBe(3);
    expect(parseHumanNumber('3%')).toBeNull();
    expect(parseHumanNumber('ten')).toBeNull();
    expect(parseHumanNumber('1e400')).toBeNull();
  });

  it('matches choices loosely and suggests near misses', () => {
    expect(fold('Beauty & Personal-Care')).toBe('beautyandpersonalcare');
    expect(matchChoice('united states', COUNTRIES)).toEqual({ ok: true, value: 'United States' });
    expect(matchChoice('beauty and personal care', MAIN_CATEGORIES)).toEqual({
      ok: true,
      value: 'Beauty & Personal Care',
    });
    const miss = matchChoice('Beauty & Personal Car', MAIN_CATEGORIES);
    expect(miss.ok).toBe(false);
    expect(miss.ok ? [] : miss.suggestions[0]).toBe('Beauty & Personal Care');
    expect(matchChoice('Fitnes', MAIN_CATEGORIES)).toEqual({ ok: false, suggestions: ['Fitness'] });
    expect(editDistance('ab', 'ba')).toBe(1);
  });

  it('coerces ranges, comparisons and lists', () => {
    const followers = {
      kind: 'range',
      min: 'followersMin',
      max: 'followersMax',
      integer: true,
      description: '',
    } as const;
    expect(coerceParam('followers', followers, '10k-100k')).toEqual({
      followersMin: 10_000,
      followersMax: 100_000,
    });
    expect(coerceParam('followers', followers, '>=10k')).toEqual({ followersMin: 10_000 });
    expect(coerceParam('followers', followers, '<=1m')).toEqual({ followersMax: 1_000_000 });
    expect(coerceParam('followers', followers, '50k+')).toEqual({ followersMin: 50_000 });
    expect(() => coerceParam('followers', followers, '100k-10k')).toThrow(/high to low/);
    expect(() => coerceParam('followers', followers, 'lots')).toThrow(/takes a range/);
    const er = {
      kind: 'range',
      min: 'engagementRateMin',
      max: 'engagementRateMax',
      integer: false,
      percent: true,
      description: '',
    } as const;
    expect(coerceParam('er', er, '>=3%')).toEqual({ engagementRateMin: 3 });
    expect(coerceParam('er', er, '2.5-4')).toEqual({ engagementRateMin: 2.5, engagementRateMax: 4 });
    const cats = { kind: 'choices', values: MAIN_CATEGORIES, description: '' } as const;
    expect(coerceParam('categories', cats, 'fitness, food,fitness')).toEqual({
      categories: ['Fitness', 'Food'],
    });
    expect(() => coerceParam('categories', cats, 'fitness,spaceships')).toThrow(
      /categories cannot include "spaceships"/,
    );
    expect(coerceParam('flag', { kind: 'boolean', description: '' }, 'yes')).toEqual({ flag: true });
    expect(() => coerceParam('flag', { kind: 'boolean', description: '' }, 'maybe')).toThrow(/yes or no/);
  });
});

describe('bindTokens', () => {
  const table: ParamTable = {
    handle: { kind: 'text', description: '', positional: true },
    followers: { kind: 'range', min: 'followersMin', max: 'followersMax', integer: true, description: '' },
    mainCategory: {
      kind: 'choice',
      values: MAIN_CATEGORIES,
      aliases: ['category', 'niche-category'],
      description: '',
    },
    urls: { kind: 'text', rest: true, description: '' },
  };

  it('binds keys, aliases, positionals and the rest', () => {
    expect(bindTokens(table, tokenize('@ana followers:1k-2k category:food https://a https://b'))).toEqual({
      handle: '@ana',
      followersMin: 1000,
      followersMax: 2000,
      mainCategory: 'Food',
      urls: ['https://a', 'https://b'],
    });
    expect(bindTokens(table, tokenize('main_category:Fitness'))).toEqual({ mainCategory: 'Fitness' });
  });

  it('refuses unknown keys with a suggestion, duplicates and missing required options', () => {
    expect(() => bindTokens(table, tokenize('folowers:10k'))).toThrow(
      /Unknown option "folowers". Did you mean "followers"/,
    );
    expect(() => bindTokens(table, tokenize('category:food category:fitness'))).toThrow(/given twice/);
    expect(() =>
      bindTokens({ q: { kind: 'text', required: true, example: 'dua', description: '' } }, tokenize('')),
    ).toThrow(/q is required, e.g. q:dua/);
    expect(() => bindTokens({}, tokenize('stray'))).toThrow(/not understood/);
  });
});

describe('stray values in errors', () => {
  it('quotes a short stray value whole, and only the start of a long one (a key typed without its name)', () => {
    const table = { name: { kind: 'text', description: 'A name.' } } as const;
    expect(() => bindTokens(table, tokenize('name:a fitness'))).toThrow('"fitness" is not understood here');
    const secret = 'sk_live_SECRETVALUE123';
    let message = '';
    try {
      bindTokens(table, tokenize(`name:a ${secret}`));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"sk_l…" is not understood here');
    expect(message).not.toContain('SECRETVALUE');
  });
});
