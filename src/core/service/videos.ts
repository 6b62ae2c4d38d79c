/** Videos (`GET /api/v1/videos`, 1 credit per video): query and fields per service-notes. */

import { z } from 'zod';
import { SORT_ORDERS, VIDEO_SORT_FIELDS } from './enums.js';
import { encodeQuery } from './http.js';
import { checkRanges, choice, minMaxPairs, text, textList, wholeNumber } from './input-kit.js';
import { isRecord, num, str, strList, toPage, unwrap } from './response-kit.js';
import { bindOperation, type Operation, type OperationContext } from './runner.js';
import type { Page } from './types.js';

const count = () => wholeNumber(0).optional();

const videoShape = {
  userHandle: text().optional(),
  userFollowersMin: count(),
  userFollowersMax: count(),
  viewsMin: count(),
  viewsMax: count(),
  likesMin: count(),
  likesMax: count(),
  commentsMin: count(),
  commentsMax: count(),
  sharesMin: count(),
  sharesMax: count(),
  hashtags: textList().optional(),
  textSearch: text().optional(),
  sortBy: choice(VIDEO_SORT_FIELDS).optional(),
  sortOrder: choice(SORT_ORDERS).optional(),
  page: wholeNumber(1).optional(),
  perPage: wholeNumber(1, 100).optional(),
};

const RANGE_PAIRS = minMaxPairs(Object.keys(videoShape));

/** Input of videos search: every filter optional. */
export const videoSearchInput = z
  .strictObject(videoShape)
  .superRefine((value, ctx) => checkRanges(value, ctx, RANGE_PAIRS));

/** Input of videos search as callers write it. */
export type VideoSearchInput = z.input<typeof videoSearchInput>;

/** A video (no video URL is documented); unknown fields are kept. */
export const videoSchema = z.looseObject({
  iv_id: str,
  user_id: str,
  user_handle: str,
  video_id: str,
  source: str,
  views: num,
  likes: num,
  comments: num,
  shares: num,
  user_followers: num,
  description: str,
  hashtags: strList,
  subtitles: z.array(z.unknown()).nullable().optional(),
  date_created_timestamp: num,
});

/** A video. */
export type Video = z.output<typeof videoSchema>;

const pagination = z.looseObject({
  page: num,
  perPage: num,
  per_page: num,
  total: num,
  totalPages: num,
  total_pages: num,
  nextPage: num,
  next_page: num,
});

/** The videos operations. */
export interface VideosApi {
  /** Searches videos, 1 credit per video returned. */
  search: Operation<typeof videoSearchInput, Page<Video>>;
}

/** Reads a videos body: `{data, pagination}` bare or inside the usual envelope, or snake_case page members. */
function decodeVideos(body: unknown, requestedPage: number | undefined): Page<Video> {
  const r = unwrap(body);
  const items = z.array(videoSchema).parse(r.data);
  const p = pagination.parse(isRecord(r.pagination) ? r.pagination : r);
  return toPage(
    items,
    {
      page: p.page,
      nextPage: p.nextPage ?? p.next_page,
      totalPages: p.totalPages ?? p.total_pages,
      total: p.total,
    },
    requestedPage,
  );
}

/** Creates the videos operations. */
export function createVideosApi(context: OperationContext): VideosApi {
  return {
    search: bindOperation(context, {
      operation: 'videos.search',
      input: videoSearchInput,
      request: (input) => ({ path: '/api/v1/videos', query: encodeQuery(input) }),
      decode: (body, input) => decodeVideos(body, input.page),
      items: (data) => data.items.length,
    }),
  };
}
