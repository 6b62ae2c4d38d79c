/** The creator filters shared by v2 search and v1 creators: parsing, matching, sorting and paging. */

import { CREATOR_COUNTRIES } from '../../core/service/countries.js';
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
import type { CreatorProfile } from '../data/records.js';
import { SandboxHttpError } from '../server/http.js';
import { createQueryReader, type QueryReader } from '../server/input.js';

type Predicate = (creator: CreatorProfile) => boolean;

/** Numeric bounds: query name stem, profile value, integer or not. Engagement bounds are percentages. */
const BOUNDS: readonly [string, (c: CreatorProfile) => number | null, boolean][] = [
  ['followers', (c) => c.followers, true],
  ['averageViews', (c) => c.avg_views, true],
  ['averageLikes', (c) => c.avg_likes, true],
  ['engagementRate', (c) => Math.round(c.engagement_rate * 1_000_000) / 10_000, false],
  ['uploadsPerWeek', (c) => c.uploads_per_week, false],
  ['uploadsPerMonth', (c) => c.uploads_per_month, false],
  ['avgVideoDurationSeconds', (c) => c.avg_video_duration_seconds, false],
  ['promotionsCount', (c) => c.promotions_count, true],
  ['affiliatePostsCount', (c) => c.affiliate_posts_count, true],
  ['sponsorshipPostsCount', (c) => c.sponsorship_posts_count, true],
];

const NAMES = [
  ...BOUNDS.flatMap(([stem]) => [`${stem}Min`, `${stem}Max`]),
  'age',
  'gender',
  'race',
  'hairColor',
  'bodyComplexion',
  'mainCategory',
  'subCategory',
  'subCategories',
  'bio',
  'promotedProducts',
  'nichesToPromote',
  'promotedBusinessType',
  'keywords',
  'keywordsExcluded',
  'country',
  'source',
  'accountType',
  'username',
  'language',
  'hashtags',
  'emailExists',
  'email',
  'sortBy',
  'sortOrder',
  'page',
  'perPage',
];

/** Filter spellings and profile spellings compare equal: "Blonde hair", "blonde" and "BLONDE" are one. */
function looksLike(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .replace(/\s+hair$/, '');
}

function looseChoices(reader: QueryReader, name: string, values: readonly string[]): Set<string> | undefined {
  const items = reader.list(name);
  if (!items) return undefined;
  const allowed = new Set(values.map(looksLike));
  for (const item of items) {
    if (!allowed.has(looksLike(item))) {
      throw new SandboxHttpError(400, `${name} values must be among ${values.join(', ')}; got '${item}'`);
    }
  }
  return new Set(items.map(looksLike));
}

/** A parsed creator query. */
export interface CreatorQuery {
  readonly matches: Predicate;
  readonly sortBy: (typeof CREATOR_SORT_FIELDS)[number];
  readonly sortOrder: (typeof SORT_ORDERS)[number];
  readonly page: number;
  readonly perPage: number;
  /** Accepted parameters, for the `params` echo. */
  readonly accepted: Record<string, unknown>;
}

/** Parses the query of a creator search; `platforms` are the accepted `source` values. Bad input is 400. */
export function parseCreatorQuery(query: URLSearchParams, platforms: readonly string[]): CreatorQuery {
  const reader = createQueryReader(query);
  reader.rejectUnknown(NAMES);
  const filters: Predicate[] = [];
  for (const [stem, value, integer] of BOUNDS) {
    const read = (name: string) =>
      integer ? reader.integer(name, { min: 0 }) : reader.number(name, { min: 0 });
    // Zero or absent means no bound.
    const min = read(`${stem}Min`);
    const max = read(`${stem}Max`);
    if (min) filters.push((c) => (value(c) ?? Number.NEGATIVE_INFINITY) >= min);
    if (max) filters.push((c) => (value(c) ?? Number.POSITIVE_INFINITY) <= max);
  }
  const ages = reader.list('age');
  for (const age of ages ?? []) {
    if (!(AGE_GROUPS as readonly string[]).includes(age)) {
      throw new SandboxHttpError(400, `age values must be among ${AGE_GROUPS.join(', ')}; got '${age}'`);
    }
  }
  if (ages) filters.push((c) => ages.includes(c.age));
  const gender = reader.choice('gender', GENDERS);
  if (gender) filters.push((c) => c.gender === gender);
  for (const [name, values, field] of [
    ['race', RACES, 'race'],
    ['hairColor', HAIR_COLORS, 'hair_color'],
    ['bodyComplexion', BODY_COMPLEXIONS, 'body_complexion'],
  ] as const) {
    const wanted = looseChoices(reader, name, values);
    if (wanted) filters.push((c) => wanted.has(looksLike(c[field])));
  }
  const mainCategory = reader.choice('mainCategory', MAIN_CATEGORIES);
  if (mainCategory) filters.push((c) => c.main_category === mainCategory);
  const subCategories = reader.list('subCategories') ?? reader.list('subCategory');
  if (subCategories) {
    const terms = subCategories.map((s) => s.toLowerCase());
    filters.push((c) => c.categories.some((cat) => terms.some((t) => cat.toLowerCase().includes(t))));
  }
  const bio = reader.string('bio');
  if (bio) {
    const words = bio
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean);
    filters.push((c) => words.every((w) => c.bio.toLowerCase().includes(w)));
  }
  const allIn = (name: string, field: (c: CreatorProfile) => readonly string[]) => {
    const terms = reader.list(name)?.map((t) => t.toLowerCase());
    if (terms) filters.push((c) => terms.every((t) => field(c).some((v) => v.toLowerCase().includes(t))));
  };
  allIn('promotedProducts', (c) => c.promoted_products);
  allIn('nichesToPromote', (c) => c.best_promotion_niches);
  allIn('promotedBusinessType', (c) => [...c.promoted_products, ...c.best_promotion_niches]);
  const tags = reader.list('hashtags')?.map((t) => t.replace(/^#/, '').toLowerCase());
  if (tags) filters.push((c) => tags.every((t) => c.hashtags.some((h) => h.toLowerCase() === t)));
  const haystack = (c: CreatorProfile) =>
    [c.handle, c.nickname, c.bio, c.description ?? '', ...c.categories, ...c.hashtags]
      .join(' ')
      .toLowerCase();
  const keywords = reader.list('keywords')?.map((k) => k.toLowerCase());
  if (keywords) filters.push((c) => keywords.some((k) => haystack(c).includes(k)));
  const excluded = reader.list('keywordsExcluded')?.map((k) => k.toLowerCase());
  if (excluded) filters.push((c) => !excluded.some((k) => haystack(c).includes(k)));
  const country = reader.choice('country', CREATOR_COUNTRIES);
  if (country) filters.push((c) => c.country === country);
  const source = reader.choice('source', platforms);
  if (source) filters.push((c) => c.source === source);
  const accountType = reader.choice('accountType', ACCOUNT_TYPES);
  if (accountType) filters.push((c) => c.account_type === accountType);
  const username = reader.string('username')?.replace(/^@/, '').toLowerCase();
  if (username) filters.push((c) => c.handle.toLowerCase().includes(username));
  const language = reader.choice('language', LANGUAGES);
  if (language) filters.push((c) => c.language === language);
  if (reader.boolean('emailExists')) filters.push((c) => c.email !== null);
  const email = reader.string('email')?.toLowerCase();
  if (email !== undefined) {
    if (!/^[^@\s]+@[^@\s]+$/.test(email))
      throw new SandboxHttpError(400, `email must be an email address, got '${email}'`);
    filters.push((c) => c.email?.toLowerCase() === email);
  }
  const sortBy = reader.choice('sortBy', CREATOR_SORT_FIELDS) ?? 'date_created';
  const sortOrder = reader.choice('sortOrder', SORT_ORDERS) ?? 'desc';
  const page = reader.integer('page', { min: 1 }) ?? 1;
  const perPage = reader.integer('perPage', { min: 1, max: 100 }) ?? 10;
  return {
    matches: (c) => filters.every((f) => f(c)),
    sortBy,
    sortOrder,
    page,
    perPage,
    accepted: { ...reader.accepted, page, perPage },
  };
}

/** One page of a creator query's results. */
export interface CreatorPage {
  data: CreatorProfile[];
  total: number;
  totalPages: number;
  nextPage: number;
}

/** Filters, sorts (ties by id) and pages creators. */
export function runCreatorQuery(creators: readonly CreatorProfile[], query: CreatorQuery): CreatorPage {
  const field = query.sortBy === 'date_created' ? 'date_created_timestamp' : query.sortBy;
  const direction = query.sortOrder === 'asc' ? 1 : -1;
  const matching = creators
    .filter(query.matches)
    .sort((a, b) => (a[field] - b[field]) * direction || a.user_id.localeCompare(b.user_id));
  const totalPages = Math.ceil(matching.length / query.perPage);
  const start = (query.page - 1) * query.perPage;
  return {
    data: matching.slice(start, start + query.perPage),
    total: matching.length,
    totalPages,
    nextPage: query.page < totalPages ? query.page + 1 : 0,
  };
}
