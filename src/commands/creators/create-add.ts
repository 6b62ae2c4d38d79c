/**
 * Create "<name>" and add: offered when creators are added to a list no one has, it creates the list and adds them
 * in one press. Pressed again (or after someone made the list meanwhile), the list of that name is used, never made
 * twice.
 */
import { z } from 'zod';
import { defineAction } from '../../core/command/types.js';
import { notice, reply } from '../../core/ui/index.js';
import { LIST_SUBJECT } from '../lists/common.js';
import { addToList, NEW_LIST_NAME_MAX } from './adding.js';
import { nameOf } from './outcomes.js';
import { idsOf, targetPayload } from './targets.js';
import { KINDS } from './views.js';

const createPayload = z.object({
  target: targetPayload,
  name: z.string().trim().min(1).max(NEW_LIST_NAME_MAX),
});

/** Creates the list named and adds the creators to it, in one press; a list of that name by then is used instead. */
export const createAddAction = defineAction({
  kind: KINDS.createAdd,
  payload: createPayload,
  mutates: true,
  subject: LIST_SUBJECT,
  async run(ctx, { target, name }) {
    // Results whose search has expired can no longer be added: no list is made for nothing.
    if ((await idsOf(ctx, target)) === null) return ctx.expired();
    const { lists } = (await ctx.service.crm.listLists()).data;
    const wanted = name.toLowerCase();
    const existing = lists.find((list) => nameOf(list).trim().toLowerCase() === wanted);
    if (existing !== undefined) {
      const added = await addToList(ctx, target, existing);
      return reply(
        [notice('info', `The list ${nameOf(existing)} exists already: added there.`), ...added.nodes],
        {
          visibility: added.visibility,
        },
      );
    }
    const created = (await ctx.service.crm.createList({ name })).data;
    const added = await addToList(ctx, target, created);
    return reply([notice('success', `Created the list ${nameOf(created)}.`), ...added.nodes], {
      visibility: added.visibility,
    });
  },
});
