import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SONG_ACTIONS } from '../../../src/core/service/enums.js';
import { ServiceInputError } from '../../../src/core/service/errors.js';
import type { SongsQueryInput } from '../../../src/core/service/songs.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('songs', () => {
  let h: Harness;
  let country: string;
  let weeks: string[];
  beforeAll(async () => {
    h = await startHarness();
    const countries = await h.client.songs.query({ action: 'countries' });
    const codes = countries.data.items.map((item) => String(item.code));
    country = codes.includes('US') ? 'US' : (codes[0] as string);
    weeks = (
      await h.client.songs.query({ action: 'weeks', countryCode: country.toLowerCase() })
    ).data.data.map(String);
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('lists countries and weeks, sending the live query names', () => {
    expect(country).toMatch(/^[A-Z]{2}$/);
    expect(weeks.length).toBeGreaterThan(1);
    for (const week of weeks) expect(week).toMatch(/^\d{4}-W\d{2}$/);
  });

  it('charges 10 credits per request and types the rankings', async () => {
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.songs.query({
      action: 'rankings',
      countryCode: country,
      week: weeks[0],
    });
    expect(last()?.query).toEqual({ action: 'rankings', country, week: weeks[0] });
    expect(data.action).toBe('rankings');
    expect(data.creditsUsed).toBe(10);
    expect(meta.cost).toBe(10);
    expect(h.sandbox.credits(KEY)).toBe(credits - 10);
    expect(data.items.length).toBeGreaterThan(0);
    const [top] = data.items;
    expect(typeof top?.id).toBe('string');
    expect(top?.rank).toBe(1);
    expect(typeof top?.title).toBe('string');
  });

  it('maps every action to its live query', async () => {
    const ranking = await h.client.songs.query({ action: 'global' });
    const song = ranking.data.items[0];
    const title = String(song?.title ?? '');
    const cases: Array<[SongsQueryInput, Record<string, string>]> = [
      [{ action: 'date-ranges' }, { action: 'date-ranges' }],
      [
        { action: 'global', week: weeks[1] },
        { action: 'global', week: weeks[1] as string },
      ],
      [
        { action: 'new-entries', countryCode: country },
        { action: 'new-entries', country },
      ],
      [
        { action: 'search', query: title.slice(0, 4) },
        { action: 'search', q: title.slice(0, 4) },
      ],
      [
        { action: 'song-history', songId: String(song?.id), countryCode: country },
        { action: 'song-history', song_id: String(song?.id), country_code: country },
      ],
      [
        {
          action: 'compare',
          countryCode: country,
          firstWeek: weeks[1] as string,
          secondWeek: weeks[0] as string,
        },
        { action: 'compare', country, week1: weeks[1] as string, week2: weeks[0] as string },
      ],
    ];
    for (const [input, query] of cases) {
      const { data } = await h.client.songs.query(input);
      expect(last()?.query).toEqual(query);
      expect(last()?.status).toBe(200);
      expect(data.action).toBe(input.action);
      expect(Array.isArray(data.data)).toBe(true);
    }
    const search = await h.client.songs.query({ action: 'search', query: title });
    expect(search.data.items.map((i) => i.title)).toContain(title);
  });

  it('matches the action case-insensitively for untyped callers', async () => {
    const input = JSON.parse('{"action":"Date-Ranges"}') as SongsQueryInput;
    const { data } = await h.client.songs.query(input);
    expect(data.action).toBe('date-ranges');
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const unknown = (await h.client.songs
      .query(JSON.parse('{"action":"dance"}') as SongsQueryInput)
      .catch((e: unknown) => e)) as ServiceInputError;
    expect(unknown).toBeInstanceOf(ServiceInputError);
    expect(unknown.issues[0]).toMatchObject({ field: 'action', allowed: [...SONG_ACTIONS] });
    const cases: Array<[unknown, string]> = [
      [{ action: 'rankings' }, 'countryCode'],
      [{ action: 'rankings', countryCode: 'USA' }, 'countryCode'],
      [{ action: 'global', week: '2026-W5' }, 'week'],
      [{ action: 'global', week: '2025-W53' }, 'week'],
      [{ action: 'compare', countryCode: 'US', firstWeek: '2026-W01' }, 'secondWeek'],
      [{ action: 'search' }, 'query'],
      [{ action: 'countries', countryCode: 'US' }, 'countryCode'],
    ];
    for (const [input, field] of cases) {
      const error = (await h.client.songs
        .query(input as SongsQueryInput)
        .catch((e: unknown) => e)) as ServiceInputError;
      expect(error).toBeInstanceOf(ServiceInputError);
      expect(error.issues.map((i) => i.field)).toContain(field);
    }
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});
