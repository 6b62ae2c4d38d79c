/**
 * The buttons of creator results: Add to list (a personal list picker, or straight to a named list) for one
 * creator, every creator of a page or every result of a search, and Details.
 */
import { z } from 'zod';
import { defineAction } from '../../core/command/types.js';
import { notice, reply } from '../../core/ui/index.js';
import { LIST_SUBJECT } from '../lists/common.js';
import { addTo } from './adding.js';
import { cachedProfiles, loadProfiles } from './profiles-cache.js';
import { targetPayload, who } from './targets.js';
import { cardButtons, detailNodes, KINDS } from './views.js';

/** The preference that remembers the list a person last added to. */
export { LAST_LIST } from './adding.js';

const refPayload = z.object({ userId: z.string().min(1), handle: z.string().nullable() });

/**
 * Add to list, for one creator, the creators of a page or every result of a search: without a value, a personal
 * picker of the team's lists; with one (a list id or name), one add request with every id (and no single-creator
 * field); with a name no list has, the offer to create it and add them.
 */
export const addAction = defineAction({
  kind: KINDS.add,
  payload: targetPayload,
  mutates: true,
  subject: LIST_SUBJECT,
  run: (ctx, target, event) => addTo(ctx, target, event.value),
});

/** Details: the full profile, from the cache for free; bought only when the cached copy is gone or stale. */
export const detailsAction = defineAction({
  kind: KINDS.details,
  payload: refPayload,
  estimate: async (ref, _event, ctx) => ((await cachedProfiles(ctx, [ref.userId])).has(ref.userId) ? 0 : 1),
  async run(ctx, ref) {
    const loaded = await loadProfiles(ctx, [ref.userId]);
    const entry = loaded.entries.get(ref.userId);
    if (entry === undefined) {
      return reply([
        notice('warning', `The service no longer has a profile for ${who(ref)}. Nothing was spent.`),
      ]);
    }
    return reply([...detailNodes(ctx, entry, cardButtons(ctx, entry.profile, false)), loaded.notice]);
  },
});
