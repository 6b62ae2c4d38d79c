import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorsFamily } from '../../src/commands/creators.js';
import { createManualClock } from '../../src/core/clock.js';
import { bindTokens } from '../../src/core/command/bind.js';
import { tokenize } from '../../src/core/command/tokenize.js';
import type { CreatorProfile } from '../../src/core/service/index.js';
import { sql } from '../../src/core/store/sql.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { unbooked } from '../helpers/unbooked.js';

const clock = createManualClock(Date.now());
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ families: [creatorsFamily], clock });
});
afterAll(async () => h.stop());

const handles = (out: string) => [...out.matchAll(/^(?:\d+\. )?@(\S+) · /gm)].map((m) => m[1]);
const since = (from: number) => h.requests().slice(from);
const paths = (from: number) => since(from).map((r) => `${r.method} ${r.path}`);
const lastLedgerRow = () =>
  h.app.store.db.one(sql`SELECT operation, command, credits FROM credit_ledger ORDER BY id DESC LIMIT 1`);
const later = () => clock.advance(11_000);

/** Creators found directly through the client (not through Scout, so not in Scout's profile cache). */
async function creatorsWithUniqueHandles(count: number): Promise<CreatorProfile[]> {
  const { items } = (
    await unbooked(h.app.service).creators.list({ perPage: 40, emailExists: true, source: 'instagram' })
  ).data;
  const unique: CreatorProfile[] = [];
  for (const profile of items) {
    const hits = await h.app.service.creators.search({ username: profile.handle as string, perPage: 5 });
    if (hits.data.items.length === 1) unique.push(profile);
    if (unique.length === count) break;
  }
  return unique;
}

describe('creators profiles (v1)', () => {
  it('buys full profiles by filter, twitch included, 1 credit each, and caches them', async () => {
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type('/scout creators profiles platform:twitch perPage:3');
    expect(paths(from)).toEqual(['GET /api/v1/creators']);
    expect(since(from)[0]?.query).toEqual({ source: 'twitch', perPage: '3' });
    expect(handles(out)).toHaveLength(3);
    expect((out.match(/\(Twitch\)/g) ?? []).length).toBe(3);
    expect(out).toMatch(/^3 credits$/m);
    expect(out).toContain('run the command again with page:2');
    expect((await h.spentToday()) - spent).toBe(3);
    expect(await lastLedgerRow()).toEqual({
      operation: 'creators.list',
      command: 'creators profiles',
      credits: 3,
    });

    const details = await h.type('details 1');
    expect(details).toContain('Cadence:');
    expect(since(from)).toHaveLength(1);
    const id = /Creator id: (\S+)/.exec(details)?.[1];
    const shown = await h.type(`/scout creators show ${id}`);
    expect(shown.startsWith(`@${handles(out)[0]} · `)).toBe(true);
    expect(since(from)).toHaveLength(1);
    expect((await h.spentToday()) - spent).toBe(3);
  });

  it('says one profile and one credit in the singular', async () => {
    const out = await h.type('/scout creators profiles platform:youtube perPage:1');
    expect(handles(out)).toHaveLength(1);
    expect(out).toMatch(/^1 credit$/m);
  });

  it('pages a bought result 5 cards at a time without buying again', async () => {
    const from = h.requests().length;
    const first = await h.type('/scout creators profiles category:Gaming perPage:12');
    expect(handles(first)).toHaveLength(5);
    expect(first).toContain('Page 1 of 3');
    expect(since(from)).toHaveLength(1);
    const second = await h.type('next');
    const third = await h.type('next');
    expect(handles(second)).toHaveLength(5);
    expect(handles(third)).toHaveLength(2);
    expect(third).toContain('Page 3 of 3');
    expect(since(from)).toHaveLength(1);
  });

  it('asks for confirmation above the threshold before buying', async () => {
    const from = h.requests().length;
    const spent = await h.spentToday();
    const ask = await h.type('/scout creators profiles category:Fitness sort:followers perPage:30');
    expect(ask).toContain('This will cost up to 30 credits');
    expect(since(from)).toHaveLength(0);
    const done = await h.type('confirm');
    expect(handles(done)).toHaveLength(5);
    expect(done).toContain('Page 1 of 6');
    expect(since(from)[0]?.query).toMatchObject({ perPage: '30', sortBy: 'followers' });
    expect((await h.spentToday()) - spent).toBe(30);
  });

  it('rejects bad input before anything is sent', async () => {
    const from = h.requests().length;
    expect(await h.type('/scout creators profiles perPage:101')).toMatch(/^Error: .*perPage/);
    expect(await h.type('/scout creators profiles platform:myspace')).toMatch(
      /^Error: platform \(source\) cannot be "myspace"/,
    );
    expect(await h.type('/scout creators profiles page:0')).toMatch(/^Error: .*page/);
    expect(since(from)).toHaveLength(0);
  });
});

describe('creators show', () => {
  let people: CreatorProfile[] = [];

  beforeAll(async () => {
    people = await creatorsWithUniqueHandles(3);
    expect(people).toHaveLength(3);
  });

  it('finds a @handle with a free search and buys one profile, then shows it from the cache', async () => {
    const [person] = people as [CreatorProfile];
    let from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type(`/scout creators show @${person.handle}`);
    expect(out.startsWith(`@${person.handle} · `)).toBe(true);
    expect(out).toContain(`Email: ${person.email}`);
    expect(out).toContain('[1] Add to list');
    expect(paths(from)).toEqual(['GET /api/v2/creators/search', 'POST /api/v2/creators/get']);
    expect(since(from)[0]?.query).toMatchObject({ username: person.handle });
    expect(since(from)[1]?.body).toEqual({ userIds: [person.user_id] });
    expect((await h.spentToday()) - spent).toBe(1);
    expect(await lastLedgerRow()).toEqual({
      operation: 'creators.get',
      command: 'creators show',
      credits: 1,
    });

    later();
    from = h.requests().length;
    const again = await h.type(`/scout creators show @${person.handle}`);
    expect(again.startsWith(`@${person.handle} · `)).toBe(true);
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect((await h.spentToday()) - spent).toBe(1);
  });

  it('finds an email with a free search, and an id directly', async () => {
    const [, byEmail, byId] = people as [CreatorProfile, CreatorProfile, CreatorProfile];
    let from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type(`/scout creators show ${byEmail.email}`);
    expect(out.startsWith(`@${byEmail.handle} · `)).toBe(true);
    expect(paths(from)).toEqual(['GET /api/v2/creators/search', 'POST /api/v2/creators/get']);
    expect(since(from)[0]?.query).toMatchObject({ email: byEmail.email });

    from = h.requests().length;
    const shown = await h.type(`/scout creators show ${byId.user_id}`);
    expect(shown.startsWith(`@${byId.handle} · `)).toBe(true);
    expect(paths(from)).toEqual(['POST /api/v2/creators/get']);
    expect((await h.spentToday()) - spent).toBe(2);
  });

  it('takes the id under the contract names of creators get, userIds and user_ids, one creator at a time', async () => {
    const [, , byId] = people as [CreatorProfile, CreatorProfile, CreatorProfile];
    let from = h.requests().length;
    for (const key of ['userIds', 'user_ids']) {
      later();
      const shown = await h.type(`/scout creators show ${key}:${byId.user_id}`);
      expect(shown.startsWith(`@${byId.handle} · `), key).toBe(true);
    }
    // Shown from the cache: the id was bought by the test before.
    expect(paths(from)).toEqual([]);
    from = h.requests().length;
    expect(await h.type(`/scout creators show userIds:${byId.user_id},instagram_00000000001`)).toMatch(
      /^Error: .*give one creator id, @handle or email/i,
    );
    expect(since(from)).toHaveLength(0);
  });

  it('says when nobody matches, spending nothing', async () => {
    const from = h.requests().length;
    const spent = await h.spentToday();
    expect(await h.type('/scout creators show instagram_00000000001')).toContain(
      'No creator with id instagram_00000000001. Nothing was spent.',
    );
    expect(await h.type('/scout creators show @zz_nobody_qq platform:youtube')).toContain(
      'No creator with handle @zz_nobody_qq on youtube.',
    );
    expect(await h.type('/scout creators show nobody@nowhere.example')).toContain('No creator with email');
    expect(paths(from)).toEqual([
      'POST /api/v2/creators/get',
      'GET /api/v2/creators/search',
      'GET /api/v2/creators/search',
    ]);
    expect(since(from)[1]?.query).toMatchObject({ username: 'zz_nobody_qq', source: 'youtube' });
    expect(await h.spentToday()).toBe(spent);
  });

  it('rejects what is not an id, handle or email before anything is sent', async () => {
    const from = h.requests().length;
    expect(await h.type('/scout creators show @')).toMatch(
      /^Error: "@" is not a handle \(letters, digits, \. _ -\)\.$/m,
    );
    expect(await h.type('/scout creators show ana@')).toMatch(/^Error: "ana@" is not an email address\.$/m);
    expect(await h.type('/scout creators show')).toMatch(/^Error: who is required/);
    expect(await h.type('/scout creators show @ana platform:twitch')).toMatch(
      /^Error: platform \(source\) cannot be "twitch"/,
    );
    expect(since(from)).toHaveLength(0);
  });
});

describe('creators link: Look up', () => {
  it('buys no hit of the free handle search, lists them as matches, and buys one only on its Details', async () => {
    // A TikTok handle nobody has, yet part of other handles (the service's username filter matches substrings).
    const { items } = (await unbooked(h.app.service).creators.list({ perPage: 10, source: 'tiktok' })).data;
    let partial = '';
    for (const profile of items) {
      const candidate = (profile.handle as string).slice(0, -1);
      const hits = (
        await unbooked(h.app.service).creators.list({ username: candidate, source: 'tiktok', perPage: 25 })
      ).data.items;
      if (!hits.some((hit) => (hit.handle as string).toLowerCase() === candidate.toLowerCase())) {
        partial = candidate;
        break;
      }
    }
    expect(partial).not.toBe('');

    let from = h.requests().length;
    const spent = await h.spentToday();
    const card = await h.type(`/scout creators link https://www.tiktok.com/@${partial}`);
    expect(card).toContain(`@${partial} on TikTok: not looked up yet.`);
    expect(card).toContain('[1] Look up');
    expect(since(from)).toHaveLength(0);

    const looked = await h.type('1');
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect(since(from)[0]?.query).toEqual({ username: partial, source: 'tiktok', perPage: '25' });
    expect(looked).toContain(`No creator @${partial} on TikTok is confirmed yet. Nothing was spent.`);
    expect(looked).toMatch(/^Match 1 · creator id \S+$/m);
    expect(looked).toMatch(/\[1\] Add to list {2}\[2\] Details · 1 credit/);
    expect(await h.spentToday()).toBe(spent);

    // Details of a match buys that profile only.
    const id = /^Match 1 · creator id (\S+)$/m.exec(looked)?.[1] as string;
    from = h.requests().length;
    const details = await h.type('2');
    expect(paths(from)).toEqual(['POST /api/v2/creators/get']);
    expect(since(from)[0]?.body).toEqual({ userIds: [id] });
    expect(await h.spentToday()).toBe(spent + 1);
    const handle = /^@(\S+) · /m.exec(details)?.[1] as string;
    expect(handle.toLowerCase()).not.toBe(partial.toLowerCase());

    // Its own link now shows the card, from the cache: nothing sent.
    later();
    from = h.requests().length;
    const own = await h.type(`/scout creators link https://www.tiktok.com/@${handle.toUpperCase()}`);
    expect(own.startsWith(`@${handle} · `)).toBe(true);
    expect(since(from)).toHaveLength(0);

    // With every hit bought and none the linked handle, it says there is no such creator, showing them.
    const hits = (await h.app.service.creators.search({ username: partial, source: 'tiktok', perPage: 25 }))
      .data.items;
    expect(hits.length).toBeLessThanOrEqual(5);
    for (const hit of hits) await h.type(`/scout creators show ${hit}`);
    later();
    await h.type(`/scout creators link https://www.tiktok.com/@${partial}`);
    const none = await h.type('1');
    expect(none).toContain(`No creator @${partial} on TikTok. Nothing was spent.`);
    expect(none).toContain(`@${handle} · `);
    expect(none).not.toContain('Details · 1 credit');
  });
});

describe('creators search input', () => {
  it('reaches every filter of the contract from chat', async () => {
    const from = h.requests().length;
    const out = await h.type(
      '/scout creators search followers:1k-10m views:>=10 likes:<=1m er:1%-50% perWeek:>0.5 perMonth:<100 ' +
        'duration:5-4000 promotions:1-50 affiliate:<=50 sponsorships:<=50 age:20-29,30-39 gender:female ' +
        'race:"White,East Asian" hair:"Blonde hair" body:Ordinary category:Fitness subcategory:yoga bio:yoga ' +
        'products:mat niche:yoga keywords:yoga,pilates exclude:gambling business:fitness country:"United States" ' +
        'platform:instagram type:ugc handle:anna lang:english hashtags:yoga hasEmail:yes email:anna@example.com ' +
        'sort:followers order:asc',
    );
    expect(out).toContain('No creators match these filters');
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect(since(from)[0]?.query).toEqual({
      followersMin: '1000',
      followersMax: '10000000',
      averageViewsMin: '10',
      averageLikesMax: '1000000',
      engagementRateMin: '1',
      engagementRateMax: '50',
      uploadsPerWeekMin: '0.5',
      uploadsPerMonthMax: '100',
      avgVideoDurationSecondsMin: '5',
      avgVideoDurationSecondsMax: '4000',
      promotionsCountMin: '1',
      promotionsCountMax: '50',
      affiliatePostsCountMax: '50',
      sponsorshipPostsCountMax: '50',
      age: '20-29,30-39',
      gender: 'female',
      race: 'White,East Asian',
      hairColor: 'Blonde hair',
      bodyComplexion: 'Ordinary',
      mainCategory: 'Fitness',
      subCategory: 'yoga',
      bio: 'yoga',
      promotedProducts: 'mat',
      nichesToPromote: 'yoga',
      keywords: 'yoga,pilates',
      keywordsExcluded: 'gambling',
      promotedBusinessType: 'fitness',
      country: 'United States',
      source: 'instagram',
      accountType: 'ugc',
      username: 'anna',
      language: 'english',
      hashtags: 'yoga',
      emailExists: 'true',
      email: 'anna@example.com',
      sortBy: 'followers',
      sortOrder: 'asc',
      page: '1',
      perPage: '100',
    });
  });

  it('answers bad input with a short message to its author and sends nothing', async () => {
    const from = h.requests().length;
    const cases: Array<[string, RegExp]> = [
      ['followers:100-10', /The range 100-10 of followers goes from high to low; write it as 10-100\./],
      ['category:fitnes', /category cannot be "fitnes"\. Did you mean "Fitness"\?/],
      ['er:lots', /^Error: er takes a range/m],
      ['email:not-an-email', /^Error: email must be an email address\.$/m],
      ['platform:twitch', /platform \(source\) cannot be "twitch"/],
      ['gender:other', /gender cannot be "other"/],
      ['age:25', /age cannot include "25"/],
      ['colour:red', /Unknown option "colour"/],
    ];
    for (const [options, message] of cases) {
      const out = await h.type(`/scout creators search ${options}`);
      expect(out).toMatch(/^Error: /);
      expect(out).toMatch(message);
      expect(out).toContain('Usage:');
    }
    expect(since(from)).toHaveLength(0);
  });

  it('names both spellings of one option given twice, as any two options that set one thing', async () => {
    const from = h.requests().length;
    const out = await h.type('/scout creators show userIds:x user_ids:y');
    expect(out).toMatch(/^Error: userIds and user_ids are one option; keep one\.$/m);
    expect(since(from)).toHaveLength(0);
  });

  it('declares valid examples, short descriptions and costs for every command', () => {
    for (const command of creatorsFamily.commands) {
      expect(command.description.length).toBeLessThanOrEqual(100);
      expect(command.cost).not.toBe('');
      expect(command.examples.length).toBeGreaterThan(0);
      for (const example of command.examples) {
        const tokens = tokenize(example).slice(1);
        const rest = tokens[0]?.key === null && tokens[0].value === command.name ? tokens.slice(1) : tokens;
        const parsed = command.schema.safeParse(bindTokens(command.params, rest));
        expect(parsed.success, example).toBe(true);
      }
    }
  });
});
