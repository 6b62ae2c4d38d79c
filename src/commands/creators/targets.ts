/**
 * Whom an Add to list adds: one creator (a card's button), the creators of a page (Add all on this page), those
 * chosen in a page's multi-select, or every result of a search (Add all N results); what each carries, how it is
 * said, and the creator ids it stands for.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { plural } from '../../core/ui/index.js';
import type { CreatorRef, PageRef } from './views.js';

/** The most ids one add request takes (the contract's bound). */
export const ADD_IDS_MAX = 500;

/** Every result of a search session, up to `count` of the ids it holds; `complete`: the service has no more. */
export interface ResultsRef {
  session: string;
  count: number;
  complete: boolean;
}

/** One creator, a page of them (or those chosen on it), or every result of a search. */
export type AddTarget = CreatorRef | PageRef | ResultsRef;

const refPayload = z.object({ userId: z.string().min(1), handle: z.string().nullable() });
const pagePayload = z.object({
  userIds: z.array(z.string().min(1)).min(1).max(ADD_IDS_MAX),
  scope: z.literal('chosen').optional(),
});
const resultsPayload = z.object({
  session: z.string().min(1),
  count: z.number().int().min(1).max(ADD_IDS_MAX),
  complete: z.boolean(),
});

/** What an Add to list element carries. */
export const targetPayload = z.union([refPayload, pagePayload, resultsPayload]);

/** Whether the target is one creator. */
export const isCreator = (target: AddTarget): target is CreatorRef => 'userId' in target;
/** Whether the target is every result of a search. */
export const isResults = (target: AddTarget): target is ResultsRef => 'session' in target;

/** A creator by handle, or by id when the handle is not known. */
export const who = (ref: CreatorRef) => (ref.handle === null ? ref.userId : `@${ref.handle}`);

/** How a target of several creators is said: `the 5 creators on this page`, and `All 5 creators on this page`. */
export interface Said {
  the: string;
  all: string;
}

/** The words for a target of several creators. */
export function sayMany(target: PageRef | ResultsRef): Said {
  if (isResults(target)) {
    const results = plural(target.count, 'result');
    return target.complete
      ? { the: `the ${results} of this search`, all: `All ${results} of this search` }
      : { the: `the first ${results} of this search`, all: `All of the first ${results} of this search` };
  }
  const count = target.userIds.length;
  return target.scope === 'chosen'
    ? { the: `the ${plural(count, 'chosen creator')}`, all: `All ${plural(count, 'chosen creator')}` }
    : {
        the: `the ${plural(count, 'creator')} on this page`,
        all: `All ${plural(count, 'creator')} on this page`,
      };
}

/** Who a picker adds: one creator by handle, or several by count. */
export const subjectOf = (target: AddTarget) => (isCreator(target) ? who(target) : sayMany(target).the);

/**
 * The creator ids a target stands for, each once: a search's from its session (null when the session is gone or
 * expired: its results can no longer be added).
 */
export async function idsOf(ctx: CommandContext, target: AddTarget): Promise<string[] | null> {
  if (isCreator(target)) return [target.userId];
  if (!isResults(target)) return [...new Set(target.userIds)];
  const session = await ctx.store.searches.get(target.session, ctx.actor);
  if (session === undefined || session.expiresAt.getTime() < ctx.clock.now().getTime()) return null;
  return [...new Set(session.ids.slice(0, target.count))];
}
