/**
 * The text syntax of options, against the real creator and viral option tables: the service's own parameter
 * names beside the aliases, what `>`, `>=`, `<` and `<=` mean, bounds the service would read as none, percentages,
 * and the wording of every message the parser gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATOR_FILTER_PARAMS, creatorFilterParams } from '../../../src/commands/creators/filters.js';
import { profilesCommand } from '../../../src/commands/creators/search.js';
import { viralFamily } from '../../../src/commands/viral.js';
import { bindTokens } from '../../../src/core/command/bind.js';
import {
  coerceParam,
  type ParamSpec,
  type ParamTable,
  resolveKey,
  resolveOption,
} from '../../../src/core/command/params.js';
import { tokenize } from '../../../src/core/command/tokenize.js';
import { SEARCH_PLATFORMS } from '../../../src/core/service/enums.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

const creators = creatorFilterParams(SEARCH_PLATFORMS);
const viral = viralFamily.commands.find((c) => c.name === 'search')?.params as ParamTable;
const profiles = profilesCommand.params as ParamTable;
const bind = (table: ParamTable, line: string) => bindTokens(table, tokenize(line));
const refusal = (table: ParamTable, line: string) => {
  try {
    bind(table, line);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${line} was accepted`);
};

describe("the service's own names", () => {
  it('reach one bound of a range each, in any case and spelling', () => {
    expect(bind(creators, 'followersMin:10000')).toEqual({ followersMin: 10_000 });
    expect(bind(creators, 'FOLLOWERSMIN:10k')).toEqual({ followersMin: 10_000 });
    expect(bind(creators, 'followers_min:10k followersMax:1m')).toEqual({
      followersMin: 10_000,
      followersMax: 1_000_000,
    });
    expect(
      bind(
        creators,
        'averageViewsMin:20k engagementRateMin:2.5 uploadsPerWeekMin:1 sponsorshipPostsCountMin:1 avgVideoDurationSecondsMax:60',
      ),
    ).toEqual({
      averageViewsMin: 20_000,
      engagementRateMin: 2.5,
      uploadsPerWeekMin: 1,
      sponsorshipPostsCountMin: 1,
      avgVideoDurationSecondsMax: 60,
    });
    expect(bind(viral, 'viewsMin:1m viralityScoreMin:0.5 followersMax:100k')).toEqual({
      viewsMin: 1_000_000,
      viralityScoreMin: 0.5,
      followersMax: 100_000,
    });
    expect(resolveOption(creators, 'ENGAGEMENTRATEMAX')).toMatchObject({
      name: 'engagementRate',
      bound: 'max',
    });
    // A bound's name is not the option itself: a form giving `followersMin` whole cannot set both bounds.
    expect(resolveKey(creators, 'followersMin')).toBeNull();
    expect(resolveKey(creators, 'MAINCATEGORY')).toBe('mainCategory');
  });

  it('take one number each, with the checks of any bound', () => {
    expect(refusal(creators, 'followersMin:>10k')).toBe(
      'followersMin takes one number such as 10k, not ">10k".',
    );
    expect(refusal(creators, 'followersMin:0')).toBe('followersMin:0 is no filter at all; leave it out.');
    expect(refusal(creators, 'engagementRateMin:300')).toBe(
      'engagementRateMin:300 is out of range: engagementRateMin is a percentage, from 0 to 100.',
    );
    expect(refusal(creators, 'sponsorshipPostsCountMax:0')).toBe(
      'sponsorshipPostsCountMax:0 cannot be searched: the service reads a maximum of 0 as no bound, so it would match everyone. Leave it out.',
    );
  });

  it('agree with their aliases, or the command says which two disagree', () => {
    expect(refusal(creators, 'followers:10k-50k followersMin:20000')).toBe(
      'followers:10k-50k and followersMin:20000 both set min followers, to different values; keep one.',
    );
    expect(refusal(creators, 'er:3 engagementRate:5')).toBe(
      'er:3 and engagementRate:5 both set min er, to different values; keep one.',
    );
    expect(refusal(creators, 'category:food mainCategory:fitness')).toBe(
      'category:food and mainCategory:fitness both set category, to different values; keep one.',
    );
    // The same values, or different bounds, are no contradiction.
    expect(bind(creators, 'er:3 engagementRateMin:3')).toEqual({ engagementRateMin: 3 });
    expect(bind(creators, 'followers:>=10k followersMax:1m')).toEqual({
      followersMin: 10_000,
      followersMax: 1_000_000,
    });
    // One name twice stays a mistake whatever the values.
    expect(refusal(creators, 'followers:>10k followers:<1m')).toBe('followers is given twice.');
  });

  it('leave an unknown key with a suggestion among the options and the bounds', () => {
    expect(refusal(creators, 'folowersMin:10k')).toBe(
      'Unknown option "folowersMin". Did you mean "followersMin" or "followersMax"?',
    );
  });
});

describe('comparisons', () => {
  it('read > and < as strict on whole numbers, >= ≥ <= ≤ as inclusive', () => {
    expect(bind(creators, 'sponsorships:>0')).toEqual({ sponsorshipPostsCountMin: 1 });
    expect(bind(creators, 'followers:>10k')).toEqual({ followersMin: 10_001 });
    expect(bind(creators, 'followers:<1m')).toEqual({ followersMax: 999_999 });
    expect(bind(creators, 'followers:>=10k')).toEqual({ followersMin: 10_000 });
    expect(bind(creators, 'followers:≥10k')).toEqual({ followersMin: 10_000 });
    expect(bind(creators, 'followers:<=1m')).toEqual({ followersMax: 1_000_000 });
    expect(bind(creators, 'followers:≤1m')).toEqual({ followersMax: 1_000_000 });
    expect(bind(creators, 'followers:10k+')).toEqual({ followersMin: 10_000 });
    expect(bind(creators, 'followers:10k')).toEqual({ followersMin: 10_000 });
    expect(bind(creators, 'followers:=10k')).toEqual({ followersMin: 10_000, followersMax: 10_000 });
  });

  it('read > and < on decimals as at least and at most, as help says', () => {
    expect(bind(creators, 'er:>3')).toEqual({ engagementRateMin: 3 });
    expect(bind(creators, 'er:<5%')).toEqual({ engagementRateMax: 5 });
    expect(bind(viral, 'virality:>0.5')).toEqual({ viralityScoreMin: 0.5 });
  });

  it('refuse a bound the service would read as none, instead of dropping the filter silently', () => {
    expect(refusal(creators, 'followers:>=0')).toBe('followers:>=0 is no filter at all; leave it out.');
    expect(refusal(creators, 'sponsorships:0+')).toBe('sponsorships:0+ is no filter at all; leave it out.');
    expect(refusal(creators, 'sponsorships:<1')).toBe(
      'sponsorships:<1 cannot be searched: the service reads a maximum of 0 as no bound, so it would match everyone. Leave it out.',
    );
    expect(refusal(creators, 'followers:<0')).toBe(
      'followers:<0 matches nothing: followers is never below 0.',
    );
    // Within a range, "at least 0" is true of everyone and simply not sent.
    expect(bind(creators, 'followers:0-10k')).toEqual({ followersMax: 10_000 });
    // Viral bounds of 0 are real bounds to the service: only a minimum of 0 alone is refused.
    expect(bind(viral, 'views:<=0')).toEqual({ viewsMax: 0 });
    expect(refusal(viral, 'views:0+')).toBe('views:0+ is no filter at all; leave it out.');
  });

  it('keep an engagement rate within 0-100 percent', () => {
    expect(refusal(creators, 'er:>300')).toBe('er:>300 is out of range: er is a percentage, from 0 to 100.');
    expect(refusal(creators, 'er:50-101%')).toBe(
      'er:50-101% is out of range: er is a percentage, from 0 to 100.',
    );
    expect(refusal(creators, 'er:-2')).toBe(
      'er:-2 is not a range Scout reads: numbers here are 0 or more, such as 2-5, >3 or <=10.',
    );
    expect(bind(creators, 'er:100')).toEqual({ engagementRateMin: 100 });
    expect(CREATOR_FILTER_PARAMS.engagementRate).toMatchObject({ kind: 'range', percent: true });
  });
});

describe('a negative number', () => {
  const range = (typed: string) =>
    `${typed} is not a range Scout reads: numbers here are 0 or more, such as 10k-100k.`;

  it('anywhere in a range refuses the range whole, however it would split', () => {
    // `-5k-10k` once read as -5,000 to 10,000: the minimum dropped, it searched "10,000 or fewer".
    for (const typed of [
      'followers:-5k-10k',
      'followers:-5k',
      'followers:10k--5k',
      'followers:>-5',
      'followers:>=-5',
      'followers:<-5',
      'followers:-5k+',
      'followers:-5,000-10,000',
      'followers:10k..-5k',
      'followers:-5k--1k',
      'followers:−5k-10k',
      'followers:-0-10k',
    ]) {
      expect(refusal(creators, typed), typed).toBe(range(typed));
    }
    // Quoted, a range may hold spaces.
    for (const typed of ['- 5k', '10k to -5k', '10k - -5k', '> -5']) {
      const followers = CREATOR_FILTER_PARAMS.followers as ParamSpec;
      expect(() => coerceParam('followers', followers, typed), typed).toThrow(range(`followers:${typed}`));
    }
    expect(refusal(creators, 'er:-3')).toBe(
      'er:-3 is not a range Scout reads: numbers here are 0 or more, such as 2-5, >3 or <=10.',
    );
    expect(refusal(viral, 'virality:-0.5-1')).toBe(
      'virality:-0.5-1 is not a range Scout reads: numbers here are 0 or more, such as >0.5.',
    );
  });

  it("in a bound by the service's name is refused, naming the bound as typed", () => {
    expect(refusal(creators, 'followersMin:-5')).toBe(
      'followersMin:-5 is not a number Scout reads: numbers here are 0 or more, such as 10k.',
    );
    expect(refusal(creators, 'followersMax:-5k')).toBe(
      'followersMax:-5k is not a number Scout reads: numbers here are 0 or more, such as 10k.',
    );
    expect(refusal(creators, 'engagementRateMin:-3')).toBe(
      'engagementRateMin:-3 is not a number Scout reads: numbers here are 0 or more, such as 2.5.',
    );
  });

  it('is told apart from the dash between two numbers, and ranges read as before', () => {
    expect(bind(creators, 'followers:5k-10k')).toEqual({ followersMin: 5_000, followersMax: 10_000 });
    expect(bind(creators, 'followers:"5k - 10k"')).toEqual({ followersMin: 5_000, followersMax: 10_000 });
    expect(bind(creators, 'followers:5k–10k')).toEqual({ followersMin: 5_000, followersMax: 10_000 });
    expect(bind(creators, 'followers:"5k to 10k"')).toEqual({ followersMin: 5_000, followersMax: 10_000 });
    expect(bind(creators, 'er:2-5%')).toEqual({ engagementRateMin: 2, engagementRateMax: 5 });
    expect(bind(creators, 'er:.5-1.5')).toEqual({ engagementRateMin: 0.5, engagementRateMax: 1.5 });
    // Ends the wrong way round stay refused, with the range written the right way.
    expect(refusal(creators, 'followers:10k-5k')).toBe(
      'The range 10k-5k of followers goes from high to low; write it as 5k-10k.',
    );
  });
});

describe('messages of the parser', () => {
  const choice: ParamSpec = { kind: 'choice', values: ['male', 'female'], description: '' };
  it('read as sentences, name what was typed once, and say what is allowed', () => {
    const cases: Array<[ParamTable, string, string]> = [
      [viral, 'categories:Fitnes', 'categories cannot include "Fitnes". Did you mean "Fitness"?'],
      [viral, 'cat:Fitnes', 'cat (categories) cannot include "Fitnes". Did you mean "Fitness"?'],
      [creators, 'gender:x', 'gender cannot be "x". Allowed: male, female.'],
      [
        creators,
        'language:klingon',
        'language cannot be "klingon". It takes one of 62 values, such as arabic, bengali, bosnian, bulgarian, cantonese.',
      ],
      [
        creators,
        'country:Atlantis',
        'country cannot be "Atlantis". Allowed: any country name or two-letter code: Pakistan, PK, USA, UK.',
      ],
      [creators, 'followers:lots', 'followers takes a range such as 10k-100k, not "lots".'],
      [creators, 'er:1e-7', 'er takes a range such as 2-5, >3 or <=10, not "1e-7".'],
      [creators, 'er:2-lots', 'er takes a number such as 3, not "lots".'],
      [creators, 'followers:>=', 'followers needs a number, such as 10k.'],
      [creators, 'perWeek:often', 'perWeek (weekly) takes a range such as 2-7, not "often".'],
      [viral, 'virality:high', 'virality takes a range such as >0.5, not "high".'],
      [profiles, 'perPage:1e2', 'perPage takes a number such as 10, not "1e2".'],
      [viral, 'pageSize:five', 'pageSize takes a number such as 5, not "five".'],
      [
        creators,
        'followers:100k-10k',
        'The range 100k-10k of followers goes from high to low; write it as 10k-100k.',
      ],
      [creators, 'followers:>1.5', 'followers takes a whole number, not "1.5".'],
      [creators, 'emailExists:maybe', 'emailExists takes yes or no, not "maybe".'],
      [creators, 'niche:,', 'niche needs at least one value.'],
      [creators, 'bio:""', 'bio needs a value.'],
      [creators, 'colour:red', 'Unknown option "colour".'],
      [
        { q: { kind: 'text', required: true, example: 'dua', description: '' } },
        '',
        'q is required, e.g. q:dua.',
      ],
      [{}, 'stray', '"stray" is not understood here: options are written key:value.'],
      [{}, '"@channel"', '"@channel" is not understood here: options are written key:value.'],
      [{}, "'two words'", '"two words" is not understood here: options are written key:value.'],
      [{}, 'colour:red', 'Unknown option "colour". This command takes no options.'],
    ];
    for (const [table, line, message] of cases) expect(refusal(table, line), line).toBe(message);
    expect(() => coerceParam('gender', choice, 'x')).toThrow('gender cannot be "x". Allowed: male, female.');
  });
});

describe('messages of the command schemas', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.stop());

  it('name the field once, as it was typed, before what is wrong with it, in a sentence', async () => {
    const cases: Array<[string, string]> = [
      [
        'list add "Spring Launch" tiktok_1 tiktok_2 email:ana@example.com',
        "email sets one creator's details, so it needs exactly one creator id (you gave 2); add that creator on its own.",
      ],
      [
        'list add "Spring Launch" tiktok_1 tiktok_2 contactEmail:ana@example.com',
        "contactEmail sets one creator's details, so it needs exactly one creator id (you gave 2); add that creator on its own.",
      ],
      ['list add "Spring Launch"', 'Give 1 to 500 creator ids after the list name.'],
      ['list update "Spring Launch" tiktok_1 rate:-5', 'rate must be a number of at least 0.'],
      [
        'list update "Spring Launch" tiktok_1 proposedRate:-5',
        'proposedRate must be a number of at least 0.',
      ],
      ['list update "Spring Launch" tiktok_1 email:nope', 'email must be an email address.'],
      [
        'list update "Spring Launch" tiktok_1',
        'Nothing to change: give status, notes, email, rate, agreed, deliverables, instagram or tiktok, e.g. status:negotiating.',
      ],
      ['creators profiles limit:0', 'limit must be a whole number from 1 to 100.'],
      ['viral virality:2', 'virality:2 is out of range: virality goes from 0 to 1.'],
      ['viral viralityScoreMin:2', 'viralityScoreMin:2 is out of range: viralityScoreMin goes from 0 to 1.'],
      ['creators show "ana b"', 'Give one creator id, @handle or email.'],
      [
        'digest add 09:00 Mars/Phobos',
        '"Mars/Phobos" is not an IANA time zone such as Europe/Paris, America/New_York or UTC.',
      ],
      [
        'credits cap @someone lots',
        'amount takes a whole number of credits (at most 10,000,000) or off, not "lots".',
      ],
    ];
    for (const [line, message] of cases) {
      const out = await h.type(`/scout ${line}`);
      expect(out.split('\n')[0], line).toBe(`Error: ${message}`);
    }
    expect(h.requests()).toEqual([]);
  });

  it('say one problem per option, the first found', async () => {
    const out = await h.type('/scout viral since:2026-13-45 until:xx');
    expect(out.split('\n').slice(0, 3)).toEqual([
      'Error: since must be a real calendar date (YYYY-MM-DD), or relative such as 7d, 2w or 3m.',
      'until must be a date written YYYY-MM-DD, or relative such as 7d, 2w or 3m.',
      '',
    ]);
  });
});

describe('a misspelt option name', () => {
  it('is compared with the names people type, aliases included', () => {
    expect(() => bindTokens(creatorFilterParams(['tiktok']), tokenize('categry:Food'))).toThrow(
      /Unknown option "categry". Did you mean "category"/,
    );
  });
});
