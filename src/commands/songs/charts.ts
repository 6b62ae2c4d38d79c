/**
 * What a songs answer shows, by what came back: a chart (rankings, the global chart, new entries) as a table of
 * rank, song, artist, movement, last week, weeks on chart and peak; a song's chart run as a table of weeks and
 * ranks; a list of weeks by their dates; anything else described generically, its weeks named by their dates.
 */
import type { SongsQueryInput, SongsResult } from '../../core/service/index.js';
import { numberCell, shortText, singleLine } from '../../core/ui/index.js';
import { songView } from '../media/song-views.js';
import { type Cell, countryName, rankCell, type StoredRow, type StoredView } from './view.js';
import { type ChartWeek, isoChartWeek, nameOfWeek, weekDates, weekId, weekName, weeksOf } from './weeks.js';

type Dict = Record<string, unknown>;

/** What describing an answer gives: a stored view without its paging and menus. */
export type Shaped = Pick<StoredView, 'title' | 'lead' | 'facts' | 'table' | 'rows'>;

const LABEL_MAX = 70;

const isDict = (value: unknown): value is Dict =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A whole number from a number or digits, else null. */
export const rankOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'string' && /^\d+$/.test(value.trim())
      ? Number(value)
      : null;

const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? singleLine(value) : null;

/** A song's id as the service gives it. */
export const songIdOf = (item: Dict): string | null => {
  const raw = item.id ?? item.song_id ?? item.songId;
  return typeof raw === 'string' || typeof raw === 'number' ? (shortText(String(raw), 100) ?? null) : null;
};

/** A song's title and artist; `name` is `Title — Artist` for menus and sentences. */
export function songOf(item: Dict): { title: string; artist: string; name: string } {
  const title = textOf(item.title ?? item.name) ?? 'Untitled';
  const artist = textOf(item.artist) ?? '';
  const name = shortText(artist === '' ? title : `${title} — ${artist}`, LABEL_MAX) ?? title;
  return { title, artist, name };
}

/** The response's week, when it names one. */
const weekOfResponse = (response: Dict): string | null =>
  typeof response.week === 'string' ? weekId(response.week) : null;

/** How an entry moved since the week before: ▲2, ▼1, =, new, re-entry (its number is the places gained). */
function moveCell(rank: number, previous: number | null, weeks: number | null): Cell {
  if (previous === null) return numberCell(weeks !== null && weeks > 1 ? 're-entry' : 'new', null);
  if (previous > rank) return numberCell(`▲${previous - rank}`, previous - rank);
  if (previous < rank) return numberCell(`▼${rank - previous}`, previous - rank);
  return numberCell('=', 0);
}

const CHART_COLUMNS = [
  { label: '#', numeric: true },
  { label: 'Song', numeric: false },
  { label: 'Artist', numeric: false },
  { label: 'Move', numeric: true },
  { label: 'Last week', numeric: true },
  { label: 'Weeks', numeric: true },
  { label: 'Peak', numeric: true },
];

/** A chart entry as a table row. */
function chartRow(item: Dict): StoredRow {
  const rank = rankOf(item.rank) as number;
  const previous = rankOf(item.previous_rank);
  const weeks = rankOf(item.weeks_on_chart);
  const song = songOf(item);
  return {
    cells: [
      rankCell(rank),
      song.title,
      song.artist,
      moveCell(rank, previous, weeks),
      rankCell(previous),
      rankCell(weeks, ''),
      rankCell(rankOf(item.peak_rank)),
    ],
    songId: songIdOf(item),
    label: song.name,
  };
}

const isChart = (list: readonly unknown[]) =>
  list.length > 0 &&
  list.every((item) => isDict(item) && rankOf(item.rank) !== null && textOf(item.title) !== null);

const isRun = (list: readonly unknown[]) =>
  list.length > 0 &&
  list.every(
    (item) =>
      isDict(item) &&
      typeof item.week === 'string' &&
      weekId(item.week) !== null &&
      rankOf(item.rank) !== null,
  );

/** The title of an answer, its weeks and country in words. */
function titleOf(query: SongsQueryInput, response: Dict, known: readonly ChartWeek[]): string {
  const week = (given: string | undefined) => {
    const id = given ?? weekOfResponse(response);
    return id === null ? 'latest week' : nameOfWeek(id, known);
  };
  switch (query.action) {
    case 'countries':
      return 'Countries with song charts';
    case 'weeks':
      return `Chart weeks · ${countryName(query.countryCode)}`;
    case 'date-ranges':
      return 'Chart weeks and their dates';
    case 'rankings':
      return `Song chart · ${countryName(query.countryCode)} · ${week(query.week)}`;
    case 'global':
      return `Global song chart · ${week(query.week)}`;
    case 'new-entries':
      return `New chart entries · ${countryName(query.countryCode)} · ${week(undefined)}`;
    case 'search':
      return `Songs matching “${query.query}”`;
    case 'song-history': {
      const song = isDict(response.song) ? songOf(response.song).name : query.songId;
      return `Chart history of ${song} · ${countryName(query.countryCode)}`;
    }
    case 'compare':
      return `Chart changes · ${countryName(query.countryCode)}`;
  }
}

/** Every ISO week id inside a value, named by its dates instead. */
function weeksInWords(value: unknown, known: readonly ChartWeek[]): unknown {
  if (typeof value === 'string') {
    const id = weekId(value);
    const week = id === null ? null : (known.find((w) => w.id === id) ?? isoChartWeek(id));
    return week === null ? value : weekDates(week);
  }
  if (Array.isArray(value)) return value.map((item) => weeksInWords(item, known));
  if (isDict(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, weeksInWords(item, known)]));
  }
  return value;
}

/** A line of text as a row. */
const lineRow = (text: string, songId: string | null = null, label = text): StoredRow => ({
  cells: [text],
  songId,
  label: shortText(label, LABEL_MAX) ?? text,
});

/** The rows and facts of any shape, weeks in words; a shape that cannot be described shows as JSON instead. */
function generic(result: SongsResult, known: readonly ChartWeek[], onError: (error: unknown) => void) {
  try {
    const shaped = songView({ ...result, response: weeksInWords(result.response, known) as Dict });
    return { rows: shaped.rows.map((row) => lineRow(row.text, row.songId, row.label)), facts: shaped.facts };
  } catch (error) {
    onError(error);
    return { rows: [], facts: [] };
  }
}

/**
 * Describes an answer: a chart as a table, a chart run as a table of weeks, a list of weeks by their dates, any
 * other shape generically. `known` names weeks by the service's dates where it listed them.
 */
export function describe(
  query: SongsQueryInput,
  result: SongsResult,
  known: readonly ChartWeek[],
  onError: (error: unknown) => void,
): Shaped {
  const response: Dict = isDict(result.response) ? result.response : {};
  const title = titleOf(query, response, known);
  const list = result.data;
  if (isChart(list)) {
    const rows = list.map((item) => chartRow(item as Dict));
    return { title, lead: [], facts: [], table: { caption: title, columns: CHART_COLUMNS }, rows };
  }
  if (query.action === 'song-history' && isRun(list)) {
    const rows = list.map((item) => {
      const entry = item as Dict;
      const week = nameOfWeek(weekId(entry.week as string) as string, known).replace(/^week of /, '');
      return { cells: [week, rankCell(rankOf(entry.rank))], songId: null, label: week };
    });
    const peak = rankOf(response.peak_rank);
    const columns = [
      { label: 'Week', numeric: false },
      { label: 'Rank', numeric: true },
    ];
    const facts = peak === null ? [] : [{ label: 'Peak', value: `#${peak}` }];
    return { title, lead: [], facts, table: { caption: title, columns }, rows };
  }
  if (query.action === 'weeks' || query.action === 'date-ranges') {
    const weeks = weeksOf(list);
    if (weeks.length > 0) {
      const rows = weeks.map((week) => lineRow(weekName(known.find((w) => w.id === week.id) ?? week)));
      return { title, lead: [], facts: [], table: null, rows };
    }
  }
  return { title, lead: [], table: null, ...generic(result, known, onError) };
}
