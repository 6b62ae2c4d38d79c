/**
 * Adding several creators of a result page at once: Add all on this page, Add all N results (every id the search
 * session holds, up to one add request's bound), and a multi-select of the page's creators whose choice is added
 * as Add to list adds (to the list named with it, or the one then chosen). Adding takes creator ids only: nothing
 * is bought, whatever is added.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import type { SearchSession } from '../../core/store/search-sessions.js';
import {
  button,
  buttons,
  notice,
  OPTION_VALUE_MAX,
  type ReplyNode,
  reply,
  SELECT_OPTIONS_MAX,
  select,
} from '../../core/ui/index.js';
import { LIST_SUBJECT } from '../lists/common.js';
import { addTo } from './adding.js';
import { ADD_IDS_MAX, type AddTarget, type ResultsRef } from './targets.js';
import { type CreatorRef, KINDS, type PageRef } from './views.js';

/** The label of the button that adds every creator of a page. */
export const ADD_ALL_LABEL = 'Add all on this page';

/** The placeholder of a page's multi-select of creators. */
export const CHOOSE_PLACEHOLDER = 'Choose creators to add…';

/** The label of the button that adds every result: all of them, or the first ones when the search has more. */
export const resultsLabel = (results: ResultsRef) =>
  results.complete ? `Add all ${results.count} results` : `Add the first ${results.count} results`;

/** A creator of a page, as its card titles it (`@zara · Zara Moreau`). */
export interface PageCreator {
  ref: CreatorRef;
  title: string;
}

/** What the multi-select carries: the page's creators, so a choice is checked against them and named. */
const choosePayload = z.object({
  creators: z
    .array(z.object({ userId: z.string().min(1), handle: z.string().nullable() }))
    .min(2)
    .max(SELECT_OPTIONS_MAX),
});

/** Every result of `session`, when it holds more than the page shows: up to one add request's bound. */
function resultsOf(session: SearchSession, shown: number): ResultsRef | null {
  const count = Math.min(session.ids.length, ADD_IDS_MAX);
  if (count <= shown) return null;
  const complete = session.nextServicePage === null && session.ids.length <= ADD_IDS_MAX;
  return { session: session.id, count, complete };
}

/**
 * The page's ways to add several creators, below its cards: Add all on this page and Add all N results (when the
 * search holds more than the page), and the multi-select of the page's creators (two or more of them).
 */
export function bulkNodes(
  ctx: CommandContext,
  creators: readonly PageCreator[],
  session: SearchSession,
): ReplyNode[] {
  const unique = creators
    .filter((c, i) => creators.findIndex((o) => o.ref.userId === c.ref.userId) === i)
    .filter((c) => c.ref.userId.length <= OPTION_VALUE_MAX)
    .slice(0, SELECT_OPTIONS_MAX);
  const userIds = [...new Set(creators.map((c) => c.ref.userId))];
  const page: PageRef = { userIds };
  const results = resultsOf(session, userIds.length);
  const row = [
    userIds.length < 2 ? null : button(ADD_ALL_LABEL, ctx.token(KINDS.add, page)),
    results === null ? null : button(resultsLabel(results), ctx.token(KINDS.add, results)),
  ].filter((b) => b !== null);
  return [
    row.length === 0 ? null : buttons(...row),
    unique.length < 2
      ? null
      : select({
          placeholder: CHOOSE_PLACEHOLDER,
          actionId: ctx.token(KINDS.choose, { creators: unique.map((c) => c.ref) }),
          options: unique.map((c) => ({ label: c.title, value: c.ref.userId })),
          multiple: true,
        }),
  ].filter((node) => node !== null);
}

/** The creators a multi-select's choice names: one (by handle), several, or what is wrong with the choice. */
function chosenOf(creators: readonly CreatorRef[], picked: readonly string[]): AddTarget | string {
  const wanted = [...new Set(picked)];
  if (wanted.length === 0) return 'Choose at least one creator of this page: nothing was added.';
  const byId = new Map(creators.map((c) => [c.userId, c]));
  const strangers = wanted.filter((id) => !byId.has(id)).length;
  if (strangers > 0) {
    return `${strangers === 1 ? 'One choice is' : `${strangers} choices are`} not a creator of this page: nothing was added.`;
  }
  const [only] = wanted;
  const single = wanted.length === 1 && only !== undefined ? byId.get(only) : undefined;
  return single ?? { userIds: wanted, scope: 'chosen' };
}

/**
 * A choice in a page's multi-select (`choices`; a platform choosing one may send it as `value`): adds the chosen
 * creators as Add to list does, to the list typed with them (`add 1,3 to Spring`) or, without one, the list then
 * chosen in the picker.
 */
export const chooseAction = defineAction({
  kind: KINDS.choose,
  payload: choosePayload,
  mutates: true,
  subject: LIST_SUBJECT,
  async run(ctx, payload, event) {
    const several = event.choices !== undefined;
    const picked = several ? (event.choices ?? []) : event.value === undefined ? [] : [event.value];
    const target = chosenOf(payload.creators, picked);
    if (typeof target === 'string') return reply([notice('warning', target)]);
    return addTo(ctx, target, several ? event.value : undefined);
  },
});
