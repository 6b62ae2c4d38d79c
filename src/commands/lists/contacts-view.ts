/** A page of a list's contacts: contact rows with their buttons (or compact lines for big pages) and a pager. */
import { z } from 'zod';
import { FORM_KIND, type FormRequest, formButton } from '../../core/command/forms/index.js';
import type { CommandContext } from '../../core/command/types.js';
import { CRM_STATUSES, type CrmStatus } from '../../core/service/enums.js';
import type { CrmContact } from '../../core/service/index.js';
import {
  type Button,
  bold,
  button,
  type CardNode,
  code,
  formatAmount,
  notice,
  pager,
  type Reply,
  type ReplyNode,
  reply,
  shortText,
  text,
} from '../../core/ui/index.js';
import { quoted, statusLabel, textLines } from './common.js';
import { contactRow } from './crm-cards.js';
import type { ListTarget } from './resolve.js';

/** Element kinds of the list family. */
export const KINDS = {
  page: 'list.page',
  status: 'list.status',
  edit: 'list.edit',
  remove: 'list.remove',
  keep: 'list.keep',
} as const;

/** Contacts per chat page unless the person asks for another page size. */
export const CHAT_PAGE_SIZE = 10;
/** Pages up to this size show each contact as a row with buttons; bigger pages show one line per contact. */
export const ROWS_WITH_BUTTONS_MAX = 10;

/** The state behind a pager or "Open" button. */
export const pagePayload = z.object({
  listId: z.string(),
  name: z.string(),
  page: z.number().int().min(1),
  perPage: z.number().int().min(1).max(500),
  status: z.enum(CRM_STATUSES).optional(),
  replace: z.boolean(),
});

/** A page request. */
export type PagePayload = z.infer<typeof pagePayload>;

/** The state behind a contact's "Set status" and "Edit" buttons. */
export const contactPayload = z.object({
  contactId: z.string(),
  listId: z.string(),
  listName: z.string(),
  userId: z.string(),
  handle: z.string().nullable(),
});

/** A contact as its buttons refer to it. */
export type ContactPayload = z.infer<typeof contactPayload>;

/** The payload of a contact's buttons. */
export function contactRef(list: ListTarget, contact: CrmContact): ContactPayload {
  return {
    contactId: contact.id,
    listId: list.id,
    listName: list.name,
    userId: contact.user_id ?? '',
    handle: contact.handle ?? null,
  };
}

/**
 * The contact's form: `list update` with its list and creator set, so that only what changes is filled in; null
 * for a contact known by neither a creator id nor a handle.
 */
export function contactForm(ref: ContactPayload): FormRequest | null {
  const handle = ref.handle?.replace(/^@+/, '').trim();
  const creator = ref.userId !== '' ? ref.userId : handle ? `@${handle}` : null;
  if (creator === null) return null;
  return {
    family: 'list',
    command: 'update',
    title: `Edit ${contactName(ref)}`,
    fixed: { list: ref.listId, creator },
  };
}

/** "Set status" and "Edit" (the contact's form) for one contact. */
export function contactButtons(ctx: CommandContext, ref: ContactPayload): Button[] {
  const form = contactForm(ref);
  return [
    button('Set status', ctx.token(KINDS.status, ref), { style: 'primary' }),
    form === null
      ? button('Edit', ctx.token(KINDS.edit, ref))
      : formButton('Edit', ctx.token(FORM_KIND, form)),
  ];
}

/** A contact row with its buttons. */
export function contactNode(ctx: CommandContext, list: ListTarget, contact: CrmContact): CardNode {
  return contactRow(contact, { actions: contactButtons(ctx, contactRef(list, contact)) });
}

/** How a contact is named in messages: "@handle", or the creator id. */
export function contactName(ref: { handle: string | null; userId: string }): string {
  const handle = ref.handle?.replace(/^@+/, '').trim();
  return handle ? `@${handle}` : ref.userId;
}

const amount = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? formatAmount(value) : null;

/** One line per contact, for pages too big for a row (and buttons) each. */
function compactLine(contact: CrmContact, index: number): string {
  const parts = [
    `${index}. ${contactName({ handle: contact.handle ?? null, userId: contact.user_id ?? contact.id })}`,
    contact.user_id && contact.handle ? `(${contact.user_id})` : null,
    `· ${statusLabel(contact.status)}`,
    contact.contact_email ? `· ${contact.contact_email}` : null,
    amount(contact.proposed_rate) === null ? null : `· proposed ${amount(contact.proposed_rate)}`,
    amount(contact.agreed_rate) === null ? null : `· agreed ${amount(contact.agreed_rate)}`,
    contact.content_deliverables ? `· ${shortText(contact.content_deliverables, 80)}` : null,
    contact.notes ? `· notes: ${shortText(contact.notes, 120)}` : null,
  ];
  return parts.filter((part) => part !== null).join(' ');
}

/** Reads one page of a list's contacts and lays it out. */
export async function contactsPage(ctx: CommandContext, request: PagePayload): Promise<Reply> {
  const list: ListTarget = { id: request.listId, name: request.name };
  const status: CrmStatus | undefined = request.status;
  const { data } = await ctx.service.crm.listCreators({
    listId: list.id,
    page: request.page,
    perPage: request.perPage,
    ...(status === undefined ? {} : { status }),
  });
  const total = data.total ?? data.items.length;
  const filter = status === undefined ? '' : ` with status ${statusLabel(status)}`;
  const nodes: ReplyNode[] = [text(bold(list.name), ` · ${total} contact${total === 1 ? '' : 's'}${filter}`)];
  if (data.items.length === 0) {
    nodes.push(
      total > 0
        ? notice('info', `Page ${data.page} is past the end (${total} contacts${filter}).`)
        : notice('info', [
            `No contacts${filter} yet. Add creators with `,
            code(`/scout list add ${quoted(list.name)} <creator ids>`),
            '.',
          ]),
    );
  } else if (request.perPage <= ROWS_WITH_BUTTONS_MAX) {
    nodes.push(...data.items.map((contact) => contactNode(ctx, list, contact)));
  } else {
    const first = (data.page - 1) * request.perPage + 1;
    nodes.push(...textLines(data.items.map((contact, i) => compactLine(contact, first + i))));
    nodes.push(
      text(
        `Pages of up to ${ROWS_WITH_BUTTONS_MAX} contacts carry buttons; change one with `,
        code(`/scout list update ${quoted(list.name)} <creator id or @handle> status:<status>`),
        '.',
      ),
    );
  }
  const previous = data.page > 1 ? { ...request, page: data.page - 1, replace: true } : null;
  const next = data.nextPage !== null ? { ...request, page: data.nextPage, replace: true } : null;
  if (previous !== null || next !== null) {
    nodes.push(
      pager({
        page: data.page,
        totalPages: data.totalPages,
        prevActionId: previous === null ? null : ctx.token(KINDS.page, previous),
        nextActionId: next === null ? null : ctx.token(KINDS.page, next),
        label: list.name,
      }),
    );
  }
  return reply(nodes, { visibility: 'channel', replace: request.replace });
}
