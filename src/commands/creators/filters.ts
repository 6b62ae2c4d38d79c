/**
 * The creator filter options, declared once for creator search (v2) and v1 creators: the two operations share
 * their filters, and only the allowed platforms differ. Keys are the contract's parameter names.
 */
import type { z } from 'zod';
import type { OptionRank, ParamSpec, ParamTable } from '../../core/command/params.js';
import { shortName } from '../../core/command/usage.js';
import { COUNTRY_SYNONYMS, CREATOR_COUNTRIES } from '../../core/service/countries.js';
import { HAIR_ALIASES, RACE_ALIASES } from '../../core/service/creators.js';
import {
  ACCOUNT_TYPES,
  AGE_GROUPS,
  BODY_COMPLEXIONS,
  CREATOR_SORT_FIELDS,
  GENDERS,
  HAIR_COLORS,
  LANGUAGES,
  MAIN_CATEGORIES,
  RACES,
  SORT_ORDERS,
} from '../../core/service/enums.js';

type RangeOptions = { integer: boolean; percent?: boolean; aliases?: readonly string[]; rank?: OptionRank };

/**
 * A creator range, set by `<stem>Min`/`<stem>Max`. The service reads a bound of 0 as no bound (the contract says so
 * of cadence, duration and post counts; its emulator does so of every creator bound), so a maximum of 0 is refused.
 */
function range(stem: string, description: string, example: string, options: RangeOptions): ParamSpec {
  return {
    kind: 'range',
    min: `${stem}Min`,
    max: `${stem}Max`,
    integer: options.integer,
    zeroIsUnset: true,
    ...(options.percent === undefined ? {} : { percent: options.percent }),
    ...(options.aliases === undefined ? {} : { aliases: options.aliases }),
    ...(options.rank === undefined ? {} : { rank: options.rank }),
    description,
    example,
  };
}

/** Every creator filter except `source` (whose values differ between v1 and v2), keyed by contract name. */
export const CREATOR_FILTER_PARAMS: ParamTable = {
  followers: range('followers', 'Follower count range, e.g. 10k-100k or >50k.', '10k-100k', {
    integer: true,
    rank: { common: 2 },
    aliases: ['subscribers', 'follower'],
  }),
  averageViews: range('averageViews', 'Average views per post, e.g. >20k.', '>20k', {
    integer: true,
    rank: { common: 7 },
    aliases: ['views', 'avgViews'],
  }),
  averageLikes: range('averageLikes', 'Average likes per post, e.g. 1k-10k.', '1k-10k', {
    integer: true,
    aliases: ['likes', 'avgLikes'],
  }),
  engagementRate: range(
    'engagementRate',
    'Engagement rate in percent, 0-100: er:>=3 means at least 3%.',
    '>3',
    {
      integer: false,
      percent: true,
      aliases: ['er', 'engagement'],
      rank: { common: 6 },
    },
  ),
  uploadsPerWeek: range('uploadsPerWeek', 'Posts per week, e.g. 2-7.', '2-7', {
    integer: false,
    aliases: ['perWeek', 'weekly'],
  }),
  uploadsPerMonth: range('uploadsPerMonth', 'Posts per month, e.g. >8.', '>8', {
    integer: false,
    aliases: ['perMonth', 'monthly'],
  }),
  avgVideoDurationSeconds: range('avgVideoDurationSeconds', 'Average video length in seconds.', '15-60', {
    integer: false,
    aliases: ['duration', 'videoDuration'],
  }),
  promotionsCount: range('promotionsCount', 'Promotion posts in the analysed sample.', '>1', {
    integer: true,
    aliases: ['promotions'],
  }),
  affiliatePostsCount: range('affiliatePostsCount', 'Affiliate-linked posts in the analysed sample.', '>1', {
    integer: true,
    aliases: ['affiliate', 'affiliatePosts'],
  }),
  sponsorshipPostsCount: range('sponsorshipPostsCount', 'Sponsored posts in the analysed sample.', '>1', {
    integer: true,
    aliases: ['sponsorships', 'sponsored', 'sponsorshipPosts'],
  }),
  age: {
    kind: 'choices',
    values: AGE_GROUPS,
    description: 'Age groups, comma-separated.',
    example: '20-29,30-39',
  },
  gender: { kind: 'choice', values: GENDERS, description: 'male or female.', rank: { common: 10 } },
  race: {
    kind: 'choices',
    values: [...RACES, ...Object.keys(RACE_ALIASES)],
    description: 'Race values, comma-separated.',
    example: 'White',
  },
  hairColor: {
    kind: 'choices',
    // `blonde` is accepted as well as `Blonde hair`; the client sends the contract's spelling.
    values: [...HAIR_COLORS, ...Object.keys(HAIR_ALIASES)],
    aliases: ['hair'],
    description: 'Hair colours, comma-separated.',
    example: '"Blonde hair"',
  },
  bodyComplexion: {
    kind: 'choices',
    values: BODY_COMPLEXIONS,
    aliases: ['body'],
    description: 'Body complexions, comma-separated.',
    example: 'Ordinary',
  },
  mainCategory: {
    kind: 'choice',
    values: MAIN_CATEGORIES,
    aliases: ['category'],
    description: 'One main category.',
    example: 'Fitness',
    rank: { common: 5 },
  },
  subCategory: {
    kind: 'text',
    aliases: ['subcategories', 'sub'],
    description: 'Free-text sub-category.',
    example: 'yoga',
  },
  bio: { kind: 'text', description: 'Words in the bio.', example: '"vegan recipes"' },
  promotedProducts: {
    kind: 'texts',
    aliases: ['products', 'product'],
    description: 'Products promoted; a comma list must all match.',
    example: 'protein',
  },
  nichesToPromote: {
    kind: 'texts',
    aliases: ['niche', 'niches'],
    description: 'Niches to promote; a comma list must all match.',
    example: 'yoga',
    rank: { common: 9 },
  },
  keywords: {
    kind: 'texts',
    aliases: ['keyword', 'kw'],
    description: 'Keywords; a comma list matches any of them.',
    example: 'pilates',
    rank: { common: 8 },
  },
  keywordsExcluded: {
    kind: 'texts',
    aliases: ['exclude', 'excluded', 'without'],
    description: 'Keywords that must not appear.',
    example: 'gambling',
  },
  promotedBusinessType: {
    kind: 'text',
    aliases: ['business', 'businessType'],
    description: 'Kind of business promoted.',
    example: 'skincare',
  },
  country: {
    kind: 'choice',
    values: CREATOR_COUNTRIES,
    synonyms: COUNTRY_SYNONYMS,
    valuesText: 'any country name or two-letter code: Pakistan, PK, USA, UK',
    description: 'Country of the creator.',
    example: '"United States"',
    rank: { common: 3 },
  },
  accountType: {
    kind: 'choice',
    values: ACCOUNT_TYPES,
    aliases: ['type', 'account'],
    description: 'Account type.',
  },
  username: {
    kind: 'text',
    aliases: ['handle', 'user'],
    description: 'Handle to look for.',
    example: 'anna',
    rank: { common: 12 },
  },
  language: {
    kind: 'choice',
    values: LANGUAGES,
    aliases: ['lang'],
    description: 'Language (lowercase name).',
    example: 'english',
    rank: { common: 4 },
  },
  hashtags: {
    kind: 'texts',
    aliases: ['hashtag', 'tag', 'tags'],
    description: 'Hashtags; a comma list must all be present.',
    example: 'yoga',
  },
  emailExists: {
    kind: 'boolean',
    aliases: ['hasEmail', 'withEmail'],
    description: 'Only creators with a known email.',
    example: 'yes',
    rank: { common: 11 },
  },
  email: { kind: 'text', description: 'Find a creator by email.', example: 'ana@example.com' },
  sortBy: {
    kind: 'choice',
    values: CREATOR_SORT_FIELDS,
    aliases: ['sort'],
    description: 'Sort field.',
    rank: 'paging',
  },
  sortOrder: {
    kind: 'choice',
    values: SORT_ORDERS,
    aliases: ['order'],
    description: 'asc or desc.',
    rank: 'paging',
  },
};

/** Other words for the platforms: their short forms and what their creators are called. */
const PLATFORM_SYNONYMS: Readonly<Record<string, string>> = {
  'tik tok': 'tiktok',
  tiktoker: 'tiktok',
  tiktokers: 'tiktok',
  tt: 'tiktok',
  ig: 'instagram',
  insta: 'instagram',
  instagrammer: 'instagram',
  instagrammers: 'instagram',
  yt: 'youtube',
  'you tube': 'youtube',
  youtuber: 'youtube',
  youtubers: 'youtube',
  tweeter: 'twitter',
  tweeters: 'twitter',
  'linked in': 'linkedin',
  linkedinners: 'linkedin',
  streamer: 'twitch',
  streamers: 'twitch',
  twitcher: 'twitch',
};

/** The platform option, with the platforms an operation accepts. */
export function sourceParam(platforms: readonly string[]): ParamSpec {
  return {
    kind: 'choice',
    values: platforms,
    aliases: ['platform', 'network'],
    // The words people use for each platform's creators, kept to the platforms this operation takes.
    synonyms: Object.fromEntries(
      Object.entries(PLATFORM_SYNONYMS).filter(([, value]) => platforms.includes(value)),
    ),
    description: `Platform: ${platforms.join(', ')}.`,
    example: platforms[0] ?? 'tiktok',
    // First of what people filter by; the places of the others are in CREATOR_FILTER_PARAMS.
    rank: { common: 1 },
  };
}

/** The whole filter table of an operation: the shared filters and its platforms. */
export function creatorFilterParams(platforms: readonly string[]): ParamTable {
  return { ...CREATOR_FILTER_PARAMS, source: sourceParam(platforms) };
}

const SUMMARY_MAX = 300;

/** A value as people type it: a list comma-joined, a number with separators, yes or no. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** The filters' table, each with the name people type it by (`category`, not the contract's `mainCategory`). */
const named = () =>
  Object.entries(creatorFilterParams([])).map(([name, spec]) => ({
    name,
    said: shortName(name, spec),
    spec,
  }));

/**
 * The filters given, in people's words for a results header: each option by the name people type it by, its value
 * as they write it (`followers 10,000-100,000 · category Fitness · hasEmail yes`).
 */
export function summarizeFilters(filters: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const { name, said, spec } of named()) {
    if (spec.kind === 'range') {
      const low = filters[spec.min];
      const high = filters[spec.max];
      const unit = spec.percent === true ? '%' : '';
      if (low !== undefined && high !== undefined) parts.push(`${said} ${shown(low)}-${shown(high)}${unit}`);
      else if (low !== undefined) parts.push(`${said} ≥${shown(low)}${unit}`);
      else if (high !== undefined) parts.push(`${said} ≤${shown(high)}${unit}`);
      continue;
    }
    const value = filters[name];
    if (value !== undefined) parts.push(`${said} ${shown(value)}`);
  }
  const summary = parts.join(' · ');
  return summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary;
}

/** The filters given (a range counts once), by their contract names and the names people type them by. */
function given(filters: Readonly<Record<string, unknown>>) {
  return named().filter(({ name, spec }) =>
    spec.kind === 'range'
      ? filters[spec.min] !== undefined || filters[spec.max] !== undefined
      : filters[name] !== undefined,
  );
}

/** The filters given (a range counts once), by the names people type them by, for advice on loosening them. */
export function givenFilters(filters: Readonly<Record<string, unknown>>): string[] {
  return given(filters).map(({ said }) => said);
}

/** The filters given that narrow a search (a range counts once): sorting only orders it, paging only pages it. */
export function narrowingFilters(filters: Readonly<Record<string, unknown>>): string[] {
  return given(filters)
    .filter(({ spec }) => spec.rank !== 'paging')
    .map(({ said }) => said);
}

/** What a creator search given no filter asks instead of buying a page of anyone. */
export const WHICH_CREATORS =
  'Which creators? Add a filter, such as category:Fitness, country:France or followers:10k-100k, or say it in words: fitness creators in France.';

/**
 * `schema`, refusing an input with no filter that narrows it (nothing, or only sorting and paging): such a search
 * is no search at all, and would buy a page of profiles of anyone. Refused by the schema, it is refused before
 * anything is sent, and a form opens for it where a platform shows one (forms/spec.ts `needsInput`).
 */
export function withAFilter<T extends z.ZodType<Readonly<Record<string, unknown>>>>(schema: T): T {
  return schema.superRefine((input, ctx) => {
    if (narrowingFilters(input).length === 0) ctx.addIssue({ code: 'custom', message: WHICH_CREATORS });
  });
}
