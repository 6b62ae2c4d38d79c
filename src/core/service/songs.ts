/**
 * Songs data (`GET /api/v1/songs`, 10 credits per request). Callers use readable names; they are mapped to the
 * live query names of service-notes (`country_code` for weeks and song history, `country` elsewhere, `q`,
 * `song_id`, `week1`/`week2`).
 */

import { z } from 'zod';
import { SONG_ACTIONS, type SongAction } from './enums.js';
import { encodeQuery, type QueryValue } from './http.js';
import { choice, isoWeek, text } from './input-kit.js';
import { id, isRecord, num, str } from './response-kit.js';
import { bindOperation, type OperationContext } from './runner.js';
import type { CallOptions, ServiceResult } from './types.js';

/** A two-letter country code, sent upper-case. */
const countryCode = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US or GB')
    .transform((value) => value.toUpperCase());

const action = <A extends SongAction>(name: A) => z.literal(name);

/** The variants of songs data: one per action, with the inputs that action uses. */
export const songsQueryVariants = z.discriminatedUnion('action', [
  z.strictObject({ action: action('countries') }),
  z.strictObject({ action: action('weeks'), countryCode: countryCode() }),
  z.strictObject({ action: action('date-ranges') }),
  z.strictObject({ action: action('rankings'), countryCode: countryCode(), week: isoWeek().optional() }),
  z.strictObject({ action: action('global'), week: isoWeek().optional() }),
  z.strictObject({ action: action('new-entries'), countryCode: countryCode() }),
  z.strictObject({ action: action('search'), query: text() }),
  z.strictObject({ action: action('song-history'), songId: text(), countryCode: countryCode() }),
  z.strictObject({
    action: action('compare'),
    countryCode: countryCode(),
    firstWeek: isoWeek(),
    secondWeek: isoWeek(),
  }),
]);

/** Input of songs data as callers write it. */
export type SongsQueryInput = z.input<typeof songsQueryVariants>;

/** Checks the action alone first, so an unknown action is reported with the allowed values. */
const actionCheck = z.looseObject({ action: choice(SONG_ACTIONS) });

/** Input of songs data: the action is matched case-insensitively and reported with its allowed values, then the variant is checked. */
export const songsQueryInput = z
  .unknown()
  .transform((value, ctx) => {
    const head = actionCheck.safeParse(value);
    if (!head.success) {
      for (const issue of head.error.issues) {
        const params = issue.code === 'custom' ? issue.params : undefined;
        ctx.addIssue({
          code: 'custom',
          path: issue.path,
          message: issue.message,
          input: value,
          ...(params ? { params } : {}),
        });
      }
      return z.NEVER;
    }
    return { ...head.data };
  })
  .pipe(songsQueryVariants);

/** One item of `response.data`: the rankings fields are typed, anything else is kept as it arrives. */
export const songItemSchema = z.looseObject({
  id: id.optional(),
  title: str,
  artist: str,
  rank: num,
  previous_rank: num,
  weeks_on_chart: num,
  peak_rank: num,
});

/** One item of songs data. */
export type SongItem = z.output<typeof songItemSchema>;

/** Songs data: the action echoed, the credits the service reported, `response.data` and the whole `response`. */
export interface SongsResult {
  action: string;
  creditsUsed: number | null;
  /** `response.data` as it arrived (weeks are plain strings, for instance); empty when it is not a list. */
  data: unknown[];
  /** The object entries of `data`, with the documented rankings fields typed. */
  items: SongItem[];
  response: Record<string, unknown>;
}

const songsBody = z.looseObject({ action: str, credits_used: num, response: z.unknown() });

type SongsQuery = z.output<typeof songsQueryVariants>;

function songsQuery(input: SongsQuery): Record<string, QueryValue> {
  switch (input.action) {
    case 'countries':
    case 'date-ranges':
      return { action: input.action };
    case 'weeks':
      return { action: input.action, country_code: input.countryCode };
    case 'rankings':
      return { action: input.action, country: input.countryCode, week: input.week };
    case 'global':
      return { action: input.action, week: input.week };
    case 'new-entries':
      return { action: input.action, country: input.countryCode };
    case 'search':
      return { action: input.action, q: input.query };
    case 'song-history':
      return { action: input.action, song_id: input.songId, country_code: input.countryCode };
    case 'compare':
      return {
        action: input.action,
        country: input.countryCode,
        week1: input.firstWeek,
        week2: input.secondWeek,
      };
  }
}

function decodeSongs(body: unknown, input: SongsQuery): SongsResult {
  const r = songsBody.parse(body);
  const response = isRecord(r.response) ? r.response : { data: r.response };
  const data = Array.isArray(response.data) ? response.data : Array.isArray(r.response) ? r.response : [];
  return {
    action: r.action ?? input.action,
    creditsUsed: r.credits_used ?? null,
    data,
    items: data.filter(isRecord).map((item) => songItemSchema.parse(item)),
    response,
  };
}

/** The songs operations. */
export interface SongsApi {
  /** Runs one songs action, 10 credits per request by the price list; `meta.cost` is what the answer says it used. */
  query(input: SongsQueryInput, options?: CallOptions): Promise<ServiceResult<SongsResult>>;
}

/** Creates the songs operations. */
export function createSongsApi(context: OperationContext): SongsApi {
  return {
    query: bindOperation(context, {
      operation: 'songs.query',
      input: songsQueryInput,
      request: (input) => ({ path: '/api/v1/songs', query: encodeQuery(songsQuery(input)) }),
      decode: decodeSongs,
      creditsUsed: (data) => data.creditsUsed,
    }),
  };
}
