import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/core/service/client.js';
import { ServiceInputError } from '../../../src/core/service/errors.js';
import { normalizeViralPost } from '../../../src/core/service/viral.js';
import { unbooked } from '../../helpers/unbooked.js';
import { startFakeService } from './helpers/fake-service.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('viral content', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('searches with canonical values and charges 1 credit per post', async () => {
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.viral.search({
      contentFormats: 'TALKING HEAD,tutorial',
      hasFace: true,
      pageSize: 5,
    });
    expect(last()?.body).toEqual({
      contentFormats: ['talking_head', 'tutorial'],
      hasFace: true,
      pageSize: 5,
    });
    expect(data.items.length).toBeGreaterThan(0);
    expect(data.items.length).toBeLessThanOrEqual(5);
    for (const post of data.items) {
      expect(typeof post.id).toBe('string');
      expect(typeof post.viralityScore).toBe('number');
    }
    expect(meta.cost).toBe(data.items.length);
    expect(h.sandbox.credits(KEY)).toBe(credits - meta.cost);
  });

  it('follows pages to the end', async () => {
    const filter = { categories: ['gaming'], pageSize: 7 } as const;
    const first = await h.client.viral.search(filter);
    expect(last()?.body).toEqual({ categories: ['Gaming'], pageSize: 7 });
    let total = first.data.items.length;
    let next = first.data.nextPage;
    while (next !== null) {
      const page = await h.client.viral.search({ ...filter, page: next });
      total += page.data.items.length;
      next = page.data.nextPage;
    }
    expect(total).toBe(first.data.total);
    expect(first.data.totalPages).toBe(Math.ceil((first.data.total ?? 0) / 7));
  });

  it('honours retryAfter from a shape C body when the header is missing', async () => {
    const before = h.sandbox.requests(KEY).length;
    h.sandbox.injectFaults(KEY, {
      kind: 'error-shape',
      status: 429,
      body: { error: 'Too many requests', retryAfter: 1 },
    });
    const { meta } = await h.client.viral.search({ pageSize: 1 });
    expect(meta.attempts).toBe(2);
    const [limited, ok] = h.sandbox.requests(KEY).slice(before);
    expect((ok?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const cases: Array<[unknown, string]> = [
      [{ dateCreatedFrom: '2024-02-30' }, 'dateCreatedFrom'],
      [{ dateCreatedFrom: '2024-03-02', dateCreatedTo: '2024-03-01' }, 'dateCreatedTo'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ contentTones: ['funny', 'grumpy'] }, 'contentTones'],
      [{ countries: 'Narnia' }, 'countries'],
      [{ viewsMin: -1 }, 'viewsMin'],
      [{ hasFace: 'yes' }, 'hasFace'],
    ];
    for (const [input, field] of cases) {
      const error = (await h.client.viral
        .search(input as Parameters<typeof h.client.viral.search>[0])
        .catch((e: unknown) => e)) as ServiceInputError;
      expect(error).toBeInstanceOf(ServiceInputError);
      expect(error.issues[0]?.field).toBe(field);
    }
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});

describe('viral post normalization', () => {
  it('turns snake_case items into the camelCase shape, missing URLs as null', () => {
    const post = normalizeViralPost({
      video_id: 'v9',
      virality_score: '0.62',
      thumbnail_url: 'https://cdn/t.jpg',
      creator_username: 'ana',
      views: 1200,
      extra_field: 1,
    });
    expect(post).toMatchObject({
      id: 'v9',
      viralityScore: 0.62,
      thumbnailUrl: 'https://cdn/t.jpg',
      videoUrl: null,
      creatorUsername: 'ana',
      views: 1200,
      caption: null,
      extraField: 1,
    });
  });

  it('reads snake_case pages from the wire', async () => {
    const fake = await startFakeService(() => ({
      body: {
        message: 'OK',
        response: {
          data: [{ id: 'p1', video_url: 'https://v/1.mp4', virality_score: 0.9 }],
          page: 1,
          page_size: 1,
          total_pages: 3,
          total_results: 3,
        },
      },
    }));
    const dispatcher = new Agent();
    const client = unbooked(
      createServiceClient({ apiKey: 'k', baseUrl: fake.url, mediaUrl: fake.url, dispatcher }),
    );
    try {
      const { data, meta } = await client.viral.search({});
      expect(data).toEqual({
        items: [
          expect.objectContaining({
            id: 'p1',
            videoUrl: 'https://v/1.mp4',
            thumbnailUrl: null,
            viralityScore: 0.9,
          }),
        ],
        page: 1,
        nextPage: 2,
        totalPages: 3,
        total: 3,
      });
      expect(meta.cost).toBe(1);
      expect(fake.requests[0]?.body).toBe('{}');
    } finally {
      await client.stop();
      await fake.stop();
      await dispatcher.close();
    }
  });
});
