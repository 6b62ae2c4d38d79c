import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartEntry, Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, startSandbox } from '../fixture.js';

interface SongsBody<T = Record<string, unknown>> {
  message: string;
  action: string;
  credits_used: number;
  response: T;
}

let sandbox: Sandbox;
const KEY = 'songs-key';
const songs = <T = Record<string, unknown>>(query: Record<string, string>) =>
  clientFor(sandbox, KEY).get<SongsBody<T>>('/api/v1/songs', query);

beforeAll(async () => {
  sandbox = await startSandbox({
    keys: [{ key: KEY, teamId: 't', credits: 10_000 }],
    rateLimitPerMinute: 10_000,
  });
});
afterAll(async () => {
  await sandbox.stop();
});

describe('songs', () => {
  it('lists countries and weeks and charges 10 credits per request', async () => {
    const before = sandbox.credits(KEY);
    const countries = await songs<{ data: { code: string }[] }>({ action: 'countries' });
    expect(countries.json).toMatchObject({ message: 'OK', action: 'countries', credits_used: 10 });
    expect(countries.json.response.data.length).toBeGreaterThanOrEqual(10);
    expect(sandbox.credits(KEY)).toBe(before - 10);
    const weeks = await songs<{ data: string[] }>({ action: 'weeks', country_code: 'US' });
    expect(weeks.json.response.data).toHaveLength(12);
    const ranges = await songs<{ data: { week: string; start_date: string; end_date: string }[] }>({
      action: 'date-ranges',
    });
    expect(ranges.json.response.data[0]).toEqual({
      week: weeks.json.response.data[0],
      start_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      end_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('answers rankings with the documented items, latest week by default', async () => {
    const weeks = (await songs<{ data: string[] }>({ action: 'weeks' })).json.response.data;
    const latest = await songs<{ week: string; data: ChartEntry[] }>({ action: 'rankings', country: 'GB' });
    expect(latest.json.response.week).toBe(weeks[0]);
    const entry = latest.json.response.data[0] as ChartEntry;
    expect(Object.keys(entry).sort()).toEqual(
      ['artist', 'id', 'peak_rank', 'previous_rank', 'rank', 'title', 'weeks_on_chart'].sort(),
    );
    const older = await songs<{ week: string; data: ChartEntry[] }>({
      action: 'rankings',
      country: 'gb',
      week: weeks[1] as string,
    });
    expect(older.json.response.week).toBe(weeks[1]);
    const previous = new Map(older.json.response.data.map((e) => [e.id, e.rank]));
    for (const e of latest.json.response.data) expect(e.previous_rank).toBe(previous.get(e.id) ?? null);
    const global = await songs<{ data: ChartEntry[] }>({ action: 'global' });
    expect(global.json.response.data.length).toBe(50);
  });

  it('follows a song across weeks with song-history, search and compare', async () => {
    const chart = (await songs<{ data: ChartEntry[] }>({ action: 'rankings', country: 'US' })).json.response
      .data;
    const song = chart.find((e) => e.weeks_on_chart > 2) as ChartEntry;
    const history = await songs<{ data: { week: string; rank: number }[]; peak_rank: number }>({
      action: 'song-history',
      song_id: song.id,
      country_code: 'US',
    });
    expect(history.json.response.data).toHaveLength(song.weeks_on_chart);
    expect(history.json.response.peak_rank).toBe(song.peak_rank);
    const found = await songs<{ data: { id: string }[] }>({ action: 'search', q: song.title.toLowerCase() });
    expect(found.json.response.data.map((s) => s.id)).toContain(song.id);
    const [w2, w1] = (await songs<{ data: string[] }>({ action: 'weeks' })).json.response.data as [
      string,
      string,
    ];
    const compare = await songs<{
      data: { id: string; rank_week1: number | null; rank_week2: number | null }[];
    }>({
      action: 'compare',
      country: 'US',
      week1: w1,
      week2: w2,
    });
    const row = compare.json.response.data.find((r) => r.id === song.id);
    expect(row?.rank_week2).toBe(song.rank);
    expect(row?.rank_week1).toBe(song.previous_rank);
    const fresh = await songs<{ data: ChartEntry[] }>({ action: 'new-entries', country: 'US' });
    expect(fresh.json.response.data.every((e) => e.previous_rank === null && e.weeks_on_chart === 1)).toBe(
      true,
    );
  });

  it.each([
    [{}, 'action'],
    [{ action: 'top' }, 'action'],
    [{ action: 'rankings' }, 'country'],
    [{ action: 'rankings', country: 'USA' }, 'country'],
    [{ action: 'rankings', country: 'ZZ' }, 'ZZ'],
    [{ action: 'rankings', country: 'US', week: '2020-W01' }, 'week'],
    [{ action: 'search' }, 'q'],
    [{ action: 'song-history', country_code: 'US' }, 'song_id'],
    [{ action: 'compare', country: 'US', week1: '2026-W01' }, 'week2'],
  ])('answers 400 shape C without charging for %j', async (query, text) => {
    const before = sandbox.credits(KEY);
    const answer = await songs(query);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: expect.stringContaining(text) });
    expect(sandbox.credits(KEY)).toBe(before);
  });
});

describe('songs priced otherwise', () => {
  it('charges and reports in credits_used the price it was given', async () => {
    const priced = await startSandbox({
      keys: [{ key: 'priced-key', teamId: 't', credits: 100 }],
      songRequestCredits: 3,
    });
    try {
      const answer = await clientFor(priced, 'priced-key').get<SongsBody>('/api/v1/songs', {
        action: 'countries',
      });
      expect(answer.json).toMatchObject({ action: 'countries', credits_used: 3 });
      expect(priced.credits('priced-key')).toBe(97);
    } finally {
      await priced.stop();
    }
    await expect(startSandbox({ songRequestCredits: -1 })).rejects.toThrow(/songRequestCredits/);
  });
});
