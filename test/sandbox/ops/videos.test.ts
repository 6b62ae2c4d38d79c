import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, VideoRecord } from '../../../src/sandbox/index.js';
import { clientFor, startSandbox } from '../fixture.js';

interface VideosBody {
  data: VideoRecord[];
  pagination: { page: number; perPage: number; total: number; totalPages: number };
}

let sandbox: Sandbox;
const KEY = 'videos-key';
const videos = (query: Record<string, string | number> = {}) =>
  clientFor(sandbox, KEY).get<VideosBody>('/api/v1/videos', query);

beforeAll(async () => {
  sandbox = await startSandbox({
    keys: [{ key: KEY, teamId: 't', credits: 100_000 }],
    rateLimitPerMinute: 10_000,
  });
});
afterAll(async () => {
  await sandbox.stop();
});

describe('videos', () => {
  it('answers without the usual envelope, 20 per page sorted by views, one credit per video', async () => {
    const before = sandbox.credits(KEY);
    const answer = await videos();
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json).sort()).toEqual(['data', 'pagination']);
    expect(answer.json.pagination).toMatchObject({ page: 1, perPage: 20, total: 3000, totalPages: 150 });
    const views = answer.json.data.map((v) => v.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(answer.json.data[0]).not.toHaveProperty('videoUrl');
    expect(sandbox.credits(KEY)).toBe(before - 20);
  });

  it('filters by handle, ranges, hashtags and text, and sorts on request', async () => {
    const sample = (await videos({ perPage: 1, sortBy: 'likes' })).json.data[0] as VideoRecord;
    const own = await videos({ userHandle: `@${sample.user_handle.toUpperCase()}`, perPage: 100 });
    expect(own.json.data.length).toBeGreaterThan(0);
    expect(own.json.data.every((v) => v.user_id === sample.user_id)).toBe(true);
    const ranged = await videos({
      likesMin: 10_000,
      sharesMax: 50_000,
      sortBy: 'date_created',
      sortOrder: 'asc',
      perPage: 50,
    });
    expect(ranged.json.data.every((v) => v.likes >= 10_000 && v.shares <= 50_000)).toBe(true);
    const stamps = ranged.json.data.map((v) => v.date_created_timestamp);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    const tag = sample.hashtags[0] as string;
    const tagged = await videos({ hashtags: `#${tag}`, perPage: 100 });
    expect(tagged.json.data.every((v) => v.hashtags.includes(tag))).toBe(true);
    const text = await videos({ textSearch: 'follow for part two', perPage: 100 });
    expect(text.json.pagination.total).toBeGreaterThan(0);
    expect(text.json.pagination.total).toBeLessThan(3000);
  });

  it('answers 400 shape C for bad input', async () => {
    for (const query of [{ perPage: 101 }, { sortBy: 'comments' }, { page: 0 }, { viewsMin: -1 }]) {
      const answer = await videos(query);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: expect.any(String) });
    }
  });
});
