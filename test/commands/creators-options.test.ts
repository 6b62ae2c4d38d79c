/**
 * Creator filters as people write them, end to end: the service's own parameter names, comparisons, bounds the
 * service would read as none, percentages and any country, in the terminal and through Discord's typed options
 * and `filters` text, checked against what reaches the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorsFamily } from '../../src/commands/creators.js';
import { helpFamily } from '../../src/commands/help.js';
import { createManualClock } from '../../src/core/clock.js';
import { answered, type Bot, createWorld, KEY, slash, type World } from '../adapters/discord/harness.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const clock = createManualClock(Date.now());
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ families: [creatorsFamily, helpFamily], clock });
});
afterAll(async () => h.stop());

/** Runs a search and returns the query the sandbox received for it, without the paging Scout adds. */
async function searched(line: string): Promise<Record<string, string>> {
  clock.advance(11_000);
  const from = h.requests().length;
  const out = await h.type(line);
  const search = h
    .requests()
    .slice(from)
    .find((r) => r.path === '/api/v2/creators/search');
  if (search === undefined) throw new Error(`${line} made no search: ${out}`);
  const { page: _page, perPage: _perPage, ...query } = search.query as Record<string, string>;
  return query;
}

/** Types a line that must be refused before any call or spend, and returns the message. */
async function refused(line: string): Promise<string> {
  clock.advance(11_000);
  const from = h.requests().length;
  const spent = await h.spentToday();
  const out = await h.type(line);
  expect(h.requests().slice(from), line).toEqual([]);
  expect(await h.spentToday()).toBe(spent);
  expect(out, line).toMatch(/^Error: /);
  return out.split('\n')[0]?.replace(/^Error: /, '') ?? '';
}

describe('creator filters by the service’s own names', () => {
  it('sends followersMin alone as a minimum, in any case, and the other names as written', async () => {
    expect(await searched('/scout creators followersMin:10000')).toEqual({ followersMin: '10000' });
    expect(await searched('/scout creators FOLLOWERSMIN:10k followersMax:1m')).toEqual({
      followersMin: '10000',
      followersMax: '1000000',
    });
    expect(
      await searched(
        '/scout creators search averageViewsMin:1k engagementRateMin:2 uploadsPerWeekMin:1 sponsorshipPostsCountMin:1 mainCategory:Fitness',
      ),
    ).toEqual({
      averageViewsMin: '1000',
      engagementRateMin: '2',
      uploadsPerWeekMin: '1',
      sponsorshipPostsCountMin: '1',
      mainCategory: 'Fitness',
    });
  });

  it('refuses a name and its alias that disagree, naming both', async () => {
    expect(await refused('/scout creators followers:10k-50k followersMin:20000')).toBe(
      'followers:10k-50k and followersMin:20000 both set min followers, to different values; keep one.',
    );
    expect(await refused('/scout creators er:3 engagementRate:5')).toBe(
      'er:3 and engagementRate:5 both set min er, to different values; keep one.',
    );
  });
});

describe('comparisons and bounds', () => {
  it('reads >0 on a count as at least 1, so the filter reaches the service', async () => {
    expect(await searched('/scout creators sponsorships:>0')).toEqual({ sponsorshipPostsCountMin: '1' });
    expect(await searched('/scout creators followers:>10k')).toEqual({ followersMin: '10001' });
    expect(await searched('/scout creators followers:<1m')).toEqual({ followersMax: '999999' });
    expect(await searched('/scout creators followers:>=10k')).toEqual({ followersMin: '10000' });
  });

  it('refuses bounds the service reads as none, and engagement outside 0-100%', async () => {
    expect(await refused('/scout creators followers:>=0')).toBe(
      'followers:>=0 is no filter at all; leave it out.',
    );
    expect(await refused('/scout creators sponsorships:<1')).toMatch(
      /^sponsorships:<1 cannot be searched: the service reads a maximum of 0 as no bound/,
    );
    expect(await refused('/scout creators er:>300')).toBe(
      'er:>300 is out of range: er is a percentage, from 0 to 100.',
    );
  });

  it('refuses as no filter a minimum of 0 or a maximum at the top of the scale, and drops either within a range', async () => {
    for (const line of ['followers:>=0', 'er:<=100', 'er:<100%', 'engagementRateMax:100', 'er:0-100']) {
      expect(await refused(`/scout creators ${line}`)).toBe(`${line} is no filter at all; leave it out.`);
    }
    expect(await refused('/scout creators followers:<0')).toBe(
      'followers:<0 matches nothing: followers is never below 0.',
    );
    expect(await searched('/scout creators followers:0-10k')).toEqual({ followersMax: '10000' });
    expect(await searched('/scout creators er:2-100')).toEqual({ engagementRateMin: '2' });
    expect(await searched('/scout creators er:=100')).toEqual({ engagementRateMin: '100' });
    expect(await searched('/scout creators er:<99.5')).toEqual({ engagementRateMax: '99.5' });
  });

  it('refuses a negative number anywhere in a range or a bound, rather than dropping it', async () => {
    // `followers:-5-10k` once searched "10,000 or fewer": the minimum it could not use was dropped.
    for (const line of [
      'followers:-5-10k',
      'followers:>-5',
      'followers:<-5',
      'er:>-5',
      'followers:10k--5k',
    ]) {
      expect(await refused(`/scout creators ${line}`)).toBe(
        `${line} is not a range Scout reads: numbers here are 0 or more, such as ${line.startsWith('er') ? '2-5, >3 or <=10' : '10k-100k'}.`,
      );
    }
    expect(await refused('/scout creators followersMin:-5')).toBe(
      'followersMin:-5 is not a number Scout reads: numbers here are 0 or more, such as 10k.',
    );
  });

  it('refuses a number too large to be taken, saying the largest', async () => {
    expect(await refused('/scout creators followers:>999999999999999999999')).toBe(
      '"999999999999999999999" is too large for followers: the largest number accepted is 9,007,199,254,740,991.',
    );
    expect(await refused('/scout creators followers:>9007199254740991')).toBe(
      'followers:>9007199254740991 is too large: the largest number accepted is 9,007,199,254,740,991.',
    );
    expect(await refused('/scout creators profiles perPage:99999999999999999999')).toBe(
      '"99999999999999999999" is too large for perPage: the largest number accepted is 9,007,199,254,740,991.',
    );
    expect(await searched('/scout creators followers:<=9007199254740991')).toEqual({
      followersMax: '9007199254740991',
    });
  });
});

describe('creator countries', () => {
  it('takes any country by name or code, sent by its full name', async () => {
    for (const [typed, sent] of [
      ['Pakistan', 'Pakistan'],
      ['Kazakhstan', 'Kazakhstan'],
      ['nepal', 'Nepal'],
      ['Iceland', 'Iceland'],
      ['Latvia', 'Latvia'],
      ['PK', 'Pakistan'],
      ['USA', 'United States'],
      ['UK', 'United Kingdom'],
      ['UAE', 'United Arab Emirates'],
    ] as const) {
      expect(await searched(`/scout creators country:${typed}`), typed).toEqual({ country: sent });
    }
    expect(await refused('/scout creators country:Atlantis')).toBe(
      'country cannot be "Atlantis". Allowed: any country name or two-letter code: Pakistan, PK, USA, UK.',
    );
  });
});

/** What help says of each option, one entry each: its lines, trimmed, cut where ` · ` joins two options. */
const entries = (out: string) => out.split('\n').flatMap((line) => line.trim().split(' · '));

describe('help', () => {
  it('names the filters as people type them, which reach the service, says how ranges read, and lists no country', async () => {
    const card = await h.type('/scout help creators search');
    const page = await h.type('/scout help creators filters');
    for (const out of [card, page]) {
      expect(entries(out)).toEqual(
        expect.arrayContaining([
          'followers: Follower count range, e.g. 10k-100k or >50k',
          'er: Engagement rate in percent, 0-100: er:>=3 means at least 3%',
          'country: Country of the creator (any country name or two-letter code: Pakistan, PK, USA, UK)',
        ]),
      );
      expect(out).not.toContain('Afghanistan');
      // The service's spellings are not shown: the plain names above stand for them.
      for (const spelling of ['followersMin', 'followersMax', 'engagementRate', 'nichesToPromote'])
        expect(out, spelling).not.toContain(spelling);
    }
    expect(entries(page)).toContain('niche: Niches to promote; a comma list must all match');
    expect(page.split('\n')).toContain(
      'Ranges: followers:10k-100k (both ends included), >=10k or 10k+ (at least), >10k (more than), <=1m, <1m; ' +
        'on decimals (er), > and < mean at least and at most.',
    );
    // Each name shown reaches its filter when typed, and ranges read as help says.
    expect(await searched('/scout creators followers:10k-100k er:3.5+ niche:yoga country:PK')).toEqual({
      followersMin: '10000',
      followersMax: '100000',
      engagementRateMin: '3.5',
      nichesToPromote: 'yoga',
      country: 'Pakistan',
    });
    expect(await searched('/scout creators followers:>10k er:>3')).toEqual({
      followersMin: '10001',
      engagementRateMin: '3',
    });
    expect(await searched('/scout creators followers:<1m er:<5')).toEqual({
      followersMax: '999999',
      engagementRateMax: '5',
    });
  });
});

describe('on Discord', () => {
  let world: World;
  let bot: Bot;
  beforeAll(async () => {
    world = await createWorld();
    bot = await world.startBot({ databasePath: ':memory:' });
  });
  afterAll(async () => {
    await bot?.stop();
    await world?.stop();
  });

  const searchOf = async (options: Array<Record<string, unknown>>) => {
    const before = world.sandbox.requests(KEY).length;
    const run = slash(world.fake, 'creators', 'search', options);
    const answer = await world.fake.waitFor(answered(run.token), 'search answer');
    const search = world.sandbox
      .requests(KEY)
      .slice(before)
      .find((r) => r.path === '/api/v2/creators/search');
    const embeds = (answer.body as { embeds?: Array<{ description?: string }> }).embeds ?? [];
    // Discord's renderer escapes markdown characters (`\:`): the text as a person reads it.
    const shown = embeds.map((embed) => (embed.description ?? '').replace(/\\(.)/g, '$1')).join('\n');
    return { answer: shown, query: search?.query };
  };

  it('reads the filters text option with the same names and values', async () => {
    const { query } = await searchOf([
      { type: 3, name: 'filters', value: 'FOLLOWERSMIN:10000 followersMax:50k country:pk sponsorships:>0' },
    ]);
    expect(query).toMatchObject({
      followersMin: '10000',
      followersMax: '50000',
      country: 'Pakistan',
      sponsorshipPostsCountMin: '1',
    });
  });

  it('refuses in the filters option what the text refuses, naming both options', async () => {
    const { answer, query } = await searchOf([
      { type: 3, name: 'followers', value: '10k-50k' },
      { type: 3, name: 'filters', value: 'followersMin:20000' },
    ]);
    expect(query).toBeUndefined();
    expect(answer).toContain('followers:10k-50k and followersMin:20000 both set min followers');
  });

  it('coerces typed options (the form path) the same way', async () => {
    expect((await searchOf([{ type: 3, name: 'followers', value: '>0' }])).query).toMatchObject({
      followersMin: '1',
    });
    const { answer, query } = await searchOf([{ type: 3, name: 'followers', value: '>=0' }]);
    expect(query).toBeUndefined();
    expect(answer).toContain('followers:>=0 is no filter at all; leave it out.');
  });
});
