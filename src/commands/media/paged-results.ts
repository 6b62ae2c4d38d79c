/**
 * Paged results of the per-item paid searches (viral posts, videos). Each service page is bought once and shown
 * in chat pages of up to CARDS_PER_PAGE_MAX cards (chatPageSize). The pages already bought are stored in SQLite as the payload of an element
 * key of their own (a new one each time a page is bought), and the pager buttons carry only that key and a
 * position, so paging back, or forward again over bought pages, costs nothing. Only a page never bought is paid.
 */
import { z } from 'zod';
import type { ActionDef, CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import type { Page } from '../../core/service/index.js';
import {
  bold,
  CARDS_PER_PAGE_MAX,
  formatCredits,
  formatInteger,
  notice,
  pager,
  type Reply,
  type ReplyNode,
  reply,
  text,
} from '../../core/ui/index.js';

/** Items kept in one pager payload; past it the bought pages farthest from the one shown are dropped. */
const KEPT_ITEMS_MAX = 300;

/** A paid search shown through the pager. */
export interface PagedSource<Q, T> {
  /** Action kind of the pager buttons, e.g. `viral.page`. */
  readonly kind: string;
  /** What the items are, plural and capitalized for the header: `Viral posts`. */
  readonly noun: string;
  /** Said when the search matches nothing. */
  readonly empty: string;
  /** Validates the stored query (filters without page and page size) when a pager button comes back. */
  readonly query: z.ZodType<Q, unknown>;
  /** Validates one stored item. */
  readonly item: z.ZodType<T, unknown>;
  /** Buys one service page. */
  fetch(ctx: CommandContext, query: Q, page: number, size: number): Promise<{ page: Page<T>; cost: number }>;
  /** The most credits one service page of this size can cost. */
  estimate(size: number): number;
  /** What is stored of an item (only the fields the card shows, so payloads stay small). */
  keep(item: T): unknown;
  /** The nodes of one item; `position` counts from 1 across the whole result set; `ctx` makes its buttons. */
  render(item: T, position: number, ctx: CommandContext): ReplyNode[];
}

/** Everything known about a result set: the query, the service page size and the pages bought. */
interface PagedState<Q, T> {
  query: Q;
  size: number;
  /** Items of each bought service page, keyed by page number. */
  pages: Record<string, T[]>;
  /** The last service page, once known (0 when nothing matched). */
  lastPage: number | null;
  total: number | null;
}

/** A place in the result set: a service page and a chunk of its cards (see chatPageSize) inside it. */
interface Position {
  page: number;
  chunk: number;
}

/**
 * Cards per chat page for service pages of `size`: all of them up to CARDS_PER_PAGE_MAX, else the page shared
 * evenly (pageSize 11 shows 6 then 5, not 10 then 1).
 */
export const chatPageSize = (size: number) =>
  size <= 0 ? 1 : Math.ceil(size / Math.ceil(size / CARDS_PER_PAGE_MAX));

/** Chat pages a service page of `count` cards takes: a last page shorter than the others is shared evenly too. */
const chunksOf = (count: number) => Math.ceil(count / chatPageSize(count));

/** Adds a bought page to the state, learning the end of the results from it. */
function absorb<Q, T>(state: PagedState<Q, T>, page: number, result: Page<T>): PagedState<Q, T> {
  const pages: Record<string, T[]> = { ...state.pages, [String(page)]: result.items };
  let lastPage = state.lastPage;
  if (result.totalPages !== null) lastPage = result.totalPages;
  else if (result.nextPage === null) lastPage = result.items.length > 0 ? page : Math.max(0, page - 1);
  return { ...state, pages: prune(pages, page), lastPage, total: result.total ?? state.total };
}

/** Drops the bought pages farthest from `current` until the kept items fit KEPT_ITEMS_MAX. */
function prune<T>(pages: Record<string, T[]>, current: number): Record<string, T[]> {
  const kept = { ...pages };
  const count = () => Object.values(kept).reduce((sum, items) => sum + items.length, 0);
  while (count() > KEPT_ITEMS_MAX && Object.keys(kept).length > 1) {
    const farthest = Object.keys(kept).reduce((a, b) =>
      Math.abs(Number(b) - current) > Math.abs(Number(a) - current) ? b : a,
    );
    delete kept[farthest];
  }
  return kept;
}

function previousOf<Q, T>(state: PagedState<Q, T>, at: Position): Position | null {
  if (at.chunk > 0) return { page: at.page, chunk: at.chunk - 1 };
  if (at.page <= 1) return null;
  const page = state.lastPage !== null && at.page > state.lastPage ? state.lastPage : at.page - 1;
  if (page < 1) return null;
  const items = state.pages[String(page)];
  const count = items === undefined ? state.size : items.length;
  return { page, chunk: Math.max(0, chunksOf(count) - 1) };
}

function nextOf<Q, T>(state: PagedState<Q, T>, at: Position): Position | null {
  const items = state.pages[String(at.page)] ?? [];
  if ((at.chunk + 1) * chatPageSize(items.length) < items.length)
    return { page: at.page, chunk: at.chunk + 1 };
  const more = state.lastPage === null ? items.length >= state.size : at.page < state.lastPage;
  return more ? { page: at.page + 1, chunk: 0 } : null;
}

/** What reaching `next` may cost, for its button: a service page not bought yet; null when it is free. */
function nextCost<Q, T>(
  source: PagedSource<Q, T>,
  state: PagedState<Q, T>,
  next: Position | null,
): string | null {
  if (next === null || state.pages[String(next.page)] !== undefined) return null;
  return `up to ${formatCredits(source.estimate(itemsExpected(state, next.page)))}`;
}

/** The items a service page not bought yet can hold: its size, or what is left of a known total (the last page). */
function itemsExpected<Q, T>(state: PagedState<Q, T>, page: number): number {
  if (state.total === null) return state.size;
  return Math.max(0, Math.min(state.size, state.total - (page - 1) * state.size));
}

/** Chat pages over the whole result set, when the total is known. */
function chatPages<Q, T>(state: PagedState<Q, T>): number | null {
  if (state.total === null) return null;
  const full = Math.floor(state.total / state.size);
  return full * chunksOf(state.size) + chunksOf(state.total - full * state.size);
}

/** A pager button: where to go, and the key of the stored result set. */
function token<Q, T>(
  ctx: CommandContext,
  source: PagedSource<Q, T>,
  results: string,
  at: Position | null,
): string | null {
  return at === null ? null : ctx.token(source.kind, { results, page: at.page, chunk: at.chunk });
}

/** Stores a result set in SQLite under an element key of its own; pager buttons carry only that key. */
function save<Q, T>(ctx: CommandContext, source: PagedSource<Q, T>, state: PagedState<Q, T>): string {
  const pages = Object.fromEntries(
    Object.entries(state.pages).map(([page, items]) => [page, items.map((item) => source.keep(item))]),
  );
  return ctx.token(`${source.kind}.results`, { ...state, pages });
}

/** The reply for one position; `spent` is the cost of the call just made, null when nothing was bought. */
function view<Q, T>(
  ctx: CommandContext,
  source: PagedSource<Q, T>,
  stored: { state: PagedState<Q, T>; results: string },
  at: Position,
  spent: number | null,
  replace: boolean,
): Reply {
  const { state, results } = stored;
  const items = state.pages[String(at.page)] ?? [];
  const options = { visibility: 'channel' as const, replace };
  const previous = token(ctx, source, results, previousOf(state, at));
  const chatPage = (at.page - 1) * chunksOf(state.size) + at.chunk + 1;
  if (items.length === 0) {
    const nothing = state.total === 0 || (at.page === 1 && state.lastPage !== null && state.lastPage <= 1);
    return reply(
      [
        notice(
          'info',
          nothing
            ? source.empty
            : `Page ${at.page} has nothing${state.lastPage === null ? '' : `: the results end at page ${state.lastPage}`}.`,
        ),
        previous === null
          ? null
          : pager({ page: chatPage, totalPages: null, prevActionId: previous, nextActionId: null }),
      ],
      options,
    );
  }
  const start = at.chunk * chatPageSize(items.length);
  const shown = items.slice(start, start + chatPageSize(items.length));
  // What the call just made cost ends the answer (the guard's cost line); a page paid for before is counted free.
  if (spent === null) ctx.cached(shown.length);
  const first = (at.page - 1) * state.size + start + 1;
  const last = first + shown.length - 1;
  const total = chatPages(state);
  const next = nextOf(state, at);
  return reply(
    [
      text(
        bold(`${source.noun} ${formatInteger(first)}–${formatInteger(last)}`),
        state.total === null ? '' : ` of ${formatInteger(state.total)}`,
      ),
      ...shown.flatMap((item, index) => source.render(item, first + index, ctx)),
      pager({
        page: chatPage,
        totalPages: total !== null && total >= chatPage ? total : null,
        prevActionId: previous,
        nextActionId: token(ctx, source, results, next),
        nextCost: nextCost(source, state, next),
      }),
    ],
    options,
  );
}

/** A paid search's pager: `show` runs the first search, `action` handles the pager buttons. */
export interface PagedResults<Q> {
  show(ctx: CommandContext, query: Q, page: number, size: number): Promise<Reply>;
  readonly action: ActionDef<PagerPayload>;
}

const pagerPayload = z.object({
  results: z.string().min(1).max(100),
  page: z.number().int().min(1),
  chunk: z.number().int().min(0),
});

/** What a pager button carries: the key of the stored result set and where to go in it. */
export type PagerPayload = z.infer<typeof pagerPayload>;

/** Creates the pager of a paid search. */
export function createPagedResults<Q, T>(source: PagedSource<Q, T>): PagedResults<Q> {
  const stateSchema = z.object({
    query: source.query,
    size: z.number().int().min(1).max(100),
    pages: z.record(z.string().regex(/^\d+$/), z.array(source.item)),
    lastPage: z.number().min(0).nullable(),
    total: z.number().min(0).nullable(),
  });
  const load = async (ctx: CommandContext, results: string): Promise<PagedState<Q, T> | null> => {
    const found = await ctx.store.actions.lookup(results, ctx.actor, ctx.clock.now());
    if (found.status !== 'ok' || found.record.kind !== `${source.kind}.results`) return null;
    const parsed = stateSchema.safeParse(found.record.payload);
    return parsed.success ? parsed.data : null;
  };
  return {
    async show(ctx, query, page, size) {
      const bought = await source.fetch(ctx, query, page, size);
      const state = absorb({ query, size, pages: {}, lastPage: null, total: null }, page, bought.page);
      return view(
        ctx,
        source,
        { state, results: save(ctx, source, state) },
        { page, chunk: 0 },
        bought.cost,
        false,
      );
    },
    action: defineAction<PagerPayload>({
      kind: source.kind,
      payload: pagerPayload,
      async estimate(p, _event, ctx) {
        const state = await load(ctx, p.results);
        if (state === null || state.pages[String(p.page)] !== undefined) return 0;
        return source.estimate(itemsExpected(state, p.page));
      },
      async run(ctx, p) {
        let state = await load(ctx, p.results);
        if (state === null) {
          return ctx.expired();
        }
        let results = p.results;
        let spent: number | null = null;
        if (state.pages[String(p.page)] === undefined) {
          const bought = await source.fetch(ctx, state.query, p.page, state.size);
          state = absorb(state, p.page, bought.page);
          results = save(ctx, source, state);
          spent = bought.cost;
        }
        const items = state.pages[String(p.page)] ?? [];
        const at = {
          page: p.page,
          chunk: Math.min(p.chunk, Math.max(0, chunksOf(items.length) - 1)),
        };
        return view(ctx, source, { state, results }, at, spent, true);
      },
    }),
  };
}
