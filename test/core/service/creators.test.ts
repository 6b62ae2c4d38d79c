import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceInputError } from '../../../src/core/service/errors.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('creators', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('searches ids for free and reports the accounting headers', async () => {
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.creators.search({ perPage: 5 });
    expect(data.items).toHaveLength(5);
    for (const id of data.items) expect(typeof id).toBe('string');
    expect(data.page).toBe(1);
    expect(data.nextPage).toBe(2);
    expect(meta.cost).toBe(0);
    expect(meta.creditsRemaining).toBe(credits);
    expect(meta.rateLimitTotal).toBe(600);
    expect(meta.rateLimitRemaining).toBeGreaterThan(0);
    expect(h.sandbox.credits(KEY)).toBe(credits);
  });

  it('encodes the query: canonical spellings, comma lists, booleans, unset values omitted', async () => {
    await h.client.creators.search({
      race: ['latino', 'white'],
      hairColor: 'blonde,RED HAIR',
      country: 'united states',
      mainCategory: 'beauty & personal care',
      source: 'TikTok',
      emailExists: true,
      subCategories: 'makeup',
      followersMin: 1000,
      sortBy: 'followers',
      perPage: '7',
    });
    expect(last()?.query).toEqual({
      race: 'Latino Hispanic,White',
      hairColor: 'Blonde hair,Red hair',
      country: 'United States',
      mainCategory: 'Beauty & Personal Care',
      source: 'tiktok',
      emailExists: 'true',
      subCategory: 'makeup',
      followersMin: '1000',
      sortBy: 'followers',
      perPage: '7',
    });
  });

  it('follows next pages to the end', async () => {
    const filter = { source: 'youtube', perPage: 40 } as const;
    const first = await h.client.creators.search(filter);
    const seen = [...first.data.items];
    let next = first.data.nextPage;
    let pages = 1;
    while (next !== null) {
      const page = await h.client.creators.search({ ...filter, page: next });
      expect(page.data.page).toBe(next);
      seen.push(...page.data.items);
      next = page.data.nextPage;
      pages++;
    }
    expect(pages).toBe(first.data.totalPages);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('lists profiles by filter for 1 credit each, twitch included', async () => {
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.creators.list({ source: 'twitch', perPage: 3 });
    expect(data.items.length).toBeGreaterThan(0);
    for (const profile of data.items) expect(profile.source).toBe('twitch');
    expect(data.isTrial).toBe(false);
    expect(data.total).toBeGreaterThanOrEqual(data.items.length);
    expect(meta.cost).toBe(data.items.length);
    expect(h.sandbox.credits(KEY)).toBe(credits - meta.cost);
    expect(meta.creditsRemaining).toBe(credits - meta.cost);
  });

  it('gets profiles by id, with either spelling of the ids field', async () => {
    const ids = (await h.client.creators.search({ perPage: 3 })).data.items;
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.creators.get({ userIds: ids });
    expect(data.creators.map((c) => c.user_id)).toEqual(ids);
    expect(data.requestedIds).toEqual(ids);
    expect(data.isTrial).toBe(false);
    expect(meta.cost).toBe(3);
    expect(h.sandbox.credits(KEY)).toBe(credits - 3);
    expect(last()?.body).toEqual({ userIds: ids });
    const alias = await h.client.creators.get({ user_ids: ids.slice(0, 1) });
    expect(alias.data.creators).toHaveLength(1);
    expect(typeof alias.data.creators[0]?.followers).toBe('number');
  });

  it('reads is_trial of a profiles answer inside response or beside it, null when it is absent', async () => {
    const answers = [
      { body: { message: 'OK', response: { data: [], is_trial: true } }, isTrial: true },
      { body: { message: 'OK', is_trial: 'true', response: { data: [] } }, isTrial: true },
      { body: { message: 'OK', response: { data: [], is_trial: false } }, isTrial: false },
      { body: { message: 'OK', response: { data: [] } }, isTrial: null },
      { body: [], isTrial: null },
    ];
    for (const answer of answers) {
      h.sandbox.injectFaults(KEY, { kind: 'error-shape', status: 200, body: answer.body });
      const { data } = await h.client.creators.get({ userIds: ['instagram_1'] });
      expect(data.isTrial).toBe(answer.isTrial);
    }
  });

  it('charges nothing for ids that do not exist', async () => {
    const { data, meta } = await h.client.creators.get({ userIds: ['tiktok_does_not_exist'] });
    expect(data.creators).toEqual([]);
    expect(meta.cost).toBe(0);
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const bad = [
      () => h.client.creators.search({ perPage: 101 }),
      () => h.client.creators.search({ source: 'twitch' }),
      () => h.client.creators.search({ followersMin: 10, followersMax: 5 }),
      () => h.client.creators.search({ email: 'nobody' }),
      () => h.client.creators.list({ page: 0 }),
      () => h.client.creators.get({ userIds: [] }),
      () => h.client.creators.get({ userIds: ['a'], user_ids: ['b'] }),
    ];
    for (const call of bad) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceInputError);
    }
    const source = (await h.client.creators
      .search({ source: 'twitch' })
      .catch((e: unknown) => e)) as ServiceInputError;
    expect(source.issues[0]?.field).toBe('source');
    expect(source.issues[0]?.allowed).toEqual(['tiktok', 'instagram', 'youtube', 'twitter', 'linkedin']);
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});
