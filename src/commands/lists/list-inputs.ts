/** Options and input schemas of `/scout list` commands, validated by the client's own input schemas. */
import { z } from 'zod';
import type { ParamTable } from '../../core/command/params.js';
import {
  crmAddCreatorsInput,
  crmCheckCreatorsInput,
  crmListCreatorsInput,
  crmRemoveCreatorInput,
  crmUpdateContactInput,
} from '../../core/service/index.js';
import { delegate, LIST_PARAM, PENDING_ID, STATUS_PARAM } from './common.js';
import { explainUpdate } from './contact-update.js';
import { CONTACTS_PER_TABLE } from './contacts-view.js';

/** The longest list name Scout creates or reads: a list it names can always be opened by that name. */
export const LIST_NAME_MAX = 200;

/** A list reference as typed. */
export const listRef = z.string().trim().min(1, 'needs a list name or id').max(LIST_NAME_MAX);

/** Creator ids or @handles: every bare word after the list, or comma lists. */
export const IDS_PARAM = {
  kind: 'texts',
  rest: true,
  description: 'Creator ids (tiktok_123) or @handles, separated by spaces, commas or new lines.',
  example: 'tiktok_12345',
} as const;

/** Ids shown when saying which were given more than once. */
const REPEATED_SHOWN = 5;

/**
 * Creator ids as typed, separated by spaces, commas or new lines in any mix (a platform option, Discord's, or a
 * quoted value brings several of them in one text), each once: `repeated` names those given more than once.
 */
function idsOf(value: unknown): { ids: unknown; repeated: string[] } {
  if (!Array.isArray(value)) return { ids: value, repeated: [] };
  const typed = value.flatMap((item: unknown) =>
    typeof item === 'string' ? item.split(/[\s,]+/).filter((id) => id !== '') : [item],
  );
  const seen = new Set<unknown>();
  const repeated = new Set<string>();
  for (const id of typed) {
    if (seen.has(id)) repeated.add(String(id));
    seen.add(id);
  }
  return { ids: [...seen], repeated: [...repeated] };
}

/** What `list add` says of ids given more than once: each was sent once. */
export function repeatedNote(repeated: readonly string[]): string | null {
  if (repeated.length === 0) return null;
  const shown = repeated.slice(0, REPEATED_SHOWN).join(', ');
  const more = repeated.length - REPEATED_SHOWN;
  return `Given more than once, sent once: ${shown}${more > 0 ? ` and ${more} more` : ''}.`;
}

/** The fields of `list add` that set one creator's details, by the client's names. */
const SINGLE_ONLY = new Set(['contactEmail', 'proposedRate', 'instagramHandle', 'tiktokHandle']);

/** Options of `list show`. */
export const showParams: ParamTable = {
  list: LIST_PARAM,
  page: { kind: 'integer', description: 'Page number, from 1.', example: '2', rank: 'paging' },
  perPage: {
    kind: 'integer',
    // A table holds at most this many rows, read in one request.
    min: 1,
    max: CONTACTS_PER_TABLE,
    rank: 'paging',
    aliases: ['limit', 'per_page', 'size'],
    description: `Contacts per page, 1 to ${CONTACTS_PER_TABLE} (${CONTACTS_PER_TABLE} by default).`,
    example: '25',
  },
  status: { ...STATUS_PARAM, description: 'Only contacts with this CRM status.' },
};

/** Input of `list show`: the list, page, page size (a table's worth by default) and status filter. */
export const showSchema = z.looseObject({ list: listRef }).transform((raw, ctx) => {
  const { list, ...rest } = raw;
  const checked = delegate('crm.listCreators', crmListCreatorsInput, { ...rest, listId: PENDING_ID }, ctx);
  if (checked === null) return z.NEVER;
  return {
    list,
    page: checked.page ?? 1,
    perPage: checked.perPage ?? CONTACTS_PER_TABLE,
    ...(checked.status === undefined ? {} : { status: checked.status }),
  };
});

/** Options of `list export`. */
export const exportParams: ParamTable = {
  list: LIST_PARAM,
  status: { ...STATUS_PARAM, description: 'Only contacts with this CRM status.' },
};

/** Input of `list export`: the list and the status filter, checked by the client's list-creators schema. */
export const exportSchema = z.looseObject({ list: listRef }).transform((raw, ctx) => {
  const { list, ...rest } = raw;
  const checked = delegate('crm.listCreators', crmListCreatorsInput, { ...rest, listId: PENDING_ID }, ctx);
  if (checked === null) return z.NEVER;
  return { list, ...(checked.status === undefined ? {} : { status: checked.status }) };
});

/** Input of `list add`: the list and the client's add input (without the list id). */
export const addSchema = z.looseObject({ list: listRef }).transform((raw, ctx) => {
  const { list, ...rest } = raw;
  const { ids: userIds, repeated } = idsOf(rest.userIds);
  const count = Array.isArray(userIds) ? userIds.length : 0;
  const checked = delegate(
    'crm.addCreators',
    crmAddCreatorsInput,
    { ...rest, userIds, listId: PENDING_ID },
    ctx,
    (field, message) => {
      if (SINGLE_ONLY.has(field) && message.includes('exactly one')) {
        // Said of the option, which the message starts with as typed (`email sets…`).
        return `sets one creator's details, so it needs exactly one creator id (you gave ${count}); add that creator on its own`;
      }
      return field === 'userIds' && message === 'is required'
        ? 'Give 1 to 500 creator ids after the list name.'
        : message;
    },
  );
  if (checked === null) return z.NEVER;
  const { listId: _, ...input } = checked;
  return { list, input, repeated };
});

/** Input of `list check`. */
export const checkSchema = z.looseObject({ list: listRef }).transform((raw, ctx) => {
  const { list, ...rest } = raw;
  const checked = delegate(
    'crm.checkCreators',
    crmCheckCreatorsInput,
    { ...rest, userIds: idsOf(rest.userIds).ids, listId: PENDING_ID },
    ctx,
    (field, message) =>
      field === 'userIds' && message === 'is required'
        ? 'Give one or more creator ids after the list name.'
        : message,
  );
  if (checked === null) return z.NEVER;
  return { list, userIds: checked.userIds };
});

/** Input of `list remove`. */
export const removeSchema = z.looseObject({ list: listRef, creator: z.string() }).transform((raw, ctx) => {
  const checked = delegate(
    'crm.removeCreator',
    crmRemoveCreatorInput,
    { listId: PENDING_ID, userId: raw.creator },
    ctx,
  );
  if (checked === null) return z.NEVER;
  return { list: raw.list, creator: checked.userId };
});

/** Input of `list update`: the list, the creator, and the client's update fields. */
export const updateSchema = z
  .looseObject({ list: listRef, creator: z.string().trim().min(1) })
  .transform((raw, ctx) => {
    const { list, creator, ...rest } = raw;
    const checked = delegate(
      'crm.updateContact',
      crmUpdateContactInput,
      { ...rest, contactId: PENDING_ID },
      ctx,
      explainUpdate,
    );
    if (checked === null) return z.NEVER;
    const { contactId: _, ...changes } = checked;
    return { list, creator, changes };
  });
