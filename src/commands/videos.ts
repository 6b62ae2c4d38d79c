/** `/scout videos`: indexed videos by creator, reach, hashtags and text, sorted, with a pager. */
import type { z } from 'zod';
import type { ParamTable } from '../core/command/params.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import { SORT_ORDERS, VIDEO_SORT_FIELDS } from '../core/service/enums.js';
import { estimateCost, type Video, videoSearchInput } from '../core/service/index.js';
import { videoSchema } from '../core/service/videos.js';
import {
  bold,
  CARD_LONG_TEXT_MAX,
  CARDS_PER_PAGE,
  divider,
  fields,
  formatCount,
  formatDate,
  link,
  normalizeHandle,
  platformLabel,
  profileUrl,
  type ReplyNode,
  shortText,
  text,
} from '../core/ui/index.js';
import { createPagedResults } from './media/paged-results.js';

type VideoQuery = z.output<typeof videoSearchInput>;

/** Hashtags shown per video. */
const HASHTAGS_SHOWN = 12;

/** Stored fields of a video: everything shown (subtitles are not, and can be long). */
const VIDEO_FIELDS = Object.keys(videoSchema.shape).filter((field) => field !== 'subtitles');

/** One video, readably: who posted it where and when, its counts, description and hashtags. */
export function videoNodes(video: Video, position: number): ReplyNode[] {
  const handle = normalizeHandle(video.user_handle);
  const platform = typeof video.source === 'string' && video.source !== '' ? video.source : null;
  const url = profileUrl(platform, handle);
  const name = handle === null ? 'Unknown creator' : `@${handle}`;
  const posted =
    typeof video.date_created_timestamp === 'number' ? formatDate(video.date_created_timestamp * 1000) : null;
  const tags = (video.hashtags ?? []).map((tag) => `#${tag.replace(/^#+/, '')}`);
  const description = shortText(video.description, CARD_LONG_TEXT_MAX);
  const nodes: Array<ReplyNode | null> = [
    text(
      `${position}. `,
      url === null ? bold(name) : link(name, url),
      platform === null ? '' : ` · ${platformLabel(platform)}`,
    ),
    description === null ? null : text(description),
    fields([
      { label: 'Views', value: formatCount(video.views ?? null), inline: true },
      { label: 'Likes', value: formatCount(video.likes ?? null), inline: true },
      { label: 'Comments', value: formatCount(video.comments ?? null), inline: true },
      { label: 'Shares', value: formatCount(video.shares ?? null), inline: true },
      { label: 'Followers', value: formatCount(video.user_followers ?? null), inline: true },
      { label: 'Posted', value: posted, inline: true },
      {
        label: 'Hashtags',
        value:
          tags.length === 0
            ? null
            : `${tags.slice(0, HASHTAGS_SHOWN).join(' ')}${tags.length > HASHTAGS_SHOWN ? ` (+${tags.length - HASHTAGS_SHOWN})` : ''}`,
      },
    ]),
    divider(),
  ];
  return nodes.filter((node): node is ReplyNode => node !== null);
}

const videosResults = createPagedResults<VideoQuery, Video>({
  kind: 'videos.page',
  noun: 'Videos',
  empty: 'No videos match these filters. Try fewer filters or a wider range.',
  query: videoSearchInput,
  item: videoSchema,
  async fetch(ctx, query, page, size) {
    const result = await ctx.service.videos.search({ ...query, page, perPage: size });
    return { page: result.data, cost: result.meta.cost };
  },
  estimate: (size) => estimateCost('videos.search', { perPage: size }),
  keep: (video) =>
    Object.fromEntries(VIDEO_FIELDS.map((field) => [field, video[field as keyof Video] ?? null])),
  render: videoNodes,
});

const range = (stem: string, what: string, example: string, aliases: string[]) => ({
  kind: 'range' as const,
  min: `${stem}Min`,
  max: `${stem}Max`,
  integer: true,
  aliases,
  description: `${what}, e.g. ${example}.`,
  example,
});

const VIDEO_PARAMS: ParamTable = {
  userHandle: {
    kind: 'text',
    aliases: ['handle', 'user', 'creator'],
    description: 'Only this creator’s videos (handle, @ optional).',
    example: '@ana',
  },
  userFollowers: range('userFollowers', 'Followers of the creator', '10k-1m', ['followers']),
  views: { ...range('views', 'Views', '>100k', ['view']), rank: { common: 1 } },
  likes: range('likes', 'Likes', '10k-50k', ['like']),
  comments: range('comments', 'Comments', '>500', ['comment']),
  shares: range('shares', 'Shares', '>1k', ['share']),
  hashtags: {
    kind: 'texts',
    aliases: ['hashtag', 'tags', 'tag'],
    description: 'Hashtags the video has, all of them (comma list, # optional).',
    example: 'fitness,gym',
  },
  textSearch: {
    kind: 'text',
    aliases: ['text', 'search', 'q'],
    description: 'Words in the description or subtitles.',
    example: '"morning routine"',
  },
  sortBy: {
    kind: 'choice',
    values: VIDEO_SORT_FIELDS,
    aliases: ['sort'],
    description: 'Sort field (default views).',
    rank: 'paging',
  },
  sortOrder: {
    kind: 'choice',
    values: SORT_ORDERS,
    aliases: ['order'],
    description: 'asc or desc (default desc).',
    rank: 'paging',
  },
  page: {
    kind: 'integer',
    description: 'Service page to start from (default 1).',
    example: '2',
    rank: 'paging',
  },
  perPage: {
    kind: 'integer',
    rank: 'paging',
    aliases: ['size', 'pageSize', 'limit'],
    description: `Videos bought per page, 1-100 (default ${CARDS_PER_PAGE}); 1 credit each.`,
    example: '5',
  },
};

type VideoCommandInput = z.output<typeof videoSearchInput>;

const sizeOf = (input: VideoCommandInput) => input.perPage ?? CARDS_PER_PAGE;

/** The stored query: every filter given, without page and page size. */
function queryOf(input: VideoCommandInput): VideoQuery {
  const { page: _page, perPage: _size, ...filters } = input;
  return filters;
}

/** The videos family. */
export const videosFamily = defineFamily({
  name: 'videos',
  aliases: ['video'],
  description: 'Indexed short videos by creator, views, likes, hashtags and text, sorted as you like.',
  defaultCommand: 'search',
  commands: [
    defineCommand({
      name: 'search',
      working: 'Searching videos…',
      description: 'Search videos by creator, counts, hashtags or text; 5 per page with a pager.',
      params: VIDEO_PARAMS,
      schema: videoSearchInput,
      examples: [
        'videos hashtags:fitness sort:likes',
        'videos handle:@ana views:>100k order:asc',
        'videos text:"morning routine" followers:10k-1m perPage:10',
      ],
      cost: '1 credit per video shown (5 per page unless perPage says otherwise)',
      estimate: (input) => estimateCost('videos.search', { perPage: sizeOf(input) }),
      run: (ctx, input) => videosResults.show(ctx, queryOf(input), input.page ?? 1, sizeOf(input)),
    }),
  ],
  actions: [videosResults.action],
});
