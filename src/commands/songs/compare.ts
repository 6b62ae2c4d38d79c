/**
 * `songs compare`: how a country's chart changed between two weeks, the latest two unless a person names them
 * (by id or by a date in the week). The answer leads with the biggest movers up and down, the new entries and
 * the drop-outs, then the second week's chart as a table (drop-outs last), with a menu of other weeks to compare.
 */
import { CommandInputError } from '../../core/command/errors.js';
import type { CommandContext } from '../../core/command/types.js';
import type { SongsResult } from '../../core/service/index.js';
import { notice, numberCell, type Reply, reply, SELECT_OPTIONS_MAX } from '../../core/ui/index.js';
import { describe, rankOf, songIdOf, songOf } from './charts.js';
import { countryName, ROWS_KEPT, rankCell, type StoredView, view } from './view.js';
import { chartWeeks, knownWeeks } from './week-list.js';
import { type ChartWeek, nameOfWeek, readWeek, weekBefore } from './weeks.js';

/** A song in one or both weeks compared: its ranks, null where it was not on the chart. */
export interface Move {
  readonly songId: string | null;
  readonly name: string;
  readonly title: string;
  readonly artist: string;
  readonly before: number | null;
  readonly after: number | null;
}

/** Movers named in each lead line. */
const MOVERS_SHOWN = 3;
/** New entries and drop-outs named before "and n more". */
const LISTED_SHOWN = 5;

const BEFORE_KEYS = [
  'rank_week1',
  'week1_rank',
  'rank1',
  'first_rank',
  'rank_first',
  'rank_before',
  'previous_rank',
];
const AFTER_KEYS = [
  'rank_week2',
  'week2_rank',
  'rank2',
  'second_rank',
  'rank_second',
  'rank_after',
  'current_rank',
  'rank',
];

const firstRank = (item: Record<string, unknown>, keys: readonly string[]) => {
  for (const key of keys) if (key in item) return { found: true, rank: rankOf(item[key]) };
  return { found: false, rank: null };
};

/** The songs of a comparison with their ranks in each week; null when the answer does not read that way. */
export function readMoves(result: SongsResult): Move[] | null {
  const items = result.data.filter(
    (item): item is Record<string, unknown> =>
      typeof item === 'object' && item !== null && !Array.isArray(item),
  );
  if (items.length === 0 || items.length !== result.data.length) return null;
  const moves: Move[] = [];
  for (const item of items) {
    const before = firstRank(item, BEFORE_KEYS);
    const after = firstRank(item, AFTER_KEYS);
    if (!before.found || !after.found || (before.rank === null && after.rank === null)) return null;
    moves.push({ songId: songIdOf(item), ...songOf(item), before: before.rank, after: after.rank });
  }
  return moves;
}

const change = (move: Move) => (move.before ?? 0) - (move.after ?? 0);
const both = (move: Move) => move.before !== null && move.after !== null;

/** The biggest climbers and fallers (by places, then by rank now), new entries and drop-outs. */
export function movers(moves: readonly Move[]) {
  const byRankNow = (a: Move, b: Move) => (a.after ?? 0) - (b.after ?? 0);
  return {
    up: moves
      .filter((m) => both(m) && change(m) > 0)
      .sort((a, b) => change(b) - change(a) || byRankNow(a, b)),
    down: moves
      .filter((m) => both(m) && change(m) < 0)
      .sort((a, b) => change(a) - change(b) || byRankNow(a, b)),
    entered: moves.filter((m) => m.before === null && m.after !== null).sort(byRankNow),
    dropped: moves
      .filter((m) => m.before !== null && m.after === null)
      .sort((a, b) => (a.before ?? 0) - (b.before ?? 0)),
  };
}

const listed = (items: readonly string[], shown: number) =>
  items.length > shown
    ? `${items.slice(0, shown).join(' · ')} and ${items.length - shown} more`
    : items.join(' · ');

/** The lines that lead a comparison: the biggest movers each way, then every new entry and drop-out, counted. */
export function leadLines(moves: readonly Move[]): StoredView['lead'] {
  const { up, down, entered, dropped } = movers(moves);
  const moved = (m: Move, arrow: string) =>
    `${m.name} ${arrow}${Math.abs(change(m))}, #${m.before} → #${m.after}`;
  const none = (items: readonly Move[], words: string) => (items.length === 0 ? words : null);
  return [
    {
      label: 'Biggest climbers',
      text:
        none(up, 'none') ??
        up
          .slice(0, MOVERS_SHOWN)
          .map((m) => moved(m, '▲'))
          .join(' · '),
    },
    {
      label: 'Biggest falls',
      text:
        none(down, 'none') ??
        down
          .slice(0, MOVERS_SHOWN)
          .map((m) => moved(m, '▼'))
          .join(' · '),
    },
    {
      label: `New entries (${entered.length})`,
      text:
        none(entered, 'none') ??
        listed(
          entered.map((m) => `${m.name} at #${m.after}`),
          LISTED_SHOWN,
        ),
    },
    {
      label: `Dropped out (${dropped.length})`,
      text:
        none(dropped, 'none') ??
        listed(
          dropped.map((m) => `${m.name}, was #${m.before}`),
          LISTED_SHOWN,
        ),
    },
  ];
}

const COLUMNS = [
  { label: '#', numeric: true },
  { label: 'Song', numeric: false },
  { label: 'Artist', numeric: false },
  { label: 'Change', numeric: true },
  { label: 'Earlier week', numeric: true },
];

/** The second week's chart, then the songs that dropped out of it, as table rows. */
function tableRows(moves: readonly Move[]): StoredView['rows'] {
  const { dropped } = movers(moves);
  const charted = moves.filter((m) => m.after !== null).sort((a, b) => (a.after ?? 0) - (b.after ?? 0));
  const changeCell = (m: Move) => {
    if (m.after === null) return numberCell('out', null);
    if (m.before === null) return numberCell('new', null);
    const places = change(m);
    return numberCell(places > 0 ? `▲${places}` : places < 0 ? `▼${-places}` : '=', places);
  };
  return [...charted, ...dropped].map((m) => ({
    cells: [
      m.after === null ? numberCell('out', null) : rankCell(m.after),
      m.title,
      m.artist,
      changeCell(m),
      rankCell(m.before),
    ],
    songId: m.songId,
    label: m.name,
  }));
}

/** The two weeks compared: the ones given, else the latest two (from the account's week list). */
export async function weeksToCompare(
  ctx: CommandContext,
  given: { first: string | undefined; second: string | undefined },
): Promise<{ first: string; second: string } | { missing: string }> {
  const now = ctx.clock.now();
  const first = given.first === undefined ? null : readWeek(given.first, now);
  const second = given.second === undefined ? null : readWeek(given.second, now);
  if (first !== null && second !== null) {
    if (first >= second) {
      const said = first === second ? 'are the same week' : 'are the wrong way round';
      throw new CommandInputError(
        `week1 (${nameOfWeek(first)}) and week2 (${nameOfWeek(second)}) ${said}: week1 is the earlier week.`,
      );
    }
    return { first, second };
  }
  if (second !== null) {
    const listed = knownWeeks(ctx)?.find((week) => week.id < second)?.id;
    return { first: listed ?? (weekBefore(second) as string), second };
  }
  const { weeks } = await chartWeeks(ctx);
  const [latest, previous] = weeks;
  if (latest === undefined || (first === null && previous === undefined)) {
    return {
      missing: 'The service lists fewer than two chart weeks, so there is nothing to compare yet.',
    };
  }
  return { first: first ?? (previous as ChartWeek).id, second: latest.id };
}

/** The estimate of a comparison: the list of weeks too when it is needed and not known. */
export function compareEstimate(
  ctx: CommandContext,
  given: { second: string | undefined },
  perRequest: number,
): number {
  return given.second === undefined && knownWeeks(ctx) === null ? 2 * perRequest : perRequest;
}

/** Compares a country's chart between two weeks and shows the movers, then the chart. */
export async function runCompare(
  ctx: CommandContext,
  input: { country: string; week1?: string | undefined; week2?: string | undefined },
): Promise<Reply> {
  const weeks = await weeksToCompare(ctx, { first: input.week1, second: input.week2 });
  if ('missing' in weeks) {
    return reply([notice('info', weeks.missing)]);
  }
  return compareWeeks(ctx, input.country, weeks.first, weeks.second);
}

/** The weeks before the second one (the first aside) to compare it with instead, when the week list is known. */
function otherWeeks(
  known: readonly ChartWeek[],
  country: string,
  first: string,
  second: string,
): StoredView['compare'] {
  const others = known.filter((week) => week.id < second && week.id !== first).slice(0, SELECT_OPTIONS_MAX);
  if (others.length === 0) return null;
  const weeks = others.map((week) => ({ id: week.id, name: nameOfWeek(week.id, known) }));
  return { country, to: second, toName: nameOfWeek(second, known), weeks };
}

/** Compares two weeks of a country's chart. */
export async function compareWeeks(
  ctx: CommandContext,
  country: string,
  first: string,
  second: string,
): Promise<Reply> {
  const query = { action: 'compare', countryCode: country, firstWeek: first, secondWeek: second } as const;
  const result = await ctx.service.songs.query(query);
  const code = country.toUpperCase();
  const known = knownWeeks(ctx) ?? [];
  const [from, to] = [nameOfWeek(first, known), nameOfWeek(second, known)];
  const title = `Chart changes · ${countryName(code)} · ${from} → ${to}`;
  const moves = readMoves(result.data);
  const shaped =
    moves === null
      ? describe(query, result.data, known, (error) =>
          ctx.logger.warn({ err: error }, 'songs comparison not described; shown as JSON'),
        )
      : {
          lead: leadLines(moves),
          facts: [],
          table: { caption: `${countryName(code)} chart, ${to}`, columns: COLUMNS },
          rows: tableRows(moves),
        };
  const stored: StoredView = {
    ...shaped,
    title,
    rows: shaped.rows.slice(0, ROWS_KEPT),
    omitted: Math.max(0, shaped.rows.length - ROWS_KEPT),
    country: code,
    compare: otherWeeks(known, code, first, second),
  };
  return view(ctx, stored, 1, { replace: false, raw: result.data.response });
}
