/** Creator discovery: free id search (v2), profiles by filter (v1) and profiles by id (v2). */

import { z } from 'zod';
import { COUNTRY_SYNONYMS, CREATOR_COUNTRIES } from './countries.js';
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
  SEARCH_PLATFORMS,
  SORT_ORDERS,
  V1_PLATFORMS,
} from './enums.js';
import { encodeQuery, type QueryValue } from './http.js';
import {
  checkRanges,
  choice,
  choices,
  decimal,
  email,
  flag,
  idList,
  minMaxPairs,
  parseInput,
  text,
  textList,
  wholeNumber,
} from './input-kit.js';
import { createProfileBatcher, type ProfileBatcher, type ProfileBatchSettings } from './profile-batch.js';
import { bool, id, num, snakePage, snakePageNumbers, str, strList, toPage, unwrap } from './response-kit.js';
import {
  bindOperation,
  meteredCall,
  type Operation,
  type OperationContext,
  type OperationDefinition,
  sendParsed,
} from './runner.js';
import type { Page } from './types.js';

const count = () => wholeNumber(0).optional();
const amount = () => decimal(0).optional();

/** Short hair colour words people and public clients use, mapped to the contract's spelling. */
export const HAIR_ALIASES = {
  blonde: 'Blonde hair',
  brunette: 'Brunette hair',
  black: 'Black hair',
  red: 'Red hair',
  white: 'White hair',
} as const;

/** Short race words mapped to the contract's spelling. */
export const RACE_ALIASES = { latino: 'Latino Hispanic', hispanic: 'Latino Hispanic' } as const;

/** Filters shared by creator search and v1 creators, keyed by the contract's query names. */
const filterShape = {
  followersMin: count(),
  followersMax: count(),
  averageViewsMin: count(),
  averageViewsMax: count(),
  averageLikesMin: count(),
  averageLikesMax: count(),
  /** A percentage (5 means 5%), unlike profiles' fraction. */
  engagementRateMin: amount(),
  engagementRateMax: amount(),
  uploadsPerWeekMin: amount(),
  uploadsPerWeekMax: amount(),
  uploadsPerMonthMin: amount(),
  uploadsPerMonthMax: amount(),
  avgVideoDurationSecondsMin: amount(),
  avgVideoDurationSecondsMax: amount(),
  promotionsCountMin: count(),
  promotionsCountMax: count(),
  affiliatePostsCountMin: count(),
  affiliatePostsCountMax: count(),
  sponsorshipPostsCountMin: count(),
  sponsorshipPostsCountMax: count(),
  age: choices(AGE_GROUPS).optional(),
  gender: choice(GENDERS).optional(),
  race: choices(RACES, RACE_ALIASES).optional(),
  hairColor: choices(HAIR_COLORS, HAIR_ALIASES).optional(),
  bodyComplexion: choices(BODY_COMPLEXIONS).optional(),
  mainCategory: choice(MAIN_CATEGORIES).optional(),
  subCategory: text().optional(),
  /** The live name of `subCategory` (service-notes); sent as `subCategory`. */
  subCategories: text().optional(),
  bio: text().optional(),
  promotedProducts: textList().optional(),
  nichesToPromote: textList().optional(),
  keywords: textList().optional(),
  keywordsExcluded: textList().optional(),
  promotedBusinessType: text().optional(),
  country: choice(CREATOR_COUNTRIES, COUNTRY_SYNONYMS).optional(),
  accountType: choice(ACCOUNT_TYPES).optional(),
  username: text().optional(),
  language: choice(LANGUAGES).optional(),
  hashtags: textList().optional(),
  emailExists: flag().optional(),
  email: email().optional(),
  sortBy: choice(CREATOR_SORT_FIELDS).optional(),
  sortOrder: choice(SORT_ORDERS).optional(),
  page: wholeNumber(1).optional(),
  perPage: wholeNumber(1, 100).optional(),
};

const RANGE_PAIRS = minMaxPairs(Object.keys(filterShape));

function filterSchema<P extends z.ZodType>(source: P) {
  return z
    .strictObject({ ...filterShape, source: source.optional() })
    .superRefine((value, ctx) => checkRanges(value, ctx, RANGE_PAIRS))
    .transform(({ subCategories, ...rest }) => ({ ...rest, subCategory: rest.subCategory ?? subCategories }));
}

/** Input of creator search (`GET /api/v2/creators/search`): every filter optional. */
export const creatorSearchInput = filterSchema(choice(SEARCH_PLATFORMS));
/** Input of v1 creators (`GET /api/v1/creators`): the search filters, and `source` may also be the live-streaming platform. */
export const creatorListInput = filterSchema(choice(V1_PLATFORMS));

/** Input of creator search as callers write it. */
export type CreatorSearchInput = z.input<typeof creatorSearchInput>;
/** Input of v1 creators as callers write it. */
export type CreatorListInput = z.input<typeof creatorListInput>;

/** Input of creators get: `userIds`, or its alias `user_ids`. */
export const creatorGetInput = z
  .strictObject({ userIds: idList(1).optional(), user_ids: idList(1).optional() })
  .superRefine((value, ctx) => {
    if (value.userIds === undefined && value.user_ids === undefined) {
      ctx.addIssue({ code: 'custom', path: ['userIds'], message: 'is required (a list of creator ids)' });
    } else if (value.userIds !== undefined && value.user_ids !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['user_ids'], message: 'cannot be given together with userIds' });
    }
  })
  .transform((value) => ({ userIds: value.userIds ?? value.user_ids ?? [] }));

/** Input of creators get as callers write it. */
export type CreatorGetInput = z.input<typeof creatorGetInput>;

/** A creator profile (contract field names, snake_case); unknown fields are kept. */
export const creatorProfileSchema = z.looseObject({
  user_id: id,
  handle: str,
  nickname: str,
  bio: str,
  source: str,
  email: str,
  categories: strList,
  followers: num,
  following: num,
  total_videos: num,
  total_likes: num,
  avg_views: num,
  avg_likes: num,
  avg_comments: num,
  engagement_rate: num,
  main_website: str,
  websites: z.array(z.unknown()).nullable().optional(),
  description: str,
  promoted_products: strList,
  best_promotion_niches: strList,
  main_category: str,
  country: str,
  date_created_timestamp: num,
  avatar_url: str,
  age: str,
  gender: str,
  account_type: str,
  race: str,
  hair_color: str,
  body_complexion: str,
  language: str,
  hashtags: strList,
  uploads_per_week: num,
  uploads_per_month: num,
  avg_video_duration_seconds: num,
  promotions_count: num,
  affiliate_posts_count: num,
  sponsorship_posts_count: num,
});

/** A creator profile. */
export type CreatorProfile = z.output<typeof creatorProfileSchema>;

/** A page of v1 creators, with the trial flag. */
export type CreatorListPage = Page<CreatorProfile> & { isTrial: boolean | null };

/** Profiles by id, with the ids the service says were requested and the trial flag. */
export interface CreatorGetResult {
  creators: CreatorProfile[];
  requestedIds: string[];
  /** `is_trial`: the key's account is a trial account; null when the answer does not say. */
  isTrial: boolean | null;
}

const searchBody = z.looseObject({ ...snakePage, data: z.array(id) });
const profilesBody = z.looseObject({ ...snakePage, data: z.array(creatorProfileSchema), is_trial: bool });

function filterQuery(input: z.output<typeof creatorListInput>) {
  const params: Record<string, QueryValue> = { ...input };
  return encodeQuery(params);
}

/**
 * Reads a creators-get body: data inside `response` or at the top level, `requestedIds` and `is_trial` anywhere or
 * missing.
 */
function decodeGet(body: unknown, sent: string[]): CreatorGetResult {
  if (Array.isArray(body))
    return { creators: z.array(creatorProfileSchema).parse(body), requestedIds: sent, isTrial: null };
  const top = z
    .looseObject({ requestedIds: z.array(id).optional(), is_trial: bool, response: z.unknown() })
    .parse(body);
  const inner = top.response;
  const list = Array.isArray(inner) ? inner : unwrap(body).data;
  const creators = z.array(creatorProfileSchema).parse(list);
  const nested = z.looseObject({ requestedIds: z.array(id).optional(), is_trial: bool }).safeParse(inner);
  const requestedIds = top.requestedIds ?? (nested.success ? nested.data.requestedIds : undefined) ?? sent;
  const isTrial = (nested.success ? nested.data.is_trial : undefined) ?? top.is_trial ?? null;
  return { creators, requestedIds, isTrial };
}

/** The creator operations. */
export interface CreatorsApi {
  /** Free search returning creator ids. */
  search: Operation<typeof creatorSearchInput, Page<string>>;
  /** Profiles by filter, 1 credit per creator returned. */
  list: Operation<typeof creatorListInput, CreatorListPage>;
  /**
   * Profiles by id, 1 credit per creator returned. Calls made at the same moment share one request (see
   * profile-batch.ts): each gets its own ids' profiles, and `meta.cost` is what its part cost.
   */
  get: Operation<typeof creatorGetInput, CreatorGetResult>;
}

const getDefinition: OperationDefinition<typeof creatorGetInput, CreatorGetResult> = {
  operation: 'creators.get',
  input: creatorGetInput,
  request: (input) => ({ path: '/api/v2/creators/get', body: { userIds: input.userIds } }),
  decode: (body, input) => decodeGet(body, input.userIds),
  items: (data) => data.creators.length,
};

/**
 * The shared requests of profiles by id of one API key's client (profile-batch.ts), sent through `context`; `batch`
 * tunes how calls are gathered. Every invocation's creator operations on the key join them.
 */
export function createProfileRequests(
  context: OperationContext,
  batch?: ProfileBatchSettings,
): ProfileBatcher<CreatorGetResult> {
  return createProfileBatcher((input, options) => sendParsed(context, getDefinition, input, options), batch);
}

/** Creates the creator operations; profiles by id join `profiles`, each call metered on its own first. */
export function createCreatorsApi(
  context: OperationContext,
  profiles: ProfileBatcher<CreatorGetResult>,
): CreatorsApi {
  return {
    search: bindOperation(context, {
      operation: 'creators.search',
      input: creatorSearchInput,
      request: (input) => ({ path: '/api/v2/creators/search', query: filterQuery(input) }),
      decode: (body, input) => {
        const r = searchBody.parse(unwrap(body));
        return toPage(r.data, snakePageNumbers(r), input.page);
      },
    }),
    list: bindOperation(context, {
      operation: 'creators.list',
      input: creatorListInput,
      request: (input) => ({ path: '/api/v1/creators', query: filterQuery(input) }),
      decode: (body, input) => {
        const r = profilesBody.parse(unwrap(body));
        return { ...toPage(r.data, snakePageNumbers(r), input.page), isTrial: r.is_trial ?? null };
      },
      items: (data) => data.items.length,
    }),
    // Bad input is refused before joining a batch: nothing is sent for it. Each caller is metered for its own ids.
    get: async (input, options) => {
      const parsed = parseInput('creators.get', creatorGetInput, input);
      return meteredCall(context, 'creators.get', parsed, options, (merged) =>
        profiles(parsed.userIds, merged),
      );
    },
  };
}
