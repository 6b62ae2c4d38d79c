/**
 * `/scout viral`: viral short-video posts with every filter of the contract, shown as cards with a pager; each
 * card offers Find creator, a free search for the post's creator.
 */
import { z } from 'zod';
import type { ParamTable } from '../core/command/params.js';
import type { CommandContext } from '../core/command/types.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import { VIRAL_COUNTRY_SYNONYMS } from '../core/service/countries.js';
import {
  CONTENT_FORMATS,
  CONTENT_TONES,
  COUNTRIES,
  MAIN_CATEGORIES,
  VISUAL_STYLES,
} from '../core/service/enums.js';
import {
  estimateCost,
  normalizeViralPost,
  type ViralPost,
  type ViralSearchInput,
  viralSearchInput,
} from '../core/service/index.js';
import { viralPostSchema } from '../core/service/viral.js';
import { CARDS_PER_PAGE, viralPostCard } from '../core/ui/index.js';
import { findCreatorAction, findCreatorButton } from './creators/find.js';
import { createPagedResults } from './media/paged-results.js';

const shape = viralSearchInput.shape;

/** `7d`, `2w`, `3m`, `1y` (optionally followed by `ago`), `today`, `yesterday`. */
const RELATIVE_DATE = /^(?:(\d{1,4})\s*([dwmy])(?:\s*ago)?|today|yesterday)$/i;

/** Reads a relative date against `now` (UTC calendar days) as YYYY-MM-DD; other text is returned unchanged. */
export function resolveRelativeDate(value: string, now: Date): string {
  const match = RELATIVE_DATE.exec(value.trim());
  if (match === null) return value.trim();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const word = value.trim().toLowerCase();
  const amount = word === 'yesterday' ? 1 : word === 'today' ? 0 : Number(match[1]);
  const unit = (match[2] ?? 'd').toLowerCase();
  if (unit === 'd') day.setUTCDate(day.getUTCDate() - amount);
  if (unit === 'w') day.setUTCDate(day.getUTCDate() - 7 * amount);
  if (unit === 'm') day.setUTCMonth(day.getUTCMonth() - amount);
  if (unit === 'y') day.setUTCFullYear(day.getUTCFullYear() - amount);
  return day.toISOString().slice(0, 10);
}

/** A date as the contract writes it (YYYY-MM-DD), or a relative one resolved when the command runs. */
const dateOrRelative = (field: 'dateCreatedFrom' | 'dateCreatedTo') =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (RELATIVE_DATE.test(value)) return;
      const checked = shape[field].safeParse(value);
      if (checked.success) return;
      for (const issue of checked.error.issues) {
        ctx.addIssue({ code: 'custom', message: `${issue.message}, or relative such as 7d, 2w or 3m` });
      }
    })
    .optional();

const BOUND_FIELDS = [
  'viewsMin',
  'viewsMax',
  'viralityScoreMin',
  'viralityScoreMax',
  'followersMin',
  'followersMax',
] as const;

/** Input of `viral search`: the client's own field schemas, with relative dates allowed. */
const viralCommandInput = z
  .strictObject({
    ...shape,
    dateCreatedFrom: dateOrRelative('dateCreatedFrom'),
    dateCreatedTo: dateOrRelative('dateCreatedTo'),
  })
  .superRefine((value, ctx) => {
    for (const field of ['viralityScoreMin', 'viralityScoreMax'] as const) {
      const score = value[field];
      if (typeof score === 'number' && score > 1) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'must be a score from 0 to 1 (0.2 above average, 0.5 highly viral, 0.8 breakout)',
        });
      }
    }
    // The client's own schema checks that each lower bound is below its upper bound.
    const bounds: Record<string, unknown> = {};
    for (const field of BOUND_FIELDS) bounds[field] = value[field];
    for (const field of ['dateCreatedFrom', 'dateCreatedTo'] as const) {
      const date = value[field];
      // Relative dates are ordered once resolved; a malformed date has been reported by its own field.
      if (date !== undefined && !RELATIVE_DATE.test(date) && shape[field].safeParse(date).success) {
        bounds[field] = date;
      }
    }
    const checked = viralSearchInput.safeParse(bounds);
    if (!checked.success)
      for (const issue of checked.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
  });

type ViralCommandInput = z.output<typeof viralCommandInput>;

/** Stored query of a result set: the contract fields with absolute dates, without page and page size. */
type ViralQuery = z.output<typeof viralSearchInput>;

const POST_FIELDS = Object.keys(viralPostSchema.shape);

const viralResults = createPagedResults<ViralQuery, ViralPost>({
  kind: 'viral.page',
  noun: 'Viral posts',
  empty: 'No viral posts match these filters. Try fewer filters or a wider range.',
  query: viralSearchInput,
  item: z.record(z.string(), z.unknown()).transform((value) => normalizeViralPost(value)),
  async fetch(ctx, query, page, size) {
    const result = await ctx.service.viral.search({ ...query, page, pageSize: size });
    return { page: result.data, cost: result.meta.cost };
  },
  estimate: (size) => estimateCost('viral.search', { pageSize: size }),
  keep: (post) => Object.fromEntries(POST_FIELDS.map((field) => [field, post[field as keyof ViralPost]])),
  render: (post, _position, ctx) => {
    const find = findCreatorButton(ctx, post.creatorUsername);
    return [viralPostCard(post, find === null ? {} : { actions: [find] })];
  },
});

const VIRAL_PARAMS: ParamTable = {
  categories: {
    kind: 'choices',
    values: MAIN_CATEGORIES,
    aliases: ['category', 'cat'],
    description: 'Main categories, any of them (comma list).',
    example: 'Fitness,Food',
    rank: { common: 3 },
  },
  countries: {
    kind: 'choices',
    values: COUNTRIES,
    synonyms: VIRAL_COUNTRY_SYNONYMS,
    aliases: ['country'],
    description: `Countries by name or code, any of them (comma list; ${COUNTRIES.length} countries have viral posts).`,
    example: '"United States"',
    rank: { common: 2 },
  },
  views: {
    kind: 'range',
    min: 'viewsMin',
    max: 'viewsMax',
    integer: true,
    description: 'Views, e.g. 100k-5m or >1m.',
    example: '100k-5m',
    rank: { common: 4 },
  },
  viralityScore: {
    kind: 'range',
    min: 'viralityScoreMin',
    max: 'viralityScoreMax',
    integer: false,
    top: 1,
    aliases: ['virality', 'score'],
    description: 'Virality score 0-1: 0.2 above average, 0.5 highly viral, 0.8 breakout. E.g. >0.5.',
    example: '>0.5',
    rank: { common: 5 },
  },
  followers: {
    kind: 'range',
    min: 'followersMin',
    max: 'followersMax',
    integer: true,
    description: 'Followers of the creator, e.g. 10k-100k.',
    example: '10k-100k',
    rank: { common: 1 },
  },
  dateCreatedFrom: {
    kind: 'text',
    aliases: ['from', 'since', 'after'],
    description: 'Posted on or after: YYYY-MM-DD, or relative (7d, 2w, 3m).',
    example: '7d',
  },
  dateCreatedTo: {
    kind: 'text',
    aliases: ['to', 'until', 'before'],
    description: 'Posted on or before: YYYY-MM-DD, or relative (1d, yesterday).',
    example: '2026-01-31',
  },
  musicTitle: {
    kind: 'text',
    aliases: ['music', 'sound', 'song'],
    description: 'Music title contains this text.',
  },
  hook: { kind: 'text', description: 'Hook contains this text.' },
  contentFormats: {
    kind: 'choices',
    values: CONTENT_FORMATS,
    aliases: ['format', 'formats'],
    description: 'Content formats, any of them.',
    example: 'tutorial,pov',
  },
  contentTones: {
    kind: 'choices',
    values: CONTENT_TONES,
    aliases: ['tone', 'tones'],
    description: 'Content tones, any of them.',
    example: 'funny',
  },
  visualStyles: {
    kind: 'choices',
    values: VISUAL_STYLES,
    aliases: ['style', 'styles'],
    description: 'Visual styles, any of them.',
    example: 'cinematic',
  },
  videoSettings: {
    kind: 'texts',
    aliases: ['setting', 'settings'],
    description: 'Filming settings, any of them (e.g. indoor, outdoor, studio).',
  },
  targetDemographics: {
    kind: 'texts',
    aliases: ['demographic', 'demographics', 'audience'],
    description: 'Target demographics, any of them (e.g. gen_z, parents).',
  },
  productionQualities: {
    kind: 'texts',
    aliases: ['quality', 'production'],
    description: 'Production qualities, any of them (e.g. low, high).',
  },
  ctaTypes: {
    kind: 'texts',
    aliases: ['cta'],
    description: 'Call-to-action types, any of them (e.g. follow, link_in_bio).',
  },
  primaryEmotions: {
    kind: 'texts',
    aliases: ['emotion', 'emotions'],
    description: 'Primary emotions, any of them (e.g. joy, curiosity).',
  },
  videoTopicContains: { kind: 'text', aliases: ['topic'], description: 'Video topic contains this text.' },
  contentCategoryContains: {
    kind: 'text',
    aliases: ['contentCategory'],
    description: 'Analyzed content category contains this text.',
  },
  productCategoryContains: {
    kind: 'text',
    aliases: ['product', 'productCategory'],
    description: 'Product category contains this text.',
  },
  brandMentionedContains: {
    kind: 'text',
    aliases: ['brand'],
    description: 'Mentioned brand contains this text.',
  },
  colorPaletteContains: {
    kind: 'text',
    aliases: ['palette', 'color', 'colour'],
    description: 'Colour palette contains this text.',
  },
  hasFace: { kind: 'boolean', aliases: ['face'], description: 'A face is shown.' },
  hasProduct: { kind: 'boolean', aliases: ['showsProduct'], description: 'A product is shown.' },
  isBranded: { kind: 'boolean', aliases: ['branded'], description: 'Branded content.' },
  isPromotional: { kind: 'boolean', aliases: ['promotional', 'promo'], description: 'Promotional content.' },
  hasTextOverlay: {
    kind: 'boolean',
    aliases: ['overlay', 'textOverlay'],
    description: 'Text overlay shown.',
  },
  isTrendingFormat: { kind: 'boolean', aliases: ['trending'], description: 'Uses a trending format.' },
  isAiGenerated: { kind: 'boolean', aliases: ['ai', 'aiGenerated'], description: 'AI-generated content.' },
  page: {
    kind: 'integer',
    description: 'Service page to start from (default 1).',
    example: '2',
    rank: 'paging',
  },
  pageSize: {
    kind: 'integer',
    rank: 'paging',
    aliases: ['size', 'perPage', 'limit'],
    description: `Posts bought per page, 1-100 (default ${CARDS_PER_PAGE}); 1 credit each.`,
    example: '5',
  },
};

const sizeOf = (input: ViralCommandInput) => input.pageSize ?? CARDS_PER_PAGE;

/** The stored query: relative dates resolved with the clock, unset fields, page and page size left out. */
function queryOf(input: ViralCommandInput, ctx: CommandContext): ViralQuery {
  const { page: _page, pageSize: _size, dateCreatedFrom, dateCreatedTo, ...filters } = input;
  const now = ctx.clock.now();
  const dated: ViralSearchInput = {
    ...filters,
    ...(dateCreatedFrom === undefined ? {} : { dateCreatedFrom: resolveRelativeDate(dateCreatedFrom, now) }),
    ...(dateCreatedTo === undefined ? {} : { dateCreatedTo: resolveRelativeDate(dateCreatedTo, now) }),
  };
  const entries = Object.entries(dated).filter(([, value]) => value !== undefined);
  // Relative dates can only be ordered once resolved; this raises the client's input error before any call.
  return viralSearchInput.parse(Object.fromEntries(entries));
}

/** The viral family. */
export const viralFamily = defineFamily({
  name: 'viral',
  description:
    'Viral short-video posts by category, country, format, tone, reach and date; find their creators.',
  defaultCommand: 'search',
  commands: [
    defineCommand({
      name: 'search',
      working: 'Finding viral posts…',
      description: 'Search viral posts with any filter; newest first, 5 per page with a pager.',
      params: VIRAL_PARAMS,
      schema: viralCommandInput,
      examples: [
        'viral categories:Fitness',
        'viral country:"United States" virality:>0.5 since:7d',
        'viral format:tutorial,pov tone:funny views:>1m face:yes pageSize:10',
      ],
      cost: '1 credit per post shown (5 per page unless pageSize says otherwise)',
      estimate: (input) => estimateCost('viral.search', { pageSize: sizeOf(input) }),
      run: (ctx, input) => viralResults.show(ctx, queryOf(input, ctx), input.page ?? 1, sizeOf(input)),
    }),
  ],
  actions: [viralResults.action, findCreatorAction],
});
