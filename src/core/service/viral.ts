/** Viral content search (`POST /api/v1/viral-content`): filtered viral short-video posts, newest first. */

import { z } from 'zod';
import { CONTENT_FORMATS, CONTENT_TONES, COUNTRIES, MAIN_CATEGORIES, VISUAL_STYLES } from './enums.js';
import { checkRanges, choices, decimal, flag, isoDate, text, textList, wholeNumber } from './input-kit.js';
import { id, isRecord, num, str, toPage, unwrap } from './response-kit.js';
import { bindOperation, type Operation, type OperationContext } from './runner.js';
import type { Page } from './types.js';

const count = () => wholeNumber(0).optional();

/** Input of viral search: every body field of the contract, all optional. */
export const viralSearchInput = z
  .strictObject({
    categories: choices(MAIN_CATEGORIES).optional(),
    countries: choices(COUNTRIES).optional(),
    viewsMin: count(),
    viewsMax: count(),
    viralityScoreMin: decimal(0).optional(),
    viralityScoreMax: decimal(0).optional(),
    followersMin: count(),
    followersMax: count(),
    dateCreatedFrom: isoDate().optional(),
    dateCreatedTo: isoDate().optional(),
    musicTitle: text().optional(),
    hook: text().optional(),
    contentFormats: choices(CONTENT_FORMATS).optional(),
    contentTones: choices(CONTENT_TONES).optional(),
    visualStyles: choices(VISUAL_STYLES).optional(),
    videoSettings: textList().optional(),
    targetDemographics: textList().optional(),
    productionQualities: textList().optional(),
    ctaTypes: textList().optional(),
    primaryEmotions: textList().optional(),
    videoTopicContains: text().optional(),
    contentCategoryContains: text().optional(),
    productCategoryContains: text().optional(),
    brandMentionedContains: text().optional(),
    colorPaletteContains: text().optional(),
    hasFace: flag().optional(),
    hasProduct: flag().optional(),
    isBranded: flag().optional(),
    isPromotional: flag().optional(),
    hasTextOverlay: flag().optional(),
    isTrendingFormat: flag().optional(),
    isAiGenerated: flag().optional(),
    page: wholeNumber(1).optional(),
    pageSize: wholeNumber(1, 100).optional(),
  })
  .superRefine((value, ctx) =>
    checkRanges(value, ctx, [
      ['viewsMin', 'viewsMax'],
      ['viralityScoreMin', 'viralityScoreMax'],
      ['followersMin', 'followersMax'],
      ['dateCreatedFrom', 'dateCreatedTo'],
    ]),
  );

/** Input of viral search as callers write it. */
export type ViralSearchInput = z.input<typeof viralSearchInput>;

/** A viral post in the contract's camelCase; missing fields are null, unknown fields are kept. */
export const viralPostSchema = z.looseObject({
  id,
  videoUrl: str,
  thumbnailUrl: str,
  caption: str,
  views: num,
  likes: num,
  comments: num,
  shares: num,
  viralityScore: num,
  followers: num,
  category: str,
  country: str,
  musicTitle: str,
  creatorUsername: str,
  hook: str,
  createdAt: str,
});

type Nulled<T> = { [K in keyof T]-?: Exclude<T[K], undefined> | (undefined extends T[K] ? null : never) };

/** A viral post. */
export type ViralPost = Nulled<z.output<typeof viralPostSchema>>;

const POST_FIELDS = Object.keys(viralPostSchema.shape) as Array<keyof typeof viralPostSchema.shape>;

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Renames snake_case keys to camelCase; a camelCase key already present wins. */
function camelize(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key === camel(key)) out[key] = v;
  for (const [key, v] of Object.entries(value)) {
    const name = camel(key);
    if (!(name in out)) out[name] = v;
  }
  return out;
}

/** Normalizes one post: snake_case to camelCase, `video_id` as the id when `id` is missing, absent fields null. */
export function normalizeViralPost(raw: unknown): ViralPost {
  if (!isRecord(raw)) throw new TypeError('a viral post is not an object');
  const fields = camelize(raw);
  if (fields.id === undefined || fields.id === null) fields.id = fields.videoId;
  const parsed = viralPostSchema.parse(fields);
  const out: Record<string, unknown> = { ...parsed };
  for (const field of POST_FIELDS) out[field] = parsed[field] ?? null;
  return out as ViralPost;
}

const pageBody = z.looseObject({
  data: z.array(z.unknown()),
  page: num,
  pageSize: num,
  totalPages: num,
  totalResults: num,
});

/** The viral content operations. */
export interface ViralApi {
  /** Searches viral posts, 1 credit per post returned. */
  search: Operation<typeof viralSearchInput, Page<ViralPost>>;
}

/** Creates the viral content operations. */
export function createViralApi(context: OperationContext): ViralApi {
  return {
    search: bindOperation(context, {
      operation: 'viral.search',
      input: viralSearchInput,
      request: (input) => ({
        path: '/api/v1/viral-content',
        body: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      }),
      decode: (body, input) => {
        const r = pageBody.parse(camelize(unwrap(body)));
        return toPage(
          r.data.map(normalizeViralPost),
          { page: r.page, totalPages: r.totalPages, total: r.totalResults },
          input.page,
        );
      },
      items: (data) => data.items.length,
    }),
  };
}
