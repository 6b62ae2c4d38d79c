import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorProfile, Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, startSandbox } from '../fixture.js';

interface SearchBody {
  message: string;
  params: Record<string, unknown>;
  response: { data: string[]; page: number; next_page: number; total_pages: number };
}
interface ProfilesBody {
  message: string;
  requestedIds?: string[];
  params?: Record<string, unknown>;
  response: {
    data: CreatorProfile[];
    page: number;
    next_page: number;
    total_pages: number;
    total: number;
    is_trial: boolean;
  };
}

let sandbox: Sandbox;
const KEY = 'creators-key';
const api = () => clientFor(sandbox, KEY);

beforeAll(async () => {
  sandbox = await startSandbox({
    keys: [{ key: KEY, teamId: 't', credits: 1_000_000 }],
    rateLimitPerMinute: 10_000,
  });
});
afterAll(async () => {
  await sandbox.stop();
});

/** v1 with perPage 100 returns full profiles: the tests check filters on them. */
async function profiles(query: Record<string, string | number | boolean>) {
  const answer = await api().get<ProfilesBody>('/api/v1/creators', { perPage: 100, ...query });
  expect(answer.status).toBe(200);
  return answer.json.response;
}

describe('creator search v2', () => {
  it('answers ids only with the documented envelope and newest first by default', async () => {
    const answer = await api().get<SearchBody>('/api/v2/creators/search', { perPage: 5 });
    expect(answer.status).toBe(200);
    expect(answer.json.message).toBe('OK');
    expect(answer.json.params).toMatchObject({ page: 1, perPage: 5 });
    expect(Object.keys(answer.json.response).sort()).toEqual(['data', 'next_page', 'page', 'total_pages']);
    expect(answer.json.response.data).toHaveLength(5);
    expect(answer.json.response.data.every((id) => typeof id === 'string')).toBe(true);
    const full = await api().post<ProfilesBody>('/api/v2/creators/get', {
      userIds: answer.json.response.data,
    });
    const stamps = full.json.response.data.map((c) => c.date_created_timestamp);
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it('pages to the end, with next_page 0 on the last page', async () => {
    const query = { mainCategory: 'Law', country: 'United States', perPage: 7 };
    const ids: string[] = [];
    let page = 1;
    let pages = 0;
    while (page !== 0) {
      const answer = await api().get<SearchBody>('/api/v2/creators/search', { ...query, page });
      ids.push(...answer.json.response.data);
      pages = answer.json.response.total_pages;
      page = answer.json.response.next_page;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.ceil(ids.length / 7)).toBe(pages);
    // v1 also holds the live-streaming platform, which search leaves out.
    const { total } = await profiles({ mainCategory: 'Law', country: 'United States' });
    const streamers = await profiles({ mainCategory: 'Law', country: 'United States', source: 'twitch' });
    expect(ids.length).toBe(total - streamers.total);
    const beyond = await api().get<SearchBody>('/api/v2/creators/search', { ...query, page: pages + 1 });
    expect(beyond.json.response).toMatchObject({ data: [], next_page: 0 });
  });

  it('never returns the live-streaming platform and refuses it as a source', async () => {
    const twitch = await api().get('/api/v2/creators/search', { source: 'twitch' });
    expect(twitch.status).toBe(400);
    expect(twitch.json).toEqual({ code: 400, message: expect.stringContaining('source') });
    const all = await api().get<SearchBody>('/api/v2/creators/search', { perPage: 100, sortBy: 'followers' });
    expect(all.json.response.data.some((id) => id.startsWith('twitch_'))).toBe(false);
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ perPage: 101 }, 'perPage'],
    [{ perPage: 0 }, 'perPage'],
    [{ sortBy: 'name' }, 'sortBy'],
    [{ sortOrder: 'up' }, 'sortOrder'],
    [{ gender: 'other' }, 'gender'],
    [{ race: 'Martian' }, 'race'],
    [{ mainCategory: 'Cooking' }, 'mainCategory'],
    [{ emailExists: 'maybe' }, 'emailExists'],
    [{ email: 'not-an-email' }, 'email'],
    [{ per_page: 10 }, 'per_page'],
  ])('answers 400 shape A for %j', async (query, name) => {
    const answer = await api().get('/api/v2/creators/search', query);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: 400, message: expect.stringContaining(name) });
  });
});

describe('creator filters', () => {
  it('filters by follower bounds, and 0 means no bound', async () => {
    const { data, total } = await profiles({ followersMin: 500_000, followersMax: 2_000_000 });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((c) => c.followers >= 500_000 && c.followers <= 2_000_000)).toBe(true);
    const unbounded = await profiles({ followersMin: 0, followersMax: 0 });
    expect(unbounded.total).toBeGreaterThan(total);
  });

  it('reads engagement bounds as percentages against fraction profiles', async () => {
    const { data } = await profiles({ engagementRateMin: 5, engagementRateMax: 8 });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((c) => c.engagement_rate >= 0.05 && c.engagement_rate <= 0.08)).toBe(true);
  });

  it('matches race, hair and body case-insensitively in either spelling', async () => {
    const title = await profiles({ hairColor: 'Blonde hair', race: 'East Asian,White' });
    const lower = await profiles({ hairColor: 'blonde', race: 'east asian,white' });
    expect(title.total).toBeGreaterThan(0);
    expect(lower.total).toBe(title.total);
    for (const c of title.data) {
      expect(c.hair_color.toLowerCase()).toMatch(/^blonde( hair)?$/);
      expect(['east asian', 'white']).toContain(c.race.toLowerCase());
    }
  });

  it('ANDs hashtags (leading # optional) and ORs keywords', async () => {
    const one = await profiles({ hashtags: '#skincare' });
    const both = await profiles({ hashtags: 'skincare,fyp' });
    expect(one.total).toBeGreaterThan(both.total);
    expect(both.data.every((c) => c.hashtags.includes('skincare') && c.hashtags.includes('fyp'))).toBe(true);
    const yoga = await profiles({ keywords: 'yoga' });
    const either = await profiles({ keywords: 'yoga,running' });
    expect(either.total).toBeGreaterThan(yoga.total);
  });

  it('filters by category, sub-category text, country, language, source, account type and age', async () => {
    const { data } = await profiles({
      mainCategory: 'food',
      subCategories: 'baking',
      source: 'instagram',
    });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((c) => c.main_category === 'Food' && c.categories.includes('baking'))).toBe(true);
    expect(data.every((c) => c.source === 'instagram')).toBe(true);
    const local = await profiles({
      country: 'Japan',
      language: 'japanese',
      accountType: 'ugc',
      age: '20-29,30-39',
    });
    expect(local.data.length).toBeGreaterThan(0);
    for (const c of local.data) {
      expect([c.country, c.language, c.account_type]).toEqual(['Japan', 'japanese', 'ugc']);
      expect(['20-29', '30-39']).toContain(c.age);
    }
  });

  it('filters by email presence and finds a creator by email or username', async () => {
    const withEmail = await profiles({ emailExists: true, perPage: 50 });
    expect(withEmail.data.every((c) => c.email !== null)).toBe(true);
    const target = withEmail.data[0] as CreatorProfile;
    const byEmail = await profiles({ email: (target.email as string).toUpperCase() });
    expect(byEmail.data.map((c) => c.user_id)).toEqual([target.user_id]);
    const byHandle = await profiles({ username: `@${target.handle}` });
    expect(byHandle.data.map((c) => c.user_id)).toContain(target.user_id);
  });

  it('filters cadence, duration and post counts, with 0 meaning no bound', async () => {
    const { data } = await profiles({
      uploadsPerWeekMin: 5,
      avgVideoDurationSecondsMax: 60,
      sponsorshipPostsCountMin: 3,
      promotionsCountMax: 0,
    });
    expect(data.length).toBeGreaterThan(0);
    for (const c of data) {
      expect(c.uploads_per_week).toBeGreaterThanOrEqual(5);
      expect(c.avg_video_duration_seconds).not.toBeNull();
      expect(c.avg_video_duration_seconds as number).toBeLessThanOrEqual(60);
      expect(c.sponsorship_posts_count).toBeGreaterThanOrEqual(3);
    }
  });

  it('sorts by the requested field and order', async () => {
    const { data } = await profiles({ sortBy: 'followers', sortOrder: 'asc', perPage: 30 });
    const followers = data.map((c) => c.followers);
    expect(followers).toEqual([...followers].sort((a, b) => a - b));
    const likes = (await profiles({ sortBy: 'avg_likes', perPage: 30 })).data.map((c) => c.avg_likes);
    expect(likes).toEqual([...likes].sort((a, b) => b - a));
  });
});

describe('v1 creators', () => {
  it('answers full profiles with total and is_trial, accepts twitch, and charges one credit per creator', async () => {
    const before = sandbox.credits(KEY);
    const answer = await api().get<ProfilesBody>('/api/v1/creators', { source: 'twitch', perPage: 15 });
    expect(answer.status).toBe(200);
    expect(answer.json.params).toMatchObject({ source: 'twitch', perPage: 15, page: 1 });
    expect(answer.json.response.is_trial).toBe(false);
    expect(answer.json.response.data).toHaveLength(15);
    expect(answer.json.response.data.every((c) => c.source === 'twitch')).toBe(true);
    expect(answer.json.response.total).toBeGreaterThan(15);
    expect(sandbox.credits(KEY)).toBe(before - 15);
  });
});

describe('creators get v2', () => {
  it('answers profiles for known ids (userIds or user_ids), drops unknown ones and charges what it returns', async () => {
    const ids = (await api().get<SearchBody>('/api/v2/creators/search', { perPage: 3 })).json.response.data;
    const before = sandbox.credits(KEY);
    const answer = await api().post<ProfilesBody>('/api/v2/creators/get', {
      userIds: [...ids, 'instagram_0'],
    });
    expect(answer.status).toBe(200);
    expect(answer.json.requestedIds).toEqual([...ids, 'instagram_0']);
    expect(answer.json.response.data.map((c) => c.user_id)).toEqual(ids);
    expect(answer.json.response).toMatchObject({ total: 3, is_trial: false, next_page: 0 });
    expect(sandbox.credits(KEY)).toBe(before - 3);
    const alias = await api().post<ProfilesBody>('/api/v2/creators/get', { user_ids: ids.slice(0, 1) });
    expect(alias.json.response.data.map((c) => c.user_id)).toEqual(ids.slice(0, 1));
  });

  it('answers 400 shape A for an empty or missing id list', async () => {
    for (const body of [{ userIds: [] }, {}, { userIds: 'instagram_1' }]) {
      const answer = await api().post('/api/v2/creators/get', body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ code: 400, message: expect.stringContaining('userIds') });
    }
  });
});
