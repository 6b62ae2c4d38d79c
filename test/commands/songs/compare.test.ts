/** `songs compare`: the latest two weeks by default, the movers first, the week list kept, weeks by their dates. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsFamily } from '../../../src/commands/credits.js';
import { songsFamily } from '../../../src/commands/songs.js';
import { createManualClock } from '../../../src/core/clock.js';
import { sql } from '../../../src/core/store/sql.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';
import { chartRows, type DateRange, dayWords, direct, weekWords } from './world.js';

describe('songs compare', () => {
  let c: Harness;
  const clock = createManualClock(Date.now());
  const compareRequests = () => c.requests().filter((r) => r.path === '/api/v1/songs');
  let latest: DateRange;
  let before: DateRange;
  let sandboxCompare: CompareAnswer;

  interface CompareRow {
    id: string;
    title: string;
    artist: string;
    rank_week1: number | null;
    rank_week2: number | null;
  }
  interface CompareAnswer {
    new_entries: number;
    dropped: number;
    data: CompareRow[];
  }

  /** Runs a line; the songs queries it sent and the credits it spent. */
  async function typed(line: string) {
    const calls = compareRequests().length;
    const spent = await c.spentToday();
    const output = await c.type(line);
    return {
      output,
      queries: compareRequests()
        .slice(calls)
        .map((r) => r.query),
      spent: (await c.spentToday()) - spent,
    };
  }

  const ledgerRows = (count: number) =>
    c.app.store.db.all(
      sql`SELECT operation, command, credits FROM credit_ledger ORDER BY id DESC LIMIT ${count}`,
    );

  beforeAll(async () => {
    c = await startHarness({ families: [songsFamily, creditsFamily], clock });
    const listed = (await direct<{ data: DateRange[] }>(c, { action: 'date-ranges' })).data;
    [latest, before] = listed as [DateRange, DateRange];
    sandboxCompare = await direct<CompareAnswer>(c, {
      action: 'compare',
      country: 'US',
      week1: before.week,
      week2: latest.week,
    });
  });

  afterAll(async () => {
    await c.stop();
  });

  it('estimates the week list too when it is not known: a cap short of 20 credits refuses, nothing sent', async () => {
    await c.type(`credits cap me ${(await c.spentToday()) + 15}`);
    const { output, queries } = await typed('songs compare US');
    expect(output).toContain('This needs up to 20 credits');
    expect(queries).toEqual([]);
    await c.type('credits cap me off');
  });

  it('without weeks compares the latest two: one week list, one comparison, 10 credits each in the ledger', async () => {
    const { output, queries, spent } = await typed('songs compare US');
    expect(queries).toEqual([
      { action: 'date-ranges' },
      { action: 'compare', country: 'US', week1: before.week, week2: latest.week },
    ]);
    expect(spent).toBe(20);
    expect(await ledgerRows(2)).toEqual([
      { operation: 'songs.query', command: 'songs compare', credits: 10 },
      { operation: 'songs.query', command: 'songs compare', credits: 10 },
    ]);
    expect(output).toMatch(/^20 credits$/m);
    expect(output).toContain(`Chart changes · United States · ${weekWords(before)} → ${weekWords(latest)}`);
    expect(output).not.toMatch(/\d{4}-W\d{2}/);
  });

  it('leads with the biggest movers, new entries and drop-outs of the sandbox chart, then the chart as a table', async () => {
    const output = await c.type(`songs compare US week1:${before.week} week2:${latest.week}`);
    const rows = sandboxCompare.data;
    const name = (row: CompareRow) => `${row.title} — ${row.artist}`;
    const places = (row: CompareRow) => (row.rank_week1 ?? 0) - (row.rank_week2 ?? 0);
    const both = rows.filter((row) => row.rank_week1 !== null && row.rank_week2 !== null);
    const now = (a: CompareRow, b: CompareRow) => (a.rank_week2 ?? 0) - (b.rank_week2 ?? 0);
    const up = both.filter((row) => places(row) > 0).sort((a, b) => places(b) - places(a) || now(a, b));
    const down = both.filter((row) => places(row) < 0).sort((a, b) => places(a) - places(b) || now(a, b));
    const move = (row: CompareRow, arrow: string) =>
      `${name(row)} ${arrow}${Math.abs(places(row))}, #${row.rank_week1} → #${row.rank_week2}`;
    expect(up.length).toBeGreaterThan(0);
    expect(down.length).toBeGreaterThan(0);
    expect(output).toContain(
      `Biggest climbers: ${up
        .slice(0, 3)
        .map((row) => move(row, '▲'))
        .join(' · ')}\n`,
    );
    expect(output).toContain(
      `Biggest falls: ${down
        .slice(0, 3)
        .map((row) => move(row, '▼'))
        .join(' · ')}\n`,
    );

    const entered = rows.filter((row) => row.rank_week1 === null).sort(now);
    const dropped = rows
      .filter((row) => row.rank_week2 === null)
      .sort((a, b) => (a.rank_week1 ?? 0) - (b.rank_week1 ?? 0));
    expect(entered).toHaveLength(sandboxCompare.new_entries);
    expect(dropped).toHaveLength(sandboxCompare.dropped);
    const newLine = new RegExp(`^New entries \\(${entered.length}\\): (.+)$`, 'm').exec(
      output,
    )?.[1] as string;
    expect(
      newLine.startsWith(
        entered
          .slice(0, 5)
          .map((row) => `${name(row)} at #${row.rank_week2}`)
          .join(' · '),
      ),
    ).toBe(true);
    const outLine = new RegExp(`^Dropped out \\(${dropped.length}\\): (.+)$`, 'm').exec(
      output,
    )?.[1] as string;
    expect(
      outLine.startsWith(
        dropped
          .slice(0, 5)
          .map((row) => `${name(row)}, was #${row.rank_week1}`)
          .join(' · '),
      ),
    ).toBe(true);

    // The movers come before the table, whose caption names the later week.
    expect(output.indexOf('Dropped out')).toBeLessThan(
      output.indexOf(`United States chart, ${weekWords(latest)}:`),
    );
    expect(output).toMatch(/^\s*# {2}Song +Artist +Change +Earlier week$/m);
    const table = chartRows(output);
    expect(table).toHaveLength(20);
    const top = [...rows].filter((row) => row.rank_week2 !== null).sort(now)[0] as CompareRow;
    expect(table[0]?.slice(0, 3)).toEqual(['#1', top.title, top.artist]);
  });

  it('keeps the week list: comparing another country asks for no week list and costs 10', async () => {
    const { queries, spent, output } = await typed('songs compare GB');
    expect(queries).toEqual([{ action: 'compare', country: 'GB', week1: before.week, week2: latest.week }]);
    expect(spent).toBe(10);
    expect(output).toMatch(/^10 credits$/m);
  });

  it('asks for the week list again once it is an hour old', async () => {
    clock.advance(59 * 60 * 1000);
    expect((await typed('songs compare DE')).queries.map((q) => q.action)).toEqual(['compare']);
    clock.advance(2 * 60 * 1000);
    const { queries, spent } = await typed('songs compare FR');
    expect(queries.map((q) => q.action)).toEqual(['date-ranges', 'compare']);
    expect(spent).toBe(20);
  });

  it('takes weeks by id or by a date in them, without the week list', async () => {
    const listed = (await direct<{ data: DateRange[] }>(c, { action: 'date-ranges' })).data;
    const [, , third, fourth] = listed as DateRange[];
    const week1 = fourth as DateRange;
    const week2 = third as DateRange;
    const { output, queries, spent } = await typed(
      `songs compare JP week1:${week1.end_date} week2:"${dayWords(week2.start_date)}"`,
    );
    expect(queries).toEqual([{ action: 'compare', country: 'JP', week1: week1.week, week2: week2.week }]);
    expect(spent).toBe(10);
    expect(output).toContain(`Chart changes · Japan · ${weekWords(week1)} → ${weekWords(week2)}`);
    // Only the later week given: the earlier is the week before it.
    const later = await typed(`songs compare KR later:${week2.week}`);
    expect(later.queries).toEqual([
      { action: 'compare', country: 'KR', week1: week1.week, week2: week2.week },
    ]);
  });

  it('refuses weeks the wrong way round or the same week twice, sending and spending nothing', async () => {
    const wrong = await typed('songs compare FR week1:2026-W47 week2:2026-W46');
    expect(wrong.output).toMatch(
      /^Error: week1 \(.+\) and week2 \(.+\) are the wrong way round: week1 is the earlier week\./,
    );
    const same = await typed('songs compare FR week1:2026-W47 week2:2026-W47');
    expect(same.output).toMatch(/are the same week/);
    expect([...wrong.queries, ...same.queries]).toEqual([]);
    expect(wrong.spent + same.spent).toBe(0);
  });

  it('offers other weeks to compare, by their dates, and compares the one chosen', async () => {
    const listed = (await direct<{ data: DateRange[] }>(c, { action: 'date-ranges' })).data;
    const output = await c.type('songs compare CA');
    const menu = new RegExp(
      `\\[(\\d+)\\] Compare the ${weekWords(latest)} with another week \\(10 credits\\)`,
    ).exec(output)?.[1];
    expect(menu).toBeDefined();
    const choices = output.split('\n').filter((line) => line.startsWith(`    ${menu}.`));
    expect(choices.map((line) => line.replace(/^\s+\d+\.\d+ /, ''))).toEqual(listed.slice(2).map(weekWords));
    const { queries, spent } = await typed(`${menu}.2`);
    expect(queries).toEqual([
      { action: 'compare', country: 'CA', week1: (listed[3] as DateRange).week, week2: latest.week },
    ]);
    expect(spent).toBe(10);
  });

  it('reads a comparison it was never shown: movers by places, ties by rank now, drop-outs last in the table', async () => {
    const entry = (id: string, title: string, a: number | null, b: number | null) => ({
      id,
      title,
      artist: title.slice(0, 1),
      rank_week1: a,
      rank_week2: b,
    });
    c.sandbox.injectFaults(TEST_KEY, {
      kind: 'error-shape',
      status: 200,
      body: {
        message: 'OK',
        action: 'compare',
        credits_used: 10,
        response: {
          data: [
            entry('s1', 'Alpha', 10, 2),
            entry('s2', 'Beta', 5, 1),
            entry('s3', 'Gamma', 9, 5),
            entry('s4', 'Delta', 7, 6),
            entry('s5', 'Epsilon', 1, 9),
            entry('s6', 'Zeta', 3, 3),
            entry('s7', 'Eta', null, 4),
            entry('s8', 'Theta', 2, null),
          ],
        },
      },
    });
    const output = await c.type(`songs compare MX week1:${before.week} week2:${latest.week}`);
    expect(output).toContain(
      'Biggest climbers: Alpha — A ▲8, #10 → #2 · Beta — B ▲4, #5 → #1 · Gamma — G ▲4, #9 → #5\n',
    );
    expect(output).toContain('Biggest falls: Epsilon — E ▼8, #1 → #9\n');
    expect(output).toContain('New entries (1): Eta — E at #4\n');
    expect(output).toContain('Dropped out (1): Theta — T, was #2\n');
    expect(chartRows(output)).toEqual([
      ['#1', 'Beta', 'B', '▲4', '#5'],
      ['#2', 'Alpha', 'A', '▲8', '#10'],
      ['#3', 'Zeta', 'Z', '=', '#3'],
      ['#4', 'Eta', 'E', 'new', '—'],
      ['#5', 'Gamma', 'G', '▲4', '#9'],
      ['#6', 'Delta', 'D', '▲1', '#7'],
      ['#9', 'Epsilon', 'E', '▼8', '#1'],
      ['out', 'Theta', 'T', 'out', '#2'],
    ]);

    c.sandbox.injectFaults(TEST_KEY, {
      kind: 'error-shape',
      status: 200,
      body: {
        message: 'OK',
        action: 'compare',
        credits_used: 10,
        response: { data: ['first line', 'second line'] },
      },
    });
    const odd = await c.type(`songs compare ES week1:${before.week} week2:${latest.week}`);
    expect(odd).toContain(`Chart changes · Spain · ${weekWords(before)} → ${weekWords(latest)}`);
    expect(odd).toMatch(/^first line\nsecond line$/m);
  });
});
