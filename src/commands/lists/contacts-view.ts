/**
 * A page of a list's contacts as a table, with selects to act on each contact and a pager; the buttons of one
 * contact (Set status, Edit, Remove) and how a contact is named.
 */
import { z } from 'zod';
import { FORM_KIND, type FormRequest, formButton } from '../../core/command/forms/index.js';
import type { CommandContext } from '../../core/command/types.js';
import { CRM_STATUSES, type CrmStatus } from '../../core/service/enums.js';
import type { CrmContact } from '../../core/service/index.js';
import {
  type Button,
  bold,
  button,
  buttons,
  type CardNode,
  code,
  type NoticeNode,
  notice,
  type PagerNode,
  pager,
  plural,
  type Reply,
  reply,
  type SelectNode,
  TABLE_ROWS_MAX,
  text,
} from '../../core/ui/index.js';
import { choosers } from './choosers.js';
import { quoted, STATUS_EXAMPLE, statusLabel, typedStatus } from './common.js';
import { contactsTable, creatorLabel } from './contact-rows.js';
import { contactRow } from './crm-cards.js';
import type { ListTarget } from './resolve.js';

/** Element kinds of the list family. */
export const KINDS = {
  page: 'list.page',
  status: 'list.status',
  edit: 'list.edit',
  remove: 'list.remove',
  keep: 'list.keep',
  contact: 'list.contact',
  ask: 'list.ask-remove',
} as const;

/** Contacts a table shows, read in one request: as many rows as a table holds. */
export const CONTACTS_PER_TABLE = TABLE_ROWS_MAX;

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
  /** The creator's name, where no handle is known (a reply's sender). */
  name: z.string().nullable().optional(),
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
 * The contact's form: `list update` with its list and creator set by name and handle, as people type them, so that
 * only what changes is filled in; null for a contact known by neither a creator id nor a handle.
 */
export function contactForm(ref: ContactPayload): FormRequest | null {
  const creator = creatorRef(ref);
  if (creator === null) return null;
  return {
    family: 'list',
    command: 'update',
    title: `Edit ${contactName(ref)}`,
    fixed: { list: ref.listName, creator },
  };
}

/**
 * A contact as people write it in a command line: `@handle`, else the creator id (the only name it has); null for
 * neither. `list update` finds the contact either way.
 */
export function creatorRef(ref: { handle: string | null; userId: string }): string | null {
  const handle = ref.handle?.replace(/^@+/, '').trim();
  return handle ? `@${handle}` : ref.userId !== '' ? ref.userId : null;
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

/** How a contact is named in messages: "@handle", else their name, else (the only name left) the creator id. */
export function contactName(ref: {
  handle: string | null;
  userId: string;
  name?: string | null | undefined;
}): string {
  const handle = ref.handle?.replace(/^@+/, '').trim();
  const name = ref.name?.trim();
  return handle ? `@${handle}` : name ? name : ref.userId;
}

/** The selects that reach each contact of a table: choosing one shows it with what can be done to it. */
function contactChoosers(
  ctx: CommandContext,
  list: ListTarget,
  contacts: readonly CrmContact[],
  first: number,
): SelectNode[] {
  const choices = contacts.map((contact, index) => ({
    row: first + index,
    label: creatorLabel(contact),
    value: contact.id,
    description: statusLabel(contact.status),
  }));
  return choosers(ctx, KINDS.contact, choices, CONTACT_WORDS, () => ({
    listId: list.id,
    listName: list.name,
  }));
}

const CONTACT_WORDS = {
  one: 'Act on a contact…',
  some: (from: number, to: number) => `Act on contacts ${from}–${to}…`,
};

/** What a table that holds part of the contacts says of the others, and how to see them. */
function othersNote(list: ListTarget, status: CrmStatus | undefined, shown: Shown): NoticeNode | null {
  const others = shown.total - shown.count;
  if (others <= 0) return null;
  const filter = status === undefined ? '' : ` status:${typedStatus(status)}`;
  return notice('info', [
    `This table shows contacts ${shown.first}–${shown.first + shown.count - 1} of ${shown.total}. `,
    `See the other ${plural(others, 'contact')} with the pager below, all of them in a file with `,
    code(`/scout list export ${quoted(list.name)}${filter}`),
    ...(status === undefined
      ? [', or one status at a time: ', code(`/scout list ${quoted(list.name)} status:${STATUS_EXAMPLE}`)]
      : []),
    '.',
  ]);
}

/** Which contacts a table shows: from the `first` (counted from 1), `count` of them, of `total`. */
interface Shown {
  readonly first: number;
  readonly count: number;
  readonly total: number;
}

/** What a list without contacts (or none of the status asked) says. */
function emptyNotice(list: ListTarget, filter: string): NoticeNode {
  return notice('info', [
    `No contacts${filter} yet. Add creators with `,
    code(`/scout list add ${quoted(list.name)} <creator ids>`),
    '.',
  ]);
}

/** A page past the end of the list: says how many pages it has, and offers the last one. */
function pastTheEnd(ctx: CommandContext, request: PagePayload, page: number, total: number, filter: string) {
  const perPage = Math.min(request.perPage, CONTACTS_PER_TABLE);
  const last = Math.max(1, Math.ceil(total / perPage));
  return [
    notice(
      'info',
      `Page ${page} is past the end: ${plural(total, 'contact')}${filter} fill ${plural(last, 'page')}.`,
    ),
    buttons(button(`Show page ${last}`, ctx.token(KINDS.page, { ...request, page: last, replace: true }))),
  ];
}

/** The pager to the pages before and after this one (each one request), or null for a list of one page. */
function pagerOf(
  ctx: CommandContext,
  request: PagePayload,
  data: { page: number; nextPage: number | null; totalPages: number | null },
): PagerNode | null {
  const previous = data.page > 1 ? { ...request, page: data.page - 1, replace: true } : null;
  const next = data.nextPage !== null ? { ...request, page: data.nextPage, replace: true } : null;
  if (previous === null && next === null) return null;
  return pager({
    page: data.page,
    totalPages: data.totalPages,
    prevActionId: previous === null ? null : ctx.token(KINDS.page, previous),
    nextActionId: next === null ? null : ctx.token(KINDS.page, next),
    label: request.name,
  });
}

/**
 * Reads one page of a list's contacts, at most CONTACTS_PER_TABLE, in one request, and lays it out: a table, the
 * selects to act on each contact, what the table leaves out, and a pager to the next hundred.
 */
export async function contactsPage(ctx: CommandContext, request: PagePayload): Promise<Reply> {
  const list: ListTarget = { id: request.listId, name: request.name };
  const status: CrmStatus | undefined = request.status;
  const perPage = Math.min(request.perPage, CONTACTS_PER_TABLE);
  const { data } = await ctx.service.crm.listCreators({
    listId: list.id,
    page: request.page,
    perPage,
    ...(status === undefined ? {} : { status }),
  });
  const total = data.total ?? data.items.length;
  const filter = status === undefined ? '' : ` with status ${statusLabel(status)}`;
  const items = data.items.slice(0, CONTACTS_PER_TABLE);
  const shown = { first: (data.page - 1) * perPage + 1, count: items.length, total };
  const last = shown.first + shown.count - 1;
  return reply(
    [
      text(bold(list.name), ` · ${total} contact${total === 1 ? '' : 's'}${filter}`),
      ...(items.length === 0
        ? total > 0
          ? pastTheEnd(ctx, request, data.page, total, filter)
          : [emptyNotice(list, filter)]
        : [
            contactsTable(`${list.name}, contacts ${shown.first}–${last}${filter}`, items),
            ...contactChoosers(ctx, list, items, shown.first),
            othersNote(list, status, shown),
          ]),
      items.length === 0 ? null : pagerOf(ctx, request, data),
    ],
    { visibility: 'channel', replace: request.replace },
  );
}
