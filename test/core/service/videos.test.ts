import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/core/service/client.js';
import { ServiceInputError } from '../../../src/core/service/errors.js';
import { unbooked } from '../../helpers/unbooked.js';
import { startFakeService } from './helpers/fake-service.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('videos', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('reads the bare {data, pagination} answer and charges 1 credit per video', async () => {
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.videos.search({ sortBy: 'likes', sortOrder: 'ASC', perPage: 4 });
    expect(last()?.query).toEqual({ sortBy: 'likes', sortOrder: 'asc', perPage: '4' });
    expect(data.items).toHaveLength(4);
    const likes = data.items.map((v) => v.likes ?? 0);
    expect([...likes].sort((a, b) => a - b)).toEqual(likes);
    expect(data.page).toBe(1);
    expect(data.nextPage).toBe(2);
    expect(meta.cost).toBe(4);
    expect(h.sandbox.credits(KEY)).toBe(credits - 4);
  });

  it('follows pages to the end', async () => {
    const top = await h.client.videos.search({ sortBy: 'likes', perPage: 12 });
    const likesMin = top.data.items.at(-1)?.likes ?? 0;
    const filter = { likesMin, sortBy: 'likes', perPage: 5 } as const;
    const first = await h.client.videos.search(filter);
    const seen = first.data.items.map((v) => v.iv_id);
    let next = first.data.nextPage;
    while (next !== null) {
      const page = await h.client.videos.search({ ...filter, page: next });
      seen.push(...page.data.items.map((v) => v.iv_id));
      next = page.data.nextPage;
    }
    expect(seen.length).toBe(first.data.total);
    expect(seen.length).toBeGreaterThan(5);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => h.client.videos.search({ perPage: 0 }), 'perPage'],
      [() => h.client.videos.search({ sortBy: 'comments' }), 'sortBy'],
      [() => h.client.videos.search({ likesMin: 10, likesMax: 1 }), 'likesMax'],
    ];
    for (const [call, field] of cases) {
      const error = (await call().catch((e: unknown) => e)) as ServiceInputError;
      expect(error).toBeInstanceOf(ServiceInputError);
      expect(error.issues[0]?.field).toBe(field);
    }
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});

describe('videos inside the usual envelope', () => {
  it('reads {message, response: {data, page, next_page, total_pages, total}}', async () => {
    const fake = await startFakeService(() => ({
      body: {
        message: 'OK',
        response: {
          data: [{ iv_id: 7, video_id: 'v7', views: '12' }],
          page: 2,
          next_page: 0,
          total_pages: 2,
          total: 21,
        },
      },
    }));
    const dispatcher = new Agent();
    const client = unbooked(
      createServiceClient({ apiKey: 'k', baseUrl: fake.url, mediaUrl: fake.url, dispatcher }),
    );
    try {
      const { data } = await client.videos.search({ page: 2, hashtags: '#cats, dogs' });
      expect(fake.requests[0]?.query.get('hashtags')).toBe('#cats,dogs');
      expect(data.items[0]).toMatchObject({ iv_id: '7', video_id: 'v7', views: 12 });
      expect(data).toMatchObject({ page: 2, nextPage: null, totalPages: 2, total: 21 });
    } finally {
      await client.stop();
      await fake.stop();
      await dispatcher.close();
    }
  });
});
