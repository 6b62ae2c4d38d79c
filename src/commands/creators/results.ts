/**
 * Result pages of a creator search session: ids are collected for free (100 per service call), and only the
 * profiles of the page shown that are not cached are bought. Pressing previous / next updates the message. Below
 * the cards, the ways to add several creators at once (bulk.ts).
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import { creatorSearchInput } from '../../core/service/creators.js';
import type { SearchSession } from '../../core/store/search-sessions.js';
import {
  bold,
  CARDS_PER_PAGE,
  CARDS_PER_PAGE_MAX,
  code,
  formatCredits,
  notice,
  pager,
  type Reply,
  reply,
  text,
} from '../../core/ui/index.js';
import { bulkNodes } from './bulk.js';
import { givenFilters, summarizeFilters } from './filters.js';
import { loadProfiles, uncachedIds } from './profiles-cache.js';
import { cardOf, KINDS, refOf } from './views.js';

/** Ids asked for per search call: the most the service allows, to save requests. */
export const SEARCH_PAGE_SIZE = 100;

/** The command a session belongs to. */
export const SESSION_COMMANDS = { search: 'creators search', profiles: 'creators profiles' } as const;

/** Creates a session over ids already collected. */
export function openSession(
  ctx: CommandContext,
  init: Pick<SearchSession, 'command' | 'filters' | 'ids' | 'nextServicePage' | 'serviceTotalPages'>,
): Promise<SearchSession> {
  const now = ctx.clock.now();
  return ctx.store.searches.create({
    ...init,
    actor: ctx.actor,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.settings.elementTtlMs),
  });
}

/** Collects more ids (free) until the session holds `wanted` or the service has no further page. */
async function collectIds(
  ctx: CommandContext,
  session: SearchSession,
  wanted: number,
): Promise<SearchSession> {
  let current = session;
  if (current.command !== SESSION_COMMANDS.search) return current;
  const filters = creatorSearchInput.safeParse(current.filters);
  if (!filters.success) return current;
  while (current.ids.length < wanted && current.nextServicePage !== null) {
    const page = current.nextServicePage;
    const result = await ctx.service.creators.search({ ...filters.data, page, perPage: SEARCH_PAGE_SIZE });
    const { items, nextPage, totalPages } = result.data;
    // A next page that does not move forward, or an empty page, ends the collection.
    const next = items.length === 0 || nextPage === null || nextPage <= page ? null : nextPage;
    current = await ctx.store.searches.extend(current.id, items, next, totalPages);
  }
  return current;
}

/** Cards on a page of a session: CARDS_PER_PAGE, unless the search asked for another size (`perPage`). */
const pageSize = z.number().int().min(1).max(CARDS_PER_PAGE_MAX);

const pageIds = (session: SearchSession, page: number, size: number) =>
  session.ids.slice((page - 1) * size, page * size);

/** The most credits showing `page` can cost: its uncached ids, plus a full page not collected yet. */
export async function pageEstimate(
  ctx: CommandContext,
  session: SearchSession | undefined,
  page: number,
  size: number = CARDS_PER_PAGE,
): Promise<number> {
  if (session === undefined) return 0;
  const ids = pageIds(session, page, size);
  const uncollected = session.nextServicePage === null ? 0 : size - ids.length;
  return (await uncachedIds(ctx, ids)).length + uncollected;
}

/** What showing `page` may cost, for its Next button; null when every profile on it is cached. */
async function nextPageCost(
  ctx: CommandContext,
  session: SearchSession,
  page: number,
  size: number,
): Promise<string | null> {
  const most = await pageEstimate(ctx, session, page, size);
  return most === 0 ? null : `up to ${formatCredits(most)}`;
}

/** The answer to a search that found nothing: say so, and how to loosen it. */
export function emptyReply(filters: Readonly<Record<string, unknown>>): Reply {
  const given = givenFilters(filters);
  return reply([
    notice('info', 'No creators match these filters. Nothing was spent.'),
    given.length === 0
      ? null
      : text(
          'Loosen or drop some of: ',
          ...given.flatMap((name, i) => [i === 0 ? '' : ', ', code(name)]),
          '. Widen ranges (',
          code('followers:5k-500k'),
          '); comma lists in niche, products and hashtags must all match, so try one word at a time.',
        ),
  ]);
}

function heading(session: SearchSession, page: number, size: number): Reply['nodes'][number] {
  const first = (page - 1) * size + 1;
  const last = Math.min(page * size, session.ids.length);
  const more = session.nextServicePage !== null;
  const summary = summarizeFilters(session.filters);
  const title = session.command === SESSION_COMMANDS.profiles ? 'Creator profiles' : 'Creators';
  return text(
    bold(title),
    summary === '' ? '' : ` · ${summary}`,
    ` — ${first}-${last} of ${session.ids.length}${more ? '+' : ''}`,
  );
}

/**
 * Renders one page of a session, of `size` cards (CARDS_PER_PAGE by default; the pager keeps it): buys the missing
 * profiles of that page only.
 */
export async function renderPage(
  ctx: CommandContext,
  stored: SearchSession,
  page: number,
  options: {
    replace: boolean;
    footer?: Reply['nodes'];
    size?: number | undefined;
    /** Profiles this answer bought already (`creators profiles`): not counted as shown from the cache. */
    boughtNow?: ReadonlySet<string>;
  },
): Promise<Reply> {
  const size = options.size ?? CARDS_PER_PAGE;
  // One id past the page tells whether a next page exists.
  const session = await collectIds(ctx, stored, page * size + 1);
  const ids = pageIds(session, page, size);
  if (ids.length === 0) {
    if (session.ids.length === 0) return emptyReply(session.filters);
    return reply([
      notice(
        'info',
        `There is no page ${page}: this result has ${session.ids.length} creator${session.ids.length === 1 ? '' : 's'}.`,
      ),
    ]);
  }
  const { entries: profiles, notice: trial } = await loadProfiles(ctx, ids, options.boughtNow);
  const shown = ids.flatMap((id) => {
    const entry = profiles.get(id);
    return entry === undefined ? [] : [entry];
  });
  const gone = ids.length - shown.length;
  const hasNext = session.ids.length > page * size || session.nextServicePage !== null;
  const totalPages = session.nextServicePage === null ? Math.ceil(session.ids.length / size) : null;
  const turn = (to: number) =>
    ctx.token(KINDS.page, { session: session.id, page: to, ...(size === CARDS_PER_PAGE ? {} : { size }) });
  const cards = shown.map((entry) => ({ entry, card: cardOf(ctx, entry) }));
  return reply(
    [
      heading(session, page, size),
      ...cards.map(({ card }) => card),
      ...bulkNodes(
        ctx,
        cards.map(({ entry, card }) => ({ ref: refOf(entry.profile), title: card.title })),
        session,
      ),
      gone === 0
        ? null
        : notice(
            'info',
            `${gone} creator${gone === 1 ? ' is' : 's are'} no longer available from the service.`,
          ),
      pager({
        page,
        totalPages,
        prevActionId: page > 1 ? turn(page - 1) : null,
        nextActionId: hasNext ? turn(page + 1) : null,
        nextCost: hasNext ? await nextPageCost(ctx, session, page + 1, size) : null,
      }),
      ...(options.footer ?? []),
      trial,
    ],
    { visibility: 'channel', replace: options.replace },
  );
}

const pagePayload = z.object({
  session: z.string().min(1),
  page: z.number().int().min(1),
  size: pageSize.optional(),
});

/** Previous / next on a result: updates the same message; cached profiles cost nothing. */
export const pageAction = defineAction({
  kind: KINDS.page,
  payload: pagePayload,
  estimate: async (payload, _event, ctx) =>
    pageEstimate(ctx, await ctx.store.searches.get(payload.session, ctx.actor), payload.page, payload.size),
  async run(ctx, payload) {
    const session = await ctx.store.searches.get(payload.session, ctx.actor);
    if (session === undefined || session.expiresAt.getTime() < ctx.clock.now().getTime()) {
      return ctx.expired();
    }
    return renderPage(ctx, session, payload.page, { replace: true, size: payload.size });
  },
});
