/** Finding what people name in chat: a list by id or name, a contact in a list by creator id or handle. */
import { CommandInputError } from '../../core/command/errors.js';
import { didYouMean, fold, matchChoice } from '../../core/command/suggest.js';
import type { CommandContext } from '../../core/command/types.js';
import type { CrmContact, CrmList } from '../../core/service/index.js';
import { quoted } from './common.js';
import { creatorName } from './contact-rows.js';

/** Names shown when a list reference matches nothing. */
const NAMES_SHOWN = 10;
/** Contacts read per request while looking for a handle (the contract's largest page). */
const SCAN_PAGE_SIZE = 500;
/** Pages read at most while looking for a handle, so a huge list cannot keep one command busy. */
const SCAN_PAGES_MAX = 20;

/** A list as commands and buttons refer to it. */
export interface ListTarget {
  id: string;
  name: string;
}

/** A contact found in a list. */
export interface ContactTarget {
  contactId: string;
  userId: string;
  handle: string | null;
  /** The creator's name, where known (it names a contact that has no handle). */
  name?: string | null | undefined;
  status: string | null;
  /** The full record, when it was read from the list's creators. */
  contact: CrmContact | null;
}

const nameOf = (list: CrmList) => list.name ?? list.id;

function pick(lists: readonly CrmList[], ref: string): CrmList[] {
  const typed = ref.trim();
  const byId = lists.filter((list) => list.id === typed);
  if (byId.length > 0) return byId;
  const lower = typed.toLowerCase();
  const byName = lists.filter((list) => (list.name ?? '').trim().toLowerCase() === lower);
  if (byName.length > 0) return byName;
  // Spacing and punctuation do not matter either ("spring-launch" finds "Spring Launch").
  return lists.filter(
    (list) => list.name !== null && list.name !== undefined && fold(list.name) === fold(typed),
  );
}

/** Whether a list reference names one or more of the team's lists (by id or name). */
export const hasList = (lists: readonly CrmList[], ref: string): boolean => pick(lists, ref).length > 0;

/** Picks a list out of the team's lists by id or name; throws a message naming the lists when none matches. */
export function chooseList(lists: readonly CrmList[], ref: string): ListTarget {
  const found = pick(lists, ref);
  const [first] = found;
  if (found.length > 1) {
    throw new CommandInputError(
      `${found.length} lists are named "${ref}": use the id instead (${found.map((l) => l.id).join(', ')}).`,
    );
  }
  if (first !== undefined) return { id: first.id, name: nameOf(first) };
  const names = lists.map(nameOf);
  if (names.length === 0) {
    throw new CommandInputError(
      `There is no list "${ref}": the team has no lists yet. Create one with /scout lists create name:"Spring Launch".`,
    );
  }
  const guess = matchChoice(ref, names);
  const shown = names.slice(0, NAMES_SHOWN).map(quoted).join(', ');
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  throw new CommandInputError(
    `There is no list "${ref}".${guess.ok ? '' : didYouMean(guess.suggestions)} Lists: ${shown}${more}.`,
  );
}

/** Resolves a list reference against the team's active lists (one free call). */
export async function resolveList(ctx: CommandContext, ref: string): Promise<ListTarget> {
  const { data } = await ctx.service.crm.listLists();
  return chooseList(data.lists, ref);
}

const bareHandle = (handle: string | null | undefined) =>
  typeof handle === 'string' ? handle.trim().replace(/^@+/, '').toLowerCase() : '';

function fromContact(contact: CrmContact): ContactTarget {
  return {
    contactId: contact.id,
    userId: contact.user_id ?? '',
    handle: contact.handle ?? null,
    name: creatorName(contact),
    status: contact.status ?? null,
    contact,
  };
}

/**
 * The contact of a list with this contact id, read afresh (the list's creators page by page, the contract's largest
 * pages); null when it is no longer in the list.
 */
export async function contactById(
  ctx: CommandContext,
  list: ListTarget,
  contactId: string,
): Promise<CrmContact | null> {
  let page: number | null = 1;
  for (let read = 0; page !== null && read < SCAN_PAGES_MAX; read++) {
    const { data } = await ctx.service.crm.listCreators({ listId: list.id, page, perPage: SCAN_PAGE_SIZE });
    const found = data.items.find((contact) => contact.id === contactId);
    if (found !== undefined) return found;
    page = data.items.length === 0 ? null : data.nextPage;
  }
  return null;
}

/**
 * Finds a contact in a list by creator id or `@handle`: a creator id is looked up with the membership check, a
 * handle (or an id the check does not know) by reading the list's creators page by page.
 */
export async function findContact(
  ctx: CommandContext,
  list: ListTarget,
  ref: string,
): Promise<ContactTarget> {
  const typed = ref.trim();
  const isHandle = typed.startsWith('@');
  if (!isHandle) {
    const { data } = await ctx.service.crm.checkCreators({ listId: list.id, userIds: [typed] });
    const entry = data.entries.find((e) => e.exists && e.contact_id);
    if (entry?.contact_id) {
      return {
        contactId: entry.contact_id,
        userId: entry.user_id,
        handle: null,
        status: entry.status ?? null,
        contact: null,
      };
    }
  }
  const wanted = bareHandle(typed);
  const seen: string[] = [];
  let page: number | null = 1;
  for (let read = 0; page !== null && read < SCAN_PAGES_MAX; read++) {
    const { data } = await ctx.service.crm.listCreators({ listId: list.id, page, perPage: SCAN_PAGE_SIZE });
    for (const contact of data.items) {
      if (contact.user_id === typed || (wanted !== '' && bareHandle(contact.handle) === wanted)) {
        return fromContact(contact);
      }
      if (contact.handle) seen.push(`@${bareHandle(contact.handle)}`);
    }
    page = data.items.length === 0 ? null : data.nextPage;
  }
  const guess = matchChoice(typed.startsWith('@') ? typed : `@${typed}`, seen);
  const hint = didYouMean(guess.ok ? [guess.value] : guess.suggestions);
  throw new CommandInputError(
    `No creator "${typed}" in ${quoted(list.name)}.${hint} ` +
      `Write a creator id or @handle; /scout list ${quoted(list.name)} shows who is in it.`,
  );
}
