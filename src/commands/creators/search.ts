/** `creators search` (free ids, profiles bought per page shown) and `creators profiles` (v1, 1 credit each). */
import { defineCommand } from '../../core/command/types.js';
import { creatorListInput, creatorSearchInput } from '../../core/service/creators.js';
import { SEARCH_PLATFORMS, V1_PLATFORMS } from '../../core/service/enums.js';
import { estimateCost } from '../../core/service/pricing.js';
import { CARDS_PER_PAGE, CARDS_PER_PAGE_MAX, code, text } from '../../core/ui/index.js';
import { creatorFilterParams, withAFilter } from './filters.js';
import { rememberProfiles, trialNotice } from './profiles-cache.js';
import { emptyReply, openSession, renderPage, SEARCH_PAGE_SIZE, SESSION_COMMANDS } from './results.js';

/** Drops unset values and the service paging, leaving the filters a session keeps. */
function filtersOf(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => value !== undefined && key !== 'page' && key !== 'perPage',
    ),
  );
}

/**
 * The farthest page a search opens at: reaching page n collects every id before it (100 a free request), so this
 * bounds the requests one command makes. The pager goes on from there, a page at a time.
 */
const OPEN_PAGE_MAX = 200;

/** `creators search`: the family's default command. */
export const searchCommand = defineCommand({
  name: 'search',
  working: 'Searching creators…',
  description:
    'Find creators by any filter (free search); profiles cost 1 credit each, only for pages shown.',
  params: {
    ...creatorFilterParams(SEARCH_PLATFORMS),
    page: {
      kind: 'integer',
      rank: 'paging',
      min: 1,
      max: OPEN_PAGE_MAX,
      description: `Result page to open at, 1 to ${OPEN_PAGE_MAX} (default 1); the pager goes on from there.`,
      example: '3',
    },
    perPage: {
      kind: 'integer',
      rank: 'paging',
      min: 1,
      max: CARDS_PER_PAGE_MAX,
      aliases: ['limit', 'count'],
      description: `Creators per page, 1 to ${CARDS_PER_PAGE_MAX} (default ${CARDS_PER_PAGE}): fewer buys fewer a page.`,
      example: '3',
    },
  },
  schema: withAFilter(creatorSearchInput),
  examples: [
    'creators followers:10k-100k niche:yoga',
    'creators search category:Fitness er:>3 country:"United States" platform:tiktok',
    'creators search hashtags:vegan emailExists:yes sort:followers order:desc page:2 perPage:3',
  ],
  cost: `free search; 1 credit per creator shown (up to ${CARDS_PER_PAGE} a page, or perPage), cached ones free`,
  estimate: (input) => input.perPage ?? CARDS_PER_PAGE,
  // The search is free and cached profiles cost nothing: the cap is checked when profiles are bought.
  capPerCall: true,
  async run(ctx, input) {
    const filters = filtersOf(input);
    const result = await ctx.service.creators.search({ ...input, page: 1, perPage: SEARCH_PAGE_SIZE });
    const { items, nextPage, totalPages } = result.data;
    if (items.length === 0) return emptyReply(filters);
    const session = await openSession(ctx, {
      command: SESSION_COMMANDS.search,
      filters,
      ids: items,
      nextServicePage: nextPage !== null && nextPage > 1 ? nextPage : null,
      serviceTotalPages: totalPages,
    });
    return renderPage(ctx, session, input.page ?? 1, { replace: false, size: input.perPage });
  },
});

const DEFAULT_V1_PAGE_SIZE = 10;

/** `creators profiles`: full profiles by filter (v1), paid per creator returned. */
export const profilesCommand = defineCommand({
  name: 'profiles',
  working: 'Looking up creators…',
  description: 'Full profiles by filter (twitch too): 1 credit per creator returned; perPage sets the most.',
  params: {
    ...creatorFilterParams(V1_PLATFORMS),
    page: { kind: 'integer', description: 'Service page of results (from 1).', example: '2', rank: 'paging' },
    perPage: {
      kind: 'integer',
      rank: 'paging',
      aliases: ['limit', 'count'],
      description: `Profiles to buy, 1 to 100 (default ${DEFAULT_V1_PAGE_SIZE}).`,
      example: '10',
    },
  },
  schema: withAFilter(creatorListInput),
  examples: [
    'creators profiles category:Gaming platform:twitch perPage:5',
    'creators profiles niche:yoga followers:>50k page:2',
  ],
  cost: `1 credit per creator returned (at most perPage, default ${DEFAULT_V1_PAGE_SIZE})`,
  estimate: (input) => estimateCost('creators.list', input),
  async run(ctx, input) {
    const filters = filtersOf(input);
    const result = await ctx.service.creators.list(input);
    const { items, nextPage, isTrial } = result.data;
    if (items.length === 0) return emptyReply(filters);
    const bought = await rememberProfiles(ctx, items);
    const session = await openSession(ctx, {
      command: SESSION_COMMANDS.profiles,
      filters,
      ids: [...bought.keys()],
      nextServicePage: null,
      serviceTotalPages: result.data.totalPages,
    });
    const footer = [
      nextPage === null
        ? null
        : text('More on the service: run the command again with ', code(`page:${nextPage}`), '.'),
      await trialNotice(ctx, isTrial),
    ].filter((node) => node !== null);
    return renderPage(ctx, session, 1, { replace: false, footer, boughtNow: new Set(bought.keys()) });
  },
});
