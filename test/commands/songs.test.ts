import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsFamily } from '../../src/commands/credits.js';
import { songsFamily } from '../../src/commands/songs.js';
import { sql } from '../../src/core/store/sql.js';
import { callback, KEY, slash } from '../adapters/discord/harness.js';
import { discordBot } from '../helpers/discord-command.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';
import { chartRows, type DateRange, dayWords, direct, weekWords } from './songs/world.js';

let h: Harness;
/** The sandbox's chart weeks, newest first, with their dates. */
let weeks: string[] = [];
let ranges: DateRange[] = [];

const rangeOf = (week: string) => ranges.find((r) => r.week === week) as DateRange;

const songRequests = () => h.requests().filter((r) => r.path === '/api/v1/songs');

const lastRow = () =>
  h.app.store.db.one(
    sql`SELECT operation, command, units, credits FROM credit_ledger ORDER BY id DESC LIMIT 1`,
  );

/** Runs a paid songs command and checks it made one request costing 10 credits. */
async function paid(line: string, query: Record<string, string>): Promise<string> {
  const calls = songRequests().length;
  const spent = await h.spentToday();
  const output = await h.type(line);
  expect(songRequests().length).toBe(calls + 1);
  expect(songRequests().at(-1)?.query).toEqual(query);
  expect(await h.spentToday()).toBe(spent + 10);
  expect(output).toMatch(/^10 credits$/m);
  return output;
}

async function rejected(line: string): Promise<string> {
  const before = h.requests().length;
  const spent = await h.spentToday();
  const output = await h.type(line);
  expect(h.requests().length).toBe(before);
  expect(await h.spentToday()).toBe(spent);
  expect(output).toMatch(/^Error:/);
  return output;
}

/** Makes the next service answer a 200 with this songs body. */
function nextAnswer(action: string, response: unknown): void {
  h.sandbox.injectFaults(TEST_KEY, {
    kind: 'error-shape',
    status: 200,
    body: { message: 'OK', action, credits_used: 10, response },
  });
}

beforeAll(async () => {
  h = await startHarness({ families: [songsFamily, creditsFamily] });
  ranges = (await direct<{ data: DateRange[] }>(h, { action: 'date-ranges' })).data;
  weeks = ranges.map((r) => r.week);
});

afterAll(async () => {
  await h.stop();
});

describe('songs', () => {
  it('countries: lists chart countries, 10 credits in the ledger, once for a repeated command', async () => {
    const balance = h.sandbox.credits(TEST_KEY);
    const output = await paid('/scout songs countries', { action: 'countries' });
    expect(output).toContain('Countries with song charts');
    expect(output).toContain('United States · code US');
    expect(await lastRow()).toEqual({
      operation: 'songs.query',
      command: 'songs countries',
      units: 1,
      credits: 10,
    });
    expect(h.sandbox.credits(TEST_KEY)).toBe(balance - 10);
    const calls = songRequests().length;
    const spent = await h.spentToday();
    await h.type('songs countries');
    expect(songRequests().length).toBe(calls);
    expect(await h.spentToday()).toBe(spent);
  });

  it('weeks: sends country_code, upper-cased; names each week by its dates, newest first', async () => {
    const output = await paid('songs weeks country:gb', { action: 'weeks', country_code: 'GB' });
    expect(output).toContain('Chart weeks · United Kingdom');
    const named = output.split('\n').filter((line) => line.startsWith('week of '));
    expect(named).toEqual(ranges.map(weekWords));
    // A week option takes any date in the week, so its code is never needed.
    expect(output).not.toMatch(/\d{4}-W\d{2}/);
  });

  it('date-ranges: shows each week by its dates', async () => {
    const output = await paid('songs date-ranges', { action: 'date-ranges' });
    expect(output).toContain(`${weekWords(ranges[0] as DateRange)}\n${weekWords(ranges[1] as DateRange)}`);
    expect(output).not.toMatch(/\d{4}-W\d{2}|start date/);
  });

  it('rankings: a table of rank, song, artist, movement, last week, weeks and peak, paged for free', async () => {
    const chart = await direct<{ data: Array<Record<string, unknown>> }>(h, {
      action: 'rankings',
      country: 'US',
    });
    const output = await paid('songs rankings country:us', { action: 'rankings', country: 'US' });
    expect(output).toContain(`Song chart · United States · ${weekWords(ranges[0] as DateRange)}`);
    expect(output).toMatch(/^\s*# {2}Song +Artist +Move +Last week +Weeks +Peak$/m);
    expect(output).toMatch(/^─+( {2}─+){6}$/m);
    const rows = chartRows(output);
    expect(rows).toHaveLength(20);
    const first = chart.data[0] as Record<string, unknown>;
    expect(rows[0]).toEqual([
      '#1',
      first.title,
      first.artist,
      expect.stringMatching(/^(new|re-entry|[▲▼]\d+|=)$/),
      first.previous_rank === null ? '—' : `#${first.previous_rank}`,
      String(first.weeks_on_chart),
      `#${first.peak_rank}`,
    ]);
    expect(output).toContain('50 lines · Page 1 of 3');

    const calls = songRequests().length;
    const spent = await h.spentToday();
    const second = await h.type('next');
    expect(chartRows(second)[0]?.[0]).toBe('#21');
    const back = await h.type('previous');
    expect(chartRows(back)).toEqual(rows);
    expect(songRequests().length).toBe(calls);
    expect(await h.spentToday()).toBe(spent);

    const menu = /\[(\d+)\] Chart history in United States \(10 credits\)/.exec(back)?.[1];
    const third = chart.data[2] as { id: string; title: string; artist: string };
    const history = await paid(`${menu}.3`, {
      action: 'song-history',
      song_id: third.id,
      country_code: 'US',
    });
    expect(history).toContain(`Chart history of ${third.title} — ${third.artist} · United States`);
    expect(history).toMatch(/^Week +Rank$/m);
    expect(history).toMatch(/^\d{1,2}(–| \w{3} – )\d{1,2} \w{3} \d{4} +#\d+$/m);
    expect(history).not.toMatch(/\d{4}-W\d{2}/);
    expect(await lastRow()).toEqual({
      operation: 'songs.query',
      command: 'songs rankings',
      units: 1,
      credits: 10,
    });
  });

  it('rankings is the default and takes a week, by id or by a date in it', async () => {
    const week = weeks[1] as string;
    const output = await paid(`songs de week:${week.toLowerCase()}`, {
      action: 'rankings',
      country: 'DE',
      week,
    });
    expect(output).toContain(`Song chart · Germany · ${weekWords(rangeOf(week))}`);
    const range = rangeOf(weeks[2] as string);
    await paid(`songs rankings FR week:${range.end_date}`, {
      action: 'rankings',
      country: 'FR',
      week: range.week,
    });
    const spoken = await paid(`songs rankings FR week:"${dayWords(range.start_date)}"`, {
      action: 'rankings',
      country: 'FR',
      week: range.week,
    });
    expect(spoken).toContain(`Song chart · France · ${weekWords(range)}`);
  });

  it('global: the global chart of a week, as a table', async () => {
    const week = weeks[0] as string;
    const output = await paid(`songs global week:${week}`, { action: 'global', week });
    expect(chartRows(output)[0]?.[0]).toBe('#1');
    expect(output).not.toContain('Chart history');
  });

  it('new-entries: songs new this week, as a table', async () => {
    const output = await paid('songs new-entries US', { action: 'new-entries', country: 'US' });
    expect(output).toContain('New chart entries · United States');
    const rows = chartRows(output);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect([row[3], row[4], row[5]]).toEqual(['new', '—', '1']);
  });

  it('search: by q or by bare words', async () => {
    const output = await paid('songs search q:golden', { action: 'search', q: 'golden' });
    expect(output).toMatch(/Golden.* · id song_\w+ · countries /);
    await paid('songs search golden hour', { action: 'search', q: 'golden hour' });
  });

  it('history and compare by command', async () => {
    const search = await h.type('songs search q:moon');
    const id = /id (song_\w+)/.exec(search)?.[1] as string;
    const history = await paid(`songs history ${id} country:US`, {
      action: 'song-history',
      song_id: id,
      country_code: 'US',
    });
    expect(history).toMatch(/Chart history of .+ — .+ · United States/);
    const [second, first] = weeks as [string, string];
    const compare = await paid(`songs compare US week1:${first} week2:${second}`, {
      action: 'compare',
      country: 'US',
      week1: first,
      week2: second,
    });
    expect(compare).toContain(
      `Chart changes · United States · ${weekWords(rangeOf(first))} → ${weekWords(rangeOf(second))}`,
    );
    expect(compare).toMatch(/^\s*# {2}Song +Artist +Change +Earlier week$/m);
  });

  it('renders shapes nobody documented without crashing', async () => {
    nextAnswer('global', { weird: { nested: [1, { a: 2 }] }, list: [[1, 2], { x: null }, 'text'], n: 5 });
    const mixed = await h.type('songs global week:2026-W10');
    expect(mixed).toContain('Weird: {"nested":[1,{"a":2}]}');
    expect(mixed).toContain('N: 5');
    expect(mixed).toMatch(/^1, 2\nx —\ntext$/m);

    nextAnswer('new-entries', 'just a string');
    expect(await h.type('songs new-entries GB')).toContain('Data: just a string');

    nextAnswer('weeks', {});
    const empty = await h.type('songs weeks FR');
    expect(empty).toContain('Response:\n{}');

    nextAnswer('search', [3, 1, 2]);
    expect(await h.type('songs search q:anything')).toMatch(/^3\n1\n2$/m);

    nextAnswer('new-entries', { data: Array.from({ length: 250 }, (_, i) => `line ${i + 1}`) });
    const long = await h.type('songs new-entries KR');
    expect(long).toContain('Only the first 200 lines are shown; 50 more were not.');
    expect(long).toContain('200 lines · Page 1 of 10');
    expect(long).toMatch(/^line 20$/m);
    expect(long).not.toMatch(/^line 21$/m);

    nextAnswer('rankings', { data: [{ a: { b: { c: { d: [1, 2] } } } }] });
    expect(await h.type('songs rankings JP')).toContain('a {"b":{"c":{"d":[1,2]}}}');
  });

  it('declares each action once, with a short description, examples and its price', () => {
    expect(songsFamily.commands.map((c) => c.name)).toEqual([
      'countries',
      'weeks',
      'date-ranges',
      'rankings',
      'global',
      'new-entries',
      'search',
      'history',
      'compare',
    ]);
    for (const command of songsFamily.commands) {
      expect(command.description.length).toBeLessThanOrEqual(100);
      expect(command.examples.length).toBeGreaterThan(0);
      expect(command.cost).toMatch(/^10 credits/);
    }
    const compare = songsFamily.commands.find((c) => c.name === 'compare');
    expect(compare?.cost).toBe(
      '10 credits; 10 more when the latest weeks must be looked up (kept for an hour)',
    );
  });

  it('checks the daily cap against 10 credits before sending', async () => {
    await h.type(`credits cap me ${(await h.spentToday()) + 9}`);
    const calls = h.requests().length;
    expect(await h.type('songs global week:2026-W11')).toContain('This needs up to 10 credits');
    expect(h.requests().length).toBe(calls);
    await h.type(`credits cap me ${(await h.spentToday()) + 10}`);
    await paid('songs rankings FR', { action: 'rankings', country: 'FR' });
    await h.type('credits cap me off');
  });

  it('rejects bad input to its author without calling the service', async () => {
    expect(await rejected('songs rankings USA')).toContain('two-letter country code');
    expect(await rejected('songs rankings US week:2026-W60')).toContain('week');
    expect(await rejected('songs rankings US week:someday')).toContain('a date in it');
    expect(await rejected('songs rankings US week:2026-02-30')).toContain('a date in it');
    expect(await rejected('songs rankings')).toContain('country is required');
    expect(await rejected('songs weeks')).toContain('country is required');
    expect(await rejected('songs new-entries 12')).toContain('two-letter country code');
    expect(await rejected('songs compare US week1:banana')).toContain('week1');
    expect(await rejected('songs compare week2:2026-W04')).toContain('country is required');
    expect(await rejected('songs search')).toContain(
      'Error: Type what to look for, e.g. /scout songs search q:"midnight".',
    );
    expect(await rejected('songs history country:US')).toContain('Error: song is required, e.g. song:');
    expect(await rejected('songs history song_1 country:U')).toContain('two-letter country code');
    expect(await rejected('songs global country:US')).toContain('Unknown option "country"');
  });

  it('points to the command where the service points to its own action', async () => {
    const noChart = await h.type('songs rankings US week:2001-W05');
    expect(noChart).toContain('No chart for week 2001-W05; see /scout songs weeks.');
    const noCountry = await h.type('songs rankings ZZ');
    expect(noCountry).toContain('see /scout songs countries.');
    expect(`${noChart}${noCountry}`).not.toContain('action=');
  });
});

describe('songs search on Discord, whose q option is one string', () => {
  const discord = discordBot();

  /** Runs `/scout songs search` with these options; the answer's JSON and the songs queries it made. */
  async function search(options: Array<Record<string, unknown>>) {
    const { answer, sent } = await discord.run('songs', 'search', options);
    return { answer, queries: sent.filter((r) => r.path === '/api/v1/songs').map((r) => r.query) };
  }

  it('searches the words of q, spaces and all', async () => {
    const { answer, queries } = await search([{ type: 3, name: 'q', value: '  golden hour ' }]);
    expect(queries).toEqual([{ action: 'search', q: 'golden hour' }]);
    expect(answer).toContain('Songs matching “golden hour”');
    expect(answer).toContain('"10 credits"');
  });

  it('compares the latest two weeks with the country alone, the chart as aligned text, weeks by their dates', async () => {
    const { answer, sent } = await discord.run('songs', 'compare', [
      { type: 3, name: 'country', value: 'US' },
    ]);
    expect(sent.map((r) => r.query.action)).toEqual(['date-ranges', 'compare']);
    expect(answer).toMatch(/Biggest climbers/);
    expect(answer).toMatch(/# {2}Song +Artist +Change +Earlier week/);
    expect(answer).toMatch(/week of \d{1,2}/);
    // A menu's values are what a choice sends back, never shown.
    expect(answer.replace(/"value":"[^"]*"/g, '')).not.toMatch(/\d{4}-W\d{2}/);
    expect(answer).toContain('"20 credits"');
  });

  it('opens its form when q is left out, without calling the service', async () => {
    const { fake, sandbox } = discord.world;
    const before = sandbox.requests(KEY).length;
    const call = slash(fake, 'songs', 'search', []);
    const shown = await fake.waitFor(callback(call.id), 'the form');
    // A modal whose one field asks what to look for.
    expect(shown.body).toMatchObject({ type: 9 });
    expect(JSON.stringify(shown.body)).toContain('"custom_id":"q"');
    expect(sandbox.requests(KEY).slice(before)).toEqual([]);
  });
});
