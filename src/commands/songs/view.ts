/**
 * One chat page of a songs answer, kept whole in its buttons so paging is free: its title, the lines that lead it
 * (a comparison's movers), a chart as a table (or, for shapes nobody documented, lines of text), a pager, a menu of
 * the shown songs' chart histories, and a menu of other weeks to compare.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { COUNTRY_CODES } from '../../core/service/countries.js';
import {
  bold,
  fields,
  jsonBlock,
  notice,
  numberCell,
  OPTION_VALUE_MAX,
  pager,
  type Reply,
  reply,
  select,
  table,
  text,
} from '../../core/ui/index.js';
import { rowNodes } from '../media/song-views.js';

/** Chart lines per chat page. */
export const ROWS_PER_PAGE = 20;
/** Lines kept for paging; every pager button stores them, so an unexpectedly long answer is cut here. */
export const ROWS_KEPT = 200;

/** A table cell: text, or a number with the text it is shown as. */
const cellSchema = z.union([z.string(), z.object({ text: z.string(), number: z.number().nullable() })]);
/** A table cell as stored. */
export type Cell = z.infer<typeof cellSchema>;

/** A number cell, or a dash when there is no number. */
export const rankCell = (value: number | null, prefix = '#'): Cell =>
  value === null ? numberCell('—', null) : numberCell(`${prefix}${value}`, value);

/** A country's name from its code ("United States" for US), or the code when it names no country. */
export function countryName(code: string): string {
  return COUNTRY_CODES.find((country) => country.code === code.toUpperCase())?.name ?? code;
}

/** What a stored songs reply holds, for paging through its lines and offering chart histories. */
export const storedView = z.object({
  title: z.string(),
  /** Lines before the chart: a label in bold, then its text. */
  lead: z.array(z.object({ label: z.string(), text: z.string() })),
  facts: z.array(z.object({ label: z.string(), value: z.string() })),
  /** The chart's columns when its rows are a table; null when each row is one line of text. */
  table: z
    .object({
      caption: z.string(),
      columns: z.array(z.object({ label: z.string(), numeric: z.boolean() })),
    })
    .nullable(),
  rows: z.array(z.object({ cells: z.array(cellSchema), songId: z.string().nullable(), label: z.string() })),
  /** Lines of the answer beyond ROWS_KEPT, not shown. */
  omitted: z.number().int().min(0),
  country: z.string().nullable(),
  /** Other weeks to compare with the second week shown, by id and name. */
  compare: z
    .object({
      country: z.string(),
      to: z.string(),
      toName: z.string(),
      weeks: z.array(z.object({ id: z.string(), name: z.string() })),
    })
    .nullable(),
});
/** A stored songs reply. */
export type StoredView = z.infer<typeof storedView>;
/** One row of a stored songs reply. */
export type StoredRow = StoredView['rows'][number];

const cellText = (cell: Cell | undefined) =>
  cell === undefined ? '' : typeof cell === 'string' ? cell : cell.text;

/** The rows of one page: a table, or lines of text. */
function rowsOf(stored: StoredView, shown: readonly StoredRow[]) {
  if (stored.table === null) {
    return rowNodes(shown.map((row) => ({ ...row, text: cellText(row.cells[0]) })));
  }
  if (shown.length === 0) return [];
  return [
    table({
      caption: stored.table.caption,
      columns: stored.table.columns,
      rows: shown.map((row) => row.cells),
    }),
  ];
}

/** The menu of chart histories of the songs shown, when the chart is a country's. */
function historyMenu(ctx: CommandContext, stored: StoredView, shown: readonly StoredRow[]) {
  const labelOf = new Map<string, string>();
  for (const row of shown) {
    if (row.songId !== null && row.songId.length <= OPTION_VALUE_MAX && !labelOf.has(row.songId)) {
      labelOf.set(row.songId, row.label);
    }
  }
  if (stored.country === null || labelOf.size === 0) return null;
  return select({
    placeholder: `Chart history in ${countryName(stored.country)} (10 credits)`,
    actionId: ctx.token('songs.history', { country: stored.country, ids: [...labelOf.keys()] }),
    options: [...labelOf].map(([id, label]) => ({ label, value: id })),
  });
}

/** The menu of other weeks to compare with the second week shown. */
function compareMenu(ctx: CommandContext, stored: StoredView) {
  const choice = stored.compare;
  if (choice === null || choice.weeks.length === 0) return null;
  return select({
    placeholder: `Compare the ${choice.toName} with another week (10 credits)`,
    actionId: ctx.token('songs.compare', {
      country: choice.country,
      to: choice.to,
      ids: choice.weeks.map((week) => week.id),
    }),
    options: choice.weeks.map((week) => ({ label: week.name, value: week.id })),
  });
}

/** One chat page of a songs reply (what it cost ends it: the guard's cost line). */
export function view(
  ctx: CommandContext,
  stored: StoredView,
  page: number,
  options: { replace: boolean; raw?: unknown },
): Reply {
  const pages = Math.max(1, Math.ceil(stored.rows.length / ROWS_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  const shown = stored.rows.slice((current - 1) * ROWS_PER_PAGE, current * ROWS_PER_PAGE);
  const empty =
    stored.rows.length === 0
      ? stored.facts.length === 0 && stored.lead.length === 0
        ? jsonBlock(options.raw ?? {}, { title: 'Response' })
        : notice('info', 'No entries.')
      : null;
  return reply(
    [
      text(bold(stored.title)),
      ...stored.lead.map((line) => text(bold(`${line.label}:`), ` ${line.text}`)),
      stored.facts.length === 0 ? null : fields(stored.facts.map((fact) => ({ ...fact, inline: true }))),
      empty,
      ...rowsOf(stored, shown),
      stored.omitted === 0
        ? null
        : text(`Only the first ${stored.rows.length} lines are shown; ${stored.omitted} more were not.`),
      pages <= 1
        ? null
        : pager({
            page: current,
            totalPages: pages,
            prevActionId: current > 1 ? ctx.token('songs.page', { ...stored, page: current - 1 }) : null,
            nextActionId: current < pages ? ctx.token('songs.page', { ...stored, page: current + 1 }) : null,
            label: `${stored.rows.length} lines`,
          }),
      historyMenu(ctx, stored, shown),
      compareMenu(ctx, stored),
    ],
    { visibility: 'channel', replace: options.replace },
  );
}
