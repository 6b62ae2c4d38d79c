/**
 * Videos (`GET /api/v1/videos`, shape C errors, 1 credit per video). As seen live, the answer has no
 * `message`/`response` envelope: `{ data, pagination: { page, perPage, total, totalPages } }`.
 */
import { SORT_ORDERS, VIDEO_SORT_FIELDS } from '../../core/service/enums.js';
import type { VideoRecord } from '../data/records.js';
import { createQueryReader } from '../server/input.js';
import type { Operation } from '../server/router.js';

type Predicate = (video: VideoRecord) => boolean;

const RANGES: readonly [string, keyof VideoRecord][] = [
  ['userFollowers', 'user_followers'],
  ['views', 'views'],
  ['likes', 'likes'],
  ['comments', 'comments'],
  ['shares', 'shares'],
];

const NAMES = [
  ...RANGES.flatMap(([stem]) => [`${stem}Min`, `${stem}Max`]),
  'userHandle',
  'hashtags',
  'textSearch',
  'sortBy',
  'sortOrder',
  'page',
  'perPage',
];

const SORT_FIELDS: Record<(typeof VIDEO_SORT_FIELDS)[number], keyof VideoRecord> = {
  views: 'views',
  likes: 'likes',
  shares: 'shares',
  user_followers: 'user_followers',
  date_created: 'date_created_timestamp',
};

/** The videos operation. */
export function videoOperations(): Operation[] {
  return [
    {
      method: 'GET',
      pattern: '/api/v1/videos',
      family: 'C',
      handle: ({ query, world, requireCredits, charge }) => {
        const reader = createQueryReader(query);
        reader.rejectUnknown(NAMES);
        const filters: Predicate[] = [];
        for (const [stem, field] of RANGES) {
          const min = reader.integer(`${stem}Min`, { min: 0 });
          const max = reader.integer(`${stem}Max`, { min: 0 });
          if (min !== undefined) filters.push((v) => (v[field] as number) >= min);
          if (max !== undefined) filters.push((v) => (v[field] as number) <= max);
        }
        const handle = reader.string('userHandle')?.replace(/^@/, '').toLowerCase();
        if (handle) filters.push((v) => v.user_handle.toLowerCase() === handle);
        const tags = reader.list('hashtags')?.map((t) => t.replace(/^#/, '').toLowerCase());
        if (tags) filters.push((v) => tags.every((t) => v.hashtags.some((h) => h.toLowerCase() === t)));
        const text = reader.string('textSearch')?.toLowerCase();
        if (text) {
          filters.push((v) => [v.description, ...(v.subtitles ?? [])].join(' ').toLowerCase().includes(text));
        }
        const sortBy = SORT_FIELDS[reader.choice('sortBy', VIDEO_SORT_FIELDS) ?? 'views'];
        const direction = (reader.choice('sortOrder', SORT_ORDERS) ?? 'desc') === 'asc' ? 1 : -1;
        const page = reader.integer('page', { min: 1 }) ?? 1;
        const perPage = reader.integer('perPage', { min: 1, max: 100 }) ?? 20;

        requireCredits(1);
        const matching = world
          .videos()
          .filter((v) => filters.every((f) => f(v)))
          .sort((a, b) => ((a[sortBy] as number) - (b[sortBy] as number)) * direction || a.iv_id - b.iv_id);
        const data = matching.slice((page - 1) * perPage, page * perPage);
        charge(data.length);
        return {
          body: {
            data,
            pagination: {
              page,
              perPage,
              total: matching.length,
              totalPages: Math.ceil(matching.length / perPage),
            },
          },
        };
      },
    },
  ];
}
