/**
 * The chart weeks an account's charts have, from the service's date ranges (one request, whatever the country,
 * with each week's dates), kept in memory for an hour per service account: comparing charts again, for any
 * country, does not pay for the list again. The list is kept with the running app (its store), never shared
 * between apps, and any date-ranges answer refreshes it.
 */
import type { CommandContext } from '../../core/command/types.js';
import type { Store } from '../../core/store/index.js';
import { type ChartWeek, weeksOf } from './weeks.js';

/** How long a week list is reused: charts gain a week once a week, so an hour-old list is rarely behind. */
export const WEEK_LIST_TTL_MS = 60 * 60 * 1000;

interface Kept {
  readonly weeks: readonly ChartWeek[];
  readonly until: number;
}

/** Week lists by account, per running app. */
const kept = new WeakMap<Store, Map<string, Kept>>();

const listsOf = (ctx: CommandContext): Map<string, Kept> => {
  let lists = kept.get(ctx.store);
  if (lists === undefined) {
    lists = new Map();
    kept.set(ctx.store, lists);
  }
  return lists;
};

/** The account's week list, newest first, while it is fresh; null when it has to be asked for. */
export function knownWeeks(ctx: CommandContext): readonly ChartWeek[] | null {
  if (ctx.account === null) return null;
  const found = listsOf(ctx).get(ctx.account);
  return found !== undefined && found.until > ctx.clock.now().getTime() ? found.weeks : null;
}

/** Keeps the weeks the service listed for the account (an empty list is not kept); drops lists gone stale. */
export function keepWeeks(ctx: CommandContext, weeks: readonly ChartWeek[]): void {
  if (ctx.account === null || weeks.length === 0) return;
  const now = ctx.clock.now().getTime();
  const lists = listsOf(ctx);
  for (const [account, list] of lists) if (list.until <= now) lists.delete(account);
  lists.set(ctx.account, { weeks, until: now + WEEK_LIST_TTL_MS });
}

/** The account's week list: the one kept when it is known, else one date-ranges request. */
export async function chartWeeks(ctx: CommandContext): Promise<{ weeks: readonly ChartWeek[] }> {
  const known = knownWeeks(ctx);
  if (known !== null) return { weeks: known };
  const result = await ctx.service.songs.query({ action: 'date-ranges' });
  const weeks = weeksOf(result.data.data);
  keepWeeks(ctx, weeks);
  return { weeks };
}
