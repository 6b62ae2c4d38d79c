/**
 * `/scout songs`: song chart data, one subcommand per action of the service (10 credits each); charts show as
 * tables and weeks by their dates.
 */
import { z } from 'zod';
import type { ParamSpec, ParamTable } from '../core/command/params.js';
import type { CommandContext, CommandDeclaration } from '../core/command/types.js';
import { defineAction, defineCommand, defineFamily } from '../core/command/types.js';
import { InternalError } from '../core/errors.js';
import type { SongAction } from '../core/service/enums.js';
import { estimateCost, type SongsQueryInput, songsQueryVariants } from '../core/service/index.js';
import { notice, type Reply, reply } from '../core/ui/index.js';
import { describe } from './songs/charts.js';
import { compareEstimate, compareWeeks, runCompare } from './songs/compare.js';
import { ROWS_KEPT, type StoredView, storedView, view } from './songs/view.js';
import { keepWeeks, knownWeeks } from './songs/week-list.js';
import { readWeek, WEEK_WORDS, weekId, weeksOf } from './songs/weeks.js';

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
  description: 'A week, as YYYY-Www or a date in it (2026-W47, 2026-11-18); the latest when omitted.',
  example: '2026-W47',
};

const week = (description: string, aliases: string[], example: string): ParamSpec => ({
  kind: 'text',
  aliases,
  description,
  example,
});

/**
 * A week as a person gives it: an ISO week or a date in it, checked here and read against Scout's clock when the
 * command runs (a date without a year is the last one).
 */
const weekText = z
  .string()
  .trim()
  .refine((value) => readWeek(value, new Date()) !== null, { error: `must be ${WEEK_WORDS}` });

/** The ISO week of a checked week option. */
const weekOfInput = (ctx: CommandContext, value: string | undefined): string | undefined =>
  value === undefined ? undefined : (readWeek(value, ctx.clock.now()) ?? undefined);

/** Runs one songs action and shows what came back, however it is shaped. */
async function runSongs(ctx: CommandContext, query: SongsQueryInput): Promise<Reply> {
  const result = await ctx.service.songs.query(query);
  if (query.action === 'date-ranges') keepWeeks(ctx, weeksOf(result.data.data));
  const shaped = describe(query, result.data, knownWeeks(ctx) ?? [], (error) =>
    ctx.logger.warn(
      { err: error, action: result.data.action },
      'songs response not described; shown as JSON',
    ),
  );
  const stored: StoredView = {
    ...shaped,
    rows: shaped.rows.slice(0, ROWS_KEPT),
    omitted: Math.max(0, shaped.rows.length - ROWS_KEPT),
    country: 'countryCode' in query ? query.countryCode.toUpperCase() : null,
    compare: null,
  };
  return view(ctx, stored, 1, { replace: false, raw: result.data.response });
}

/** Declares one songs subcommand: its options, schema, and the service query it makes. */
function songsCommand<I>(def: {
  name: string;
  description: string;
  params: ParamTable;
  schema: z.ZodType<I, unknown>;
  examples: string[];
  query: (input: I, ctx: CommandContext) => SongsQueryInput;
}): CommandDeclaration<I> {
  return defineCommand<I>({
    name: def.name,
    description: def.description,
    params: def.params,
    schema: def.schema,
    examples: def.examples,
    cost: '10 credits',
    estimate: () => estimateCost('songs.query'),
    run: (ctx, input) => runSongs(ctx, def.query(input, ctx)),
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
      schema: z.strictObject({ country: shapeOf('rankings').countryCode, week: weekText.optional() }),
      examples: [
        'songs rankings country:US',
        'songs rankings GB week:2026-W04',
        'songs rankings FR week:2026-11-18',
      ],
      query: (input, ctx) => {
        const week = weekOfInput(ctx, input.week);
        return { action: 'rankings', countryCode: input.country, ...(week === undefined ? {} : { week }) };
      },
    }),
    songsCommand({
      name: 'global',
      description: 'The global song chart for a week (latest when no week is given).',
      params: { week: WEEK },
      schema: z.strictObject({ week: weekText.optional() }),
      examples: ['songs global', 'songs global week:2026-W04'],
      query: (input, ctx) => {
        const week = weekOfInput(ctx, input.week);
        return { action: 'global', ...(week === undefined ? {} : { week }) };
      },
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
          description: 'The song id, as songs search shows it.',
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
    defineCommand({
      name: 'compare',
      description: 'How a country’s chart changed: the latest two weeks, or two given.',
      params: {
        country: COUNTRY,
        week1: week(
          'The earlier week, YYYY-Www or a date in it; the week before the later one when omitted.',
          ['first', 'earlier'],
          '2026-W46',
        ),
        week2: week(
          'The later week, YYYY-Www or a date in it; the latest week when omitted.',
          ['second', 'later'],
          '2026-W47',
        ),
      },
      schema: z.strictObject({
        country: shapeOf('compare').countryCode,
        week1: weekText.optional(),
        week2: weekText.optional(),
      }),
      examples: ['songs compare US', 'songs compare GB week1:2026-11-09 week2:2026-W47'],
      cost: '10 credits; 10 more when the latest weeks must be looked up (kept for an hour)',
      estimate: (input, ctx) => compareEstimate(ctx, { second: input.week2 }, estimateCost('songs.query')),
      run: (ctx, input) => runCompare(ctx, input),
    }),
  ],
  actions: [
    defineAction({
      kind: 'songs.page',
      payload: storedView.extend({ page: z.number().int().min(1) }),
      run: async (ctx, payload) => {
        const { page, ...stored } = payload;
        return view(ctx, stored, page, { replace: true });
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
    defineAction({
      kind: 'songs.compare',
      payload: z.object({ country: z.string(), to: z.string(), ids: z.array(z.string()) }),
      estimate: () => estimateCost('songs.query'),
      run: async (ctx, payload, event) => {
        const from = event.value;
        if (from === undefined || !payload.ids.includes(from) || weekId(from) === null) {
          return reply([notice('warning', 'Choose one of the weeks in the menu.')]);
        }
        return compareWeeks(ctx, payload.country, from, payload.to);
      },
    }),
  ],
});
