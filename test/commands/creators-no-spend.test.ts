/**
 * Nothing is spent on a creator search that makes no sense, in the terminal end to end: a range holding a negative
 * number, and a search with no filter at all (which would buy a page of anyone's profiles). Each is answered with
 * one sentence saying what to write instead; the sandbox receives no request and the ledger stays as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

const WHICH =
  'Error: Which creators? Add a filter, such as category:Fitness, country:France or followers:10k-100k, or say it in words: fitness creators in France.';

describe('a creator search that makes no sense', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.stop());

  it('with a negative number in a range is refused before anything is sent', async () => {
    const out = await h.type('creators search followers:-5k-10k');
    expect(out.split('\n')[0]).toBe(
      'Error: followers:-5k-10k is not a range Scout reads: numbers here are 0 or more, such as 10k-100k.',
    );
    for (const line of ['creators er:-3', 'creators followersMin:-5', 'creators followers:10k--5k']) {
      expect((await h.type(line)).split('\n')[0], line).toMatch(/^Error: .* 0 or more, such as /);
    }
    expect(h.requests()).toEqual([]);
    expect(await h.spentToday()).toBe(0);
  });

  it('with no filter at all asks which creators, and buys nothing', async () => {
    for (const line of [
      'creators',
      '/scout creators',
      'creators search',
      'creators search sort:followers order:desc page:2 perPage:3',
      'creators profiles',
      'creators profiles page:2 perPage:3',
    ]) {
      expect((await h.type(line)).split('\n')[0], line).toBe(WHICH);
    }
    expect(h.requests()).toEqual([]);
    expect(await h.spentToday()).toBe(0);
  });

  it('runs once it has a filter, a platform alone included', async () => {
    const out = await h.type('creators platform:tiktok perPage:1');
    expect(out).toContain('Creators · source tiktok');
    expect(h.requests().map((r) => r.path)).toContain('/api/v2/creators/search');
    expect(await h.spentToday()).toBe(1);
  });
});
