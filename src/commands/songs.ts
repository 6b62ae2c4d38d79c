/** `/scout songs`: song chart data, one subcommand per action of the service (10 credits each). */
import { z } from 'zod';
import type { ParamSpec, ParamTable } from '../core/command/params.js';
import type { CommandContext, CommandDeclaration } from '../core/command/types.js';
import { defineAction, defineCommand, defineFamily } from '../core/command/types.js';
import { InternalError } from '../core/errors.js';
import type { SongAction } from '../core/service/enums.js';
import {
  estimateCost,
  type SongsQueryInput,
  type SongsResult,
  songsQueryVariants,
} from '../core/service/index.js';
import {
  bold,
  creditsSpent,
  fields,
  jsonBlock,
  notice,
  OPTION_VALUE_MAX,
  pager,
  type Reply,
  reply,
  select,
  text,
} from '../core/ui/index.js';
import { rowNodes, type SongFact, type SongRow, songView } from './media/song-views.js';

/** Chart lines per chat page. */
const ROWS_PER_PAGE = 20;
/** Lines kept for paging; every pager button stores them, so an unexpectedly long answer is cut here. */
const ROWS_KEPT = 200;

type Variant = (typeof songsQueryVariants.options)[number];
type ShapeOf<A extends SongAction> = Extract<Variant, { shape: { action: z.ZodLiteral<A> } }>['shape'];

/** The client's field schemas of one action, so commands validate exactly as the client does. */
function shapeOf<A extends SongAction>(action: A): ShapeOf<A> {
  const found = songsQueryVariants.options.find((option) => option.shape.action.value === action);
  if (found === undefined) throw new InternalError(`No songs variant for ${action}`);
  return found.shape as ShapeOf<A>;
}

const COUNTRY: ParamSpec = {
  kind: 'text',
  positional: true,
  required: true,
  aliases: ['country_code', 'code', 'cc'],
  description: 'Two-letter country code, e.g. US or GB.',
  example: 'US',
  rank: { common: 1 },
};

const WEEK: ParamSpec = {
  kind: 'text',
  description: 'ISO week YYYY-Www, e.g. 2026-W04 (latest when omitted).',
  example: '2026-W04',
};

const week = (which: string, aliases: string[]): ParamSpec => ({
  kind: 'text',
  required: true,
  aliases,
  description: `The ${which} week, YYYY-Www.`,
  example: which === 'first' ? '2026-W03' : '2026-W04',
});

/** What a stored songs reply holds, for paging through its lines and offering chart histories. */
const storedView = z.object({
  title: z.string(),
  facts: z.array(z.object({ label: z.string(), value: z.string() })),
  rows: z.array(z.object({ text: z.string(), songId: z.string().nullable(), label: z.string() })),
  /** Lines of the answer beyond ROWS_KEPT, not shown. */
  omitted: z.number().int().min(0),
  country: z.string().nullable(),
});
type StoredView = z.infer<typeof storedView>;

function titleOf(query: SongsQueryInput): string {
  const latest = (week: string | undefined) => week ?? 'latest week';
  switch (query.action) {
    case 'countries':
      return 'Countries with song charts';
    case 'weeks':
      return `Chart weeks · ${query.countryCode}`;
    case 'date-ranges':
      return 'Chart weeks and their dates';
    case 'rankings':
      return `Song chart · ${query.countryCode} · ${latest(query.week)}`;
    case 'global':
      return `Global song chart · ${latest(query.week)}`;
    case 'new-entries':
      return `New chart entries · ${query.countryCode}`;
    case 'search':
      return `Songs matching “${query.query}”`;
    case 'song-history':
      return `Chart history of ${query.songId} · ${query.countryCode}`;
    case 'compare':
      return `Chart changes · ${query.countryCode} · ${query.firstWeek} → ${query.secondWeek}`;
  }
}

/** One chat page of a songs reply; `spent` is null when the lines were already paid for. */
function view(
  ctx: CommandContext,
  stored: StoredView,
  page: number,
  options: { spent: number | null; replace: boolean; raw?: unknown },
): Reply {
  const pages = Math.max(1, Math.ceil(stored.rows.length / ROWS_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  const shown = stored.rows.slice((current - 1) * ROWS_PER_PAGE, current * ROWS_PER_PAGE);
  const ids = [
    ...new Set(
      shown.flatMap((row) =>
        row.songId !== null && row.songId.length <= OPTION_VALUE_MAX ? [row.songId] : [],
      ),
    ),
  ];
  const labelOf = new Map(
    shown.flatMap((row) => (row.songId === null ? [] : [[row.songId, row.label] as const])),
  );
  const empty =
    stored.rows.length === 0
      ? stored.facts.length === 0
        ? jsonBlock(options.raw ?? {}, { title: 'Response' })
        : notice('info', 'No entries.')
      : null;
  return reply(
    [
      text(bold(stored.title)),
      stored.facts.length === 0
        ? null
        : fields(stored.facts.map((fact: SongFact) => ({ ...fact, inline: true }))),
      empty,
      ...rowNodes(shown),
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
      stored.country === null || ids.length === 0
        ? null
        : select({
            placeholder: `Chart history in ${stored.country} (10 credits)`,
            actionId: ctx.token('songs.history', { country: stored.country, ids }),
            options: ids.map((id) => ({ label: labelOf.get(id) ?? id, value: id })),
          }),
      options.spent === null ? null : text(creditsSpent(options.spent)),
    ],
    { visibility: 'channel', replace: options.replace },
  );
}

/** Runs one songs action and shows what came back, however it is shaped. */
async function runSongs(ctx: CommandContext, query: SongsQueryInput): Promise<Reply> {
  const result = await ctx.service.songs.query(query);
  const shaped = describe(ctx, result.data);
  const stored: StoredView = {
    title: titleOf(query),
    facts: shaped.facts,
    rows: shaped.rows.slice(0, ROWS_KEPT),
    omitted: Math.max(0, shaped.rows.length - ROWS_KEPT),
    country: 'countryCode' in query ? query.countryCode.toUpperCase() : null,
  };
  return view(ctx, stored, 1, { spent: result.meta.cost, replace: false, raw: result.data.response });
}

/** The rows and facts of a result; a shape that cannot be described shows as JSON instead. */
function describe(ctx: CommandContext, result: SongsResult): { rows: SongRow[]; facts: SongFact[] } {
  try {
    return songView(result);
  } catch (error) {
    ctx.logger.warn({ err: error, action: result.action }, 'songs response not described; shown as JSON');
    return { rows: [], facts: [] };
  }
}

/** Declares one songs subcommand: its options, schema, and the service query it makes. */
function songsCommand<I>(def: {
  name: string;
  description: string;
  params: ParamTable;
  schema: z.ZodType<I, unknown>;
  examples: string[];
  query: (input: I) => SongsQueryInput;
}): CommandDeclaration<I> {
  return defineCommand<I>({
    name: def.name,
    description: def.description,
    params: def.params,
    schema: def.schema,
    examples: def.examples,
    cost: '10 credits',
    estimate: () => estimateCost('songs.query'),
    run: (ctx, input) => runSongs(ctx, def.query(input)),
  });
}

/**
 * The words to look for: the bare words of the text syntax (a list), or the one text of a platform option
 * (Discord's `q`).
 */
const searchText = z
  .union([z.string(), z.array(z.string())], {
    error: 'Type what to look for, e.g. /scout songs search q:"midnight".',
  })
  .transform((words) => (typeof words === 'string' ? words : words.join(' ')).trim())
  .pipe(shapeOf('search').query);

/** The songs family. */
export const songsFamily = defineFamily({
  name: 'songs',
  aliases: ['song', 'charts'],
  description:
    'Song charts: countries, weeks, rankings, global chart, new entries, search, history, compare.',
  defaultCommand: 'rankings',
  commands: [
    songsCommand({
      name: 'countries',
      description: 'Countries that have a song chart, with their codes.',
      params: {},
      schema: z.strictObject({}),
      examples: ['songs countries'],
      query: () => ({ action: 'countries' }),
    }),
    songsCommand({
      name: 'weeks',
      description: 'Chart weeks available for a country.',
      params: { country: COUNTRY },
      schema: z.strictObject({ country: shapeOf('weeks').countryCode }),
      examples: ['songs weeks country:US'],
      query: (input) => ({ action: 'weeks', countryCode: input.country }),
    }),
    songsCommand({
      name: 'date-ranges',
      description: 'Chart weeks with their first and last dates.',
      params: {},
      schema: z.strictObject({}),
      examples: ['songs date-ranges'],
      query: () => ({ action: 'date-ranges' }),
    }),
    songsCommand({
      name: 'rankings',
      description: 'A country’s song chart for a week: rank, movement, weeks on chart, peak.',
      params: { country: COUNTRY, week: WEEK },
      schema: z.strictObject({ country: shapeOf('rankings').countryCode, week: shapeOf('rankings').week }),
      examples: ['songs rankings country:US', 'songs rankings GB week:2026-W04'],
      query: (input) => ({
        action: 'rankings',
        countryCode: input.country,
        ...(input.week === undefined ? {} : { week: input.week }),
      }),
    }),
    songsCommand({
      name: 'global',
      description: 'The global song chart for a week (latest when no week is given).',
      params: { week: WEEK },
      schema: z.strictObject({ week: shapeOf('global').week }),
      examples: ['songs global', 'songs global week:2026-W04'],
      query: (input) => ({ action: 'global', ...(input.week === undefined ? {} : { week: input.week }) }),
    }),
    songsCommand({
      name: 'new-entries',
      description: 'Songs new on a country’s chart this week.',
      params: { country: COUNTRY },
      schema: z.strictObject({ country: shapeOf('new-entries').countryCode }),
      examples: ['songs new-entries country:US'],
      query: (input) => ({ action: 'new-entries', countryCode: input.country }),
    }),
    songsCommand({
      name: 'search',
      description: 'Find songs by title or artist.',
      params: {
        q: {
          kind: 'text',
          rest: true,
          aliases: ['query', 'text', 'title', 'artist'],
          description: 'Words of the title or artist.',
          example: '"midnight"',
        },
      },
      schema: z.strictObject({ q: searchText }),
      examples: ['songs search q:midnight', 'songs search golden hour'],
      query: (input) => ({ action: 'search', query: input.q }),
    }),
    songsCommand({
      name: 'history',
      description: 'A song’s chart run in a country, week by week.',
      params: {
        song_id: {
          kind: 'text',
          positional: true,
          required: true,
          aliases: ['song', 'id'],
          description: 'The song id, as songs rankings or songs search show it.',
          example: 'song_1a2b3c4d5e',
        },
        country: { ...COUNTRY, positional: false },
      },
      schema: z.strictObject({
        song_id: shapeOf('song-history').songId,
        country: shapeOf('song-history').countryCode,
      }),
      examples: ['songs history song_1a2b3c4d5e country:US'],
      query: (input) => ({ action: 'song-history', songId: input.song_id, countryCode: input.country }),
    }),
    songsCommand({
      name: 'compare',
      description: 'How a country’s chart changed between two weeks.',
      params: {
        country: COUNTRY,
        week1: week('first', ['first', 'from']),
        week2: week('second', ['second', 'to']),
      },
      schema: z.strictObject({
        country: shapeOf('compare').countryCode,
        week1: shapeOf('compare').firstWeek,
        week2: shapeOf('compare').secondWeek,
      }),
      examples: ['songs compare country:US week1:2026-W03 week2:2026-W04'],
      query: (input) => ({
        action: 'compare',
        countryCode: input.country,
        firstWeek: input.week1,
        secondWeek: input.week2,
      }),
    }),
  ],
  actions: [
    defineAction({
      kind: 'songs.page',
      payload: storedView.extend({ page: z.number().int().min(1) }),
      run: async (ctx, payload) => {
        const { page, ...stored } = payload;
        return view(ctx, stored, page, { spent: null, replace: true });
      },
    }),
    defineAction({
      kind: 'songs.history',
      payload: z.object({ country: z.string(), ids: z.array(z.string()) }),
      estimate: () => estimateCost('songs.query'),
      run: async (ctx, payload, event) => {
        const songId = event.value;
        if (songId === undefined || !payload.ids.includes(songId)) {
          return reply([notice('warning', 'Choose one of the songs in the menu.')]);
        }
        return runSongs(ctx, { action: 'song-history', songId, countryCode: payload.country });
      },
    }),
  ],
});
