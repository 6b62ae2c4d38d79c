import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsFamily } from '../../src/commands/credits.js';
import { videosFamily } from '../../src/commands/videos.js';
import { sql } from '../../src/core/store/sql.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

let h: Harness;

const videoRequests = () => h.requests().filter((r) => r.path === '/api/v1/videos');

/** Numbered video titles shown, e.g. `3. @ana`. */
const titles = (output: string) => [...output.matchAll(/^(\d+)\. @(\S+)/gm)].map((m) => `${m[1]} ${m[2]}`);

const counts = (output: string, label: string) =>
  [...output.matchAll(new RegExp(`${label}: ([\\d.]+)([KMB]?)`, 'g'))].map((m) => {
    const unit = { '': 1, K: 1e3, M: 1e6, B: 1e9 }[m[2] as '' | 'K' | 'M' | 'B'];
    return Number(m[1]) * unit;
  });

async function rejected(line: string): Promise<string> {
  const before = h.requests().length;
  const spent = await h.spentToday();
  const output = await h.type(line);
  expect(h.requests().length).toBe(before);
  expect(await h.spentToday()).toBe(spent);
  expect(output).toMatch(/^Error:/);
  return output;
}

beforeAll(async () => {
  h = await startHarness({ families: [videosFamily, creditsFamily] });
});

afterAll(async () => {
  await h.stop();
});

describe('videos search', () => {
  it('shows five videos readably, sorted as asked, one credit each', async () => {
    const balance = h.sandbox.credits(TEST_KEY);
    const output = await h.type('/scout videos hashtags:tips sort:likes');
    expect(videoRequests().at(-1)?.query).toEqual({
      hashtags: 'tips',
      sortBy: 'likes',
      page: '1',
      perPage: '5',
    });
    expect(output).toMatch(/^Videos 1–5 of [\d,]+$/m);
    expect(titles(output)).toHaveLength(5);
    expect(output).toMatch(
      /^1\. @\S+ \(https:\/\/www\.(tiktok|instagram|youtube)\.com\/\S+\) · (TikTok|Instagram|YouTube)$/m,
    );
    expect(output.match(/Hashtags: .*#tips/g)).toHaveLength(5);
    expect(output.match(/Posted: \d{4}-\d{2}-\d{2}/g)).toHaveLength(5);
    const likes = counts(output, 'Likes');
    expect(likes).toHaveLength(5);
    expect([...likes].sort((a, b) => b - a)).toEqual(likes);
    expect(output.trimEnd().split('\n').at(-1)).toBe('5 credits');
    expect(h.sandbox.credits(TEST_KEY)).toBe(balance - 5);
    const row = await h.app.store.db.one(
      sql`SELECT operation, command, units, credits FROM credit_ledger ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({ operation: 'videos.search', command: 'videos search', units: 5, credits: 5 });
  });

  it('pages forward with a paid call and back for free', async () => {
    const first = await h.type('videos sort:views');
    const spent = await h.spentToday();
    const second = await h.type('next');
    expect(videoRequests().at(-1)?.query).toEqual({ sortBy: 'views', page: '2', perPage: '5' });
    expect(titles(second)[0]).toMatch(/^6 /);
    expect(await h.spentToday()).toBe(spent + 5);
    const calls = videoRequests().length;
    const back = await h.type('previous');
    expect(titles(back)).toEqual(titles(first));
    expect(back).toContain('\n0 credits · 5 cached, free');
    const forward = await h.type('1');
    expect(titles(forward)).toEqual(titles(second));
    expect(videoRequests().length).toBe(calls);
    expect(await h.spentToday()).toBe(spent + 5);
  });

  it('shows a bigger page in even parts of at most ten without paying again', async () => {
    const first = await h.type('videos perPage:18 sort:date_created order:asc');
    expect(videoRequests().at(-1)?.query).toMatchObject({ perPage: '18', sortOrder: 'asc' });
    expect(first).toContain('Page 1 of');
    expect(titles(first)).toHaveLength(9);
    const calls = videoRequests().length;
    const spent = await h.spentToday();
    const second = await h.type('next');
    expect(titles(second).map((t) => t.split(' ')[0])).toEqual([
      '10',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
    ]);
    expect(videoRequests().length).toBe(calls);
    await h.type('next');
    expect(videoRequests().at(-1)?.query).toMatchObject({ page: '2', perPage: '18' });
    expect(await h.spentToday()).toBe(spent + 18);
  });

  it('asks to confirm a page above the threshold, and never a page already bought', async () => {
    expect(await h.type('videos perPage:25 sort:likes order:asc')).toContain(
      'This will cost up to 25 credits',
    );
    await h.type('confirm');
    // Twenty-five a service page, shown as three pages of nine, nine and seven.
    for (const cached of [9, 7])
      expect(await h.type('next')).toContain(`\n0 credits · ${cached} cached, free`);
    const calls = videoRequests().length;
    expect(await h.type('next')).toContain('This will cost up to 25 credits');
    expect(videoRequests().length).toBe(calls);
    const page = await h.type('confirm');
    expect(videoRequests().at(-1)?.query).toMatchObject({ page: '2', perPage: '25' });
    expect(titles(page)[0]).toMatch(/^26 /);
    expect(page.trimEnd().split('\n').at(-1)).toBe('25 credits');
  });

  it('sends every query parameter of the service notes', async () => {
    await h.type(
      'videos handle:@zoe followers:1k-10m views:10-100m likes:>=1 comments:<=1m shares:1-1m ' +
        'hashtags:tips,#reels text:worked sort:user_followers order:asc page:2 perPage:7',
    );
    expect(videoRequests().at(-1)?.query).toEqual({
      userHandle: '@zoe',
      userFollowersMin: '1000',
      userFollowersMax: '10000000',
      viewsMin: '10',
      viewsMax: '100000000',
      likesMin: '1',
      commentsMax: '1000000',
      sharesMin: '1',
      sharesMax: '1000000',
      hashtags: 'tips,#reels',
      textSearch: 'worked',
      sortBy: 'user_followers',
      sortOrder: 'asc',
      page: '2',
      perPage: '7',
    });
  });

  it('says so when nothing matches', async () => {
    const output = await h.type('videos handle:nobody_here_at_all');
    expect(output).toContain('No videos match these filters');
    expect(output).not.toContain('Next');
  });

  it('checks the daily cap against the page size before sending', async () => {
    await h.type(`credits cap me ${(await h.spentToday()) + 5}`);
    const calls = h.requests().length;
    expect(await h.type('videos perPage:6 sort:shares')).toContain('This needs up to 6 credits');
    expect(h.requests().length).toBe(calls);
    await h.type('videos perPage:5 sort:shares');
    expect(videoRequests().at(-1)?.query).toEqual({ sortBy: 'shares', page: '1', perPage: '5' });
    expect(await h.type('next')).toContain('This needs up to 5 credits');
    await h.type('credits cap me off');
  });

  it('declares its command within the platform limits', () => {
    const [command] = videosFamily.commands;
    expect(command?.description.length).toBeLessThanOrEqual(100);
    expect(command?.examples.length).toBeGreaterThan(0);
  });

  it('rejects bad input to its author without calling the service', async () => {
    expect(await rejected('videos sort:popularity')).toContain('Error: sort cannot be "popularity".');
    expect(await rejected('videos sort:popularity')).not.toContain('sortBy');
    expect(await rejected('videos sort:like')).toContain('Did you mean "likes"');
    expect(await rejected('videos order:up')).toContain('Error: order cannot be "up".');
    expect(await rejected('videos perPage:101')).toContain('perPage');
    expect(await rejected('videos views:lots')).toContain('views');
    expect(await rejected('videos followers:100-10')).toContain('goes from high to low');
    expect(await rejected('videos page:0')).toContain('page');
    expect(await rejected('videos color:red')).toContain('Unknown option "color"');
  });
});
