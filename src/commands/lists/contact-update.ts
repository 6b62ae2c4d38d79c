/**
 * Updating a contact (crm.updateContact) from chat: the update options of `list update`, which are also the fields
 * of a contact's form (its "Edit" button opens `list update` with the list and creator set), the "Set status" and
 * older "Edit" elements, and the answer that shows the updated contact.
 */
import type { z } from 'zod';
import { bindTokens } from '../../core/command/bind.js';
import { FORM_KIND, formButton } from '../../core/command/forms/index.js';
import { coerceParam, ParamError, type ParamTable, resolveKey } from '../../core/command/params.js';
import { tokenize } from '../../core/command/tokenize.js';
import type { ActionEvent, CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import { CRM_STATUSES } from '../../core/service/enums.js';
import { crmUpdateContactInput, parseInput } from '../../core/service/index.js';
import { buttons, code, formatAmount, notice, type Reply, reply, select, text } from '../../core/ui/index.js';
import { quoted, STATUS_EXAMPLE, STATUS_PARAM } from './common.js';
import {
  type ContactPayload,
  contactForm,
  contactName,
  contactNode,
  contactPayload,
  creatorRef,
  KINDS,
} from './contacts-view.js';
import { CRM_STATUS_LABELS } from './crm-cards.js';

/**
 * The contact and deal fields a person can change, keyed by the client's input names: the contact form's fields, in
 * this order, with the allowed values of each (the six statuses) as its hint.
 */
export const UPDATE_PARAMS = {
  status: STATUS_PARAM,
  notes: {
    kind: 'text',
    aliases: ['note'],
    description: 'Notes about the creator.',
    example: '"Loves the brand"',
  },
  contactEmail: {
    kind: 'text',
    aliases: ['email'],
    description: 'The address to contact the creator at.',
    example: 'ana@example.com',
  },
  proposedRate: {
    kind: 'number',
    aliases: ['rate', 'proposed'],
    description: 'The proposed rate (0 or more).',
    example: '500',
  },
  agreedRate: {
    kind: 'number',
    aliases: ['agreed'],
    description: 'The agreed rate (0 or more).',
    example: '450',
  },
  contentDeliverables: {
    kind: 'text',
    aliases: ['deliverables'],
    description: 'What the creator delivers.',
    example: '"1 reel, 2 stories"',
  },
  instagramHandle: {
    kind: 'text',
    aliases: ['instagram'],
    description: 'The Instagram handle.',
    example: '@ana',
  },
  tiktokHandle: { kind: 'text', aliases: ['tiktok'], description: 'The TikTok handle.', example: '@ana' },
} satisfies ParamTable;

/** The validated fields of an update, without the contact id. */
export type UpdateFields = Omit<z.output<typeof crmUpdateContactInput>, 'contactId'>;

/** Rewrites the client's "nothing to change" message in the words people type. */
export function explainUpdate(_field: string, message: string): string {
  return message.startsWith('needs something to change')
    ? 'Nothing to change: give status, notes, email, rate, agreed, deliverables, instagram or tiktok, e.g. status:negotiating.'
    : message;
}

/** Validates raw update fields with the client's schema (throws ServiceInputError, shown as "Not sent"). */
function validated(contactId: string, raw: Record<string, unknown>): z.output<typeof crmUpdateContactInput> {
  return parseInput('crm.updateContact', crmUpdateContactInput, { ...raw, contactId });
}

/**
 * Reads the named values of a submitted form (`status`, `notes`, `contactEmail`, `proposedRate`, `agreedRate`,
 * `contentDeliverables`; aliases such as `email` work too). An empty value leaves the field as it is, so a form
 * whose fields were not prefilled never wipes what is stored.
 */
export function fieldsFromValues(values: Readonly<Record<string, string>>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const table: ParamTable = UPDATE_PARAMS;
    const name = resolveKey(table, key);
    const spec = name === null ? undefined : table[name];
    if (name === null || spec === undefined) throw new ParamError(key, `Unknown field "${key}".`);
    if (value.trim() === '') continue;
    Object.assign(raw, coerceParam(name, spec, value));
  }
  return raw;
}

/** Reads options typed after a button press (`edit 2 notes:"Call Monday" rate:500`). */
export function fieldsFromText(value: string): Record<string, unknown> {
  return bindTokens(UPDATE_PARAMS, tokenize(value));
}

function changes(fields: UpdateFields): string {
  const parts: string[] = [];
  if (fields.status !== undefined) parts.push(`status ${CRM_STATUS_LABELS[fields.status]}`);
  if (fields.notes !== undefined) parts.push('notes');
  if (fields.contactEmail !== undefined) parts.push(`email ${fields.contactEmail}`);
  if (fields.proposedRate !== undefined) parts.push(`proposed rate ${formatAmount(fields.proposedRate)}`);
  if (fields.agreedRate !== undefined) parts.push(`agreed rate ${formatAmount(fields.agreedRate)}`);
  if (fields.contentDeliverables !== undefined) parts.push('deliverables');
  if (fields.instagramHandle !== undefined) parts.push(`Instagram ${fields.instagramHandle}`);
  if (fields.tiktokHandle !== undefined) parts.push(`TikTok ${fields.tiktokHandle}`);
  return parts.join(', ');
}

/** Updates a contact and answers in the channel with the updated contact and its buttons. */
export async function applyUpdate(
  ctx: CommandContext,
  ref: ContactPayload,
  fields: UpdateFields,
): Promise<Reply> {
  const { data } = await ctx.service.crm.updateContact({ ...fields, contactId: ref.contactId });
  const list = { id: ref.listId, name: ref.listName };
  const name = contactName({
    handle: data.handle ?? ref.handle,
    userId: data.user_id ?? ref.userId,
    name: ref.name,
  });
  return reply(
    [notice('success', `Updated ${name} in ${list.name}: ${changes(fields)}.`), contactNode(ctx, list, data)],
    { visibility: 'channel' },
  );
}

function statusPicker(ctx: CommandContext, ref: ContactPayload): Reply {
  return reply([
    text(`New status for ${contactName(ref)} in ${ref.listName}:`),
    select({
      placeholder: 'Choose a status',
      actionId: ctx.token(KINDS.status, ref, { personal: true }),
      options: CRM_STATUSES.map((status) => ({ label: CRM_STATUS_LABELS[status], value: status })),
    }),
  ]);
}

/** A press of an "Edit" made before it opened the contact's form: the form, and the command it runs. */
function editHelp(ctx: CommandContext, ref: ContactPayload): Reply {
  const form = contactForm(ref);
  return reply([
    text(
      `Edit ${contactName(ref)} in ${ref.listName}: run `,
      code(
        `/scout list update ${quoted(ref.listName)} ${creatorRef(ref) ?? '<creator>'} status:${STATUS_EXAMPLE} notes:"…"`,
      ),
      form === null ? '.' : ', or fill in the form.',
    ),
    form === null
      ? null
      : buttons(formButton('Open the form', ctx.token(FORM_KIND, form, { personal: true }))),
  ]);
}

/** What a press of "Set status" or "Edit" asks to change, or null when it carries nothing. */
function requested(event: ActionEvent): Record<string, unknown> | null {
  if (event.values !== undefined && Object.keys(event.values).length > 0)
    return fieldsFromValues(event.values);
  if (event.value !== undefined && event.value.trim() !== '') return fieldsFromText(event.value);
  return null;
}

/** "Set status": without a value, a personal select of the six statuses; with one (the choice), the update. */
export const setStatusAction = defineAction({
  kind: KINDS.status,
  payload: contactPayload,
  mutates: true,
  async run(ctx, ref, event) {
    const raw = event.values?.status ?? event.value;
    if (raw === undefined || raw.trim() === '') return statusPicker(ctx, ref);
    const status = coerceParam('status', STATUS_PARAM, raw).status;
    const { contactId: _, ...fields } = validated(ref.contactId, { status });
    return applyUpdate(ctx, ref, fields);
  },
});

/** "Edit" as it was before it opened the form: form values or typed options update the contact; a bare press offers the form. */
export const editAction = defineAction({
  kind: KINDS.edit,
  payload: contactPayload,
  mutates: true,
  async run(ctx, ref, event) {
    const raw = requested(event);
    if (raw === null) return editHelp(ctx, ref);
    const { contactId: _, ...fields } = validated(ref.contactId, raw);
    return applyUpdate(ctx, ref, fields);
  },
});
