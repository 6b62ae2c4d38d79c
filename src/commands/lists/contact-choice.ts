/**
 * A contact chosen in a table's select: the contact read afresh, as a card with what can be done to it (Set status,
 * Edit, Remove), for the person who chose it.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import { type Button, button, code, notice, type Reply, reply, text } from '../../core/ui/index.js';
import { quoted } from './common.js';
import { creatorName } from './contact-rows.js';
import { type ContactPayload, contactButtons, contactRef, KINDS } from './contacts-view.js';
import { contactRow } from './crm-cards.js';
import { contactById, type ListTarget } from './resolve.js';

/** The state behind a table's select of contacts: the list they are in. */
const choicePayload = z.object({ listId: z.string(), listName: z.string() });

/** "Remove": asks to confirm removing the contact from its list (removal.ts). */
function removeButton(ctx: CommandContext, ref: ContactPayload): Button {
  const { listId, listName, userId, handle, name } = ref;
  return button('Remove', ctx.token(KINDS.ask, { listId, listName, userId, handle, name: name ?? null }), {
    style: 'danger',
  });
}

function gone(list: ListTarget): Reply {
  return reply([
    notice('warning', `That contact is no longer in ${list.name}.`),
    text('See who is with ', code(`/scout list ${quoted(list.name)}`), '.'),
  ]);
}

/** A contact chosen in a table: its card with Set status, Edit and Remove, read afresh (one request or a few). */
export const chooseContactAction = defineAction({
  kind: KINDS.contact,
  payload: choicePayload,
  async run(ctx, payload, event) {
    const list: ListTarget = { id: payload.listId, name: payload.listName };
    const contactId = event.value?.trim() ?? '';
    if (contactId === '') return reply([notice('info', 'Choose a contact in the menu.')]);
    const contact = await contactById(ctx, list, contactId);
    if (contact === null) return gone(list);
    const ref = { ...contactRef(list, contact), name: creatorName(contact) };
    return reply([contactRow(contact, { actions: [...contactButtons(ctx, ref), removeButton(ctx, ref)] })]);
  },
});
