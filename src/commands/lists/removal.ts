/** Removing a creator from a list: a confirmation first, then a single soft removal (or a cancel). */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import { bold, button, buttons, notice, type Reply, reply } from '../../core/ui/index.js';
import { statusLabel } from './common.js';
import { contactName, KINDS } from './contacts-view.js';
import { type ContactTarget, findContact, type ListTarget } from './resolve.js';

const removePayload = z.object({
  listId: z.string(),
  listName: z.string(),
  userId: z.string(),
  handle: z.string().nullable(),
  name: z.string().nullable().optional(),
  decision: z.string(),
});
const keepPayload = z.object({ decision: z.string() });

/** The state behind a contact's "Remove": who, in which list, and the creator's name where known. */
const askPayload = z.object({
  listId: z.string(),
  listName: z.string(),
  userId: z.string(),
  handle: z.string().nullable(),
  name: z.string().nullable().optional(),
});

const alreadyDecided = () => reply([notice('info', 'That was already decided.')]);

/** Confirmed removal: soft-removes the creator, once. */
export const removeAction = defineAction({
  kind: KINDS.remove,
  payload: removePayload,
  mutates: true,
  async run(ctx, payload) {
    const now = ctx.clock.now();
    if ((await ctx.store.actions.lookup(payload.decision, ctx.actor, now)).status === 'used')
      return alreadyDecided();
    const { data } = await ctx.service.crm.removeCreator({ listId: payload.listId, userId: payload.userId });
    await ctx.store.actions.consume(payload.decision, ctx.clock.now());
    const name = contactName(payload);
    return data.removed
      ? reply([notice('success', `Removed ${name} from ${payload.listName}.`)], { visibility: 'channel' })
      : reply([notice('warning', `The service did not remove ${name} from ${payload.listName}.`)]);
  },
});

/** Cancelled removal. */
export const keepAction = defineAction({
  kind: KINDS.keep,
  payload: keepPayload,
  async run(ctx, payload) {
    if (!(await ctx.store.actions.consume(payload.decision, ctx.clock.now()))) return alreadyDecided();
    return reply([notice('info', 'Cancelled: nothing was removed.')], { replace: true });
  },
});

/** Asks the author to confirm removing a contact, with Confirm and Cancel that each work once. */
export function askRemoval(ctx: CommandContext, list: ListTarget, target: ContactTarget): Reply {
  // A hidden single-use element records the decision, so neither button works after the other was pressed.
  const decision = ctx.token('list.decision', null, { personal: true });
  const payload = {
    listId: list.id,
    listName: list.name,
    userId: target.userId,
    handle: target.handle,
    name: target.name ?? null,
    decision,
  };
  return reply([
    notice('warning', [
      'Remove ',
      bold(contactName(target)),
      ` (${statusLabel(target.status)}) from `,
      bold(list.name),
      '? Adding the creator again later reactivates the contact.',
    ]),
    buttons(
      button('Confirm removal', ctx.token(KINDS.remove, payload, { personal: true }), { style: 'danger' }),
      button('Cancel', ctx.token(KINDS.keep, { decision }, { personal: true })),
    ),
  ]);
}

/** A contact's "Remove": the contact found afresh (its status now), then the same confirmation as `list remove`. */
export const askRemoveAction = defineAction({
  kind: KINDS.ask,
  payload: askPayload,
  async run(ctx, payload) {
    const list = { id: payload.listId, name: payload.listName };
    const handle = payload.handle?.replace(/^@+/, '').trim() ?? '';
    const found = await findContact(ctx, list, payload.userId !== '' ? payload.userId : `@${handle}`);
    // The membership check knows no handle: the contact keeps the name it was shown with.
    return askRemoval(ctx, list, {
      ...found,
      handle: found.handle ?? payload.handle,
      name: found.name ?? payload.name ?? null,
    });
  },
});
