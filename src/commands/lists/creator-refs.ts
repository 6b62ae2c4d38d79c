/**
 * Creators as typed after a list in `list add` and `list check`: creator ids (`<platform>_<id>`, as search gives
 * them), `@handle`s, which Scout turns into creator ids from what it knows (the profiles the account looked up, the
 * contacts of the team's lists), and words that are neither, which are never sent. Also how those creators read:
 * "@handle · Name" where known.
 */
import type { CommandContext } from '../../core/command/types.js';
import { V1_PLATFORMS } from '../../core/service/enums.js';
import type { CrmContact, CrmList } from '../../core/service/index.js';
import { creatorLabel, handleOf } from './contact-rows.js';
import type { ListTarget } from './resolve.js';

/** Contacts read per request while looking for handles (the contract's largest page). */
const PAGE_SIZE = 500;
/** Pages read at most for one command, over every list, so huge lists cannot keep it busy. */
const PAGES_MAX = 20;

const CREATOR_ID = new RegExp(`^(?:${V1_PLATFORMS.join('|')})_\\S+$`, 'i');

/**
 * Whether a word may be a creator id: `<platform>_<id>` (tiktok_123, youtube_UC…), or, as the contract lets other
 * platforms use their own id strings, any word with a digit or an underscore in it. A plain word (the rest of an
 * unquoted list name, "Launch") is not one.
 */
export const looksLikeCreatorId = (word: string): boolean =>
  CREATOR_ID.test(word.trim()) || /^[^\s@"']*[\d_][^\s"']*$/.test(word.trim());

/** Whether a word is an `@handle`. */
export const isHandle = (word: string): boolean => /^@+[^\s@]+$/.test(word.trim());

/** A handle as compared: without its "@", in lower case. */
const bare = (handle: string) => handle.trim().replace(/^@+/, '').toLowerCase();

/** The words typed after a list, each once: creator ids, handles, and the words that are neither. */
export interface TypedCreators {
  /** Every creator id or handle, in the order typed. */
  readonly refs: readonly string[];
  readonly handles: readonly string[];
  readonly others: readonly string[];
}

/** Sorts the words typed after a list. */
export function sortTyped(words: readonly string[]): TypedCreators {
  const trimmed = words.map((word) => word.trim()).filter((word) => word !== '');
  return {
    refs: trimmed.filter((word) => looksLikeCreatorId(word) || isHandle(word)),
    handles: trimmed.filter(isHandle),
    others: trimmed.filter((word) => !looksLikeCreatorId(word) && !isHandle(word)),
  };
}

/** What became of the handles typed. */
export interface Handles {
  /** The creator id of each handle found, by the handle as typed. */
  readonly ids: ReadonlyMap<string, string>;
  /** Handles no creator Scout knows of has. */
  readonly unknown: readonly string[];
  /** Handles several creators have, each with their ids. */
  readonly several: ReadonlyArray<{ handle: string; ids: string[] }>;
}

/** What one command reads of creators: the profile cache, and the contacts of the team's lists, each page once. */
export interface CreatorBook {
  /** Finds the creator of each handle: one the account looked up, or a contact of the team's lists. */
  resolve(handles: readonly string[]): Promise<Handles>;
  /**
   * How people read these creators, by id: "@handle · Name" where known, else the id. The contacts of the list are
   * read for those of `inList` known no other way.
   */
  labels(ids: readonly string[], inList: ReadonlySet<string>): Promise<Map<string, string>>;
}

/** A list's contacts being read: the next page, or null once read to the end. */
interface Reading {
  readonly listId: string;
  next: number | null;
}

/** The book of one command over the team's lists, `target` (the list it acts on, if it exists) read first. */
export function creatorBook(
  ctx: CommandContext,
  lists: readonly CrmList[],
  target: ListTarget | null,
): CreatorBook {
  const labels = new Map<string, string>();
  const byHandle = new Map<string, Set<string>>();
  const inTarget = new Set<string>();
  const order = [
    ...(target === null ? [] : [target.id]),
    ...lists.map((l) => l.id).filter((id) => id !== target?.id),
  ];
  const readings: Reading[] = order.map((listId) => ({ listId, next: 1 }));
  let pages = 0;

  const note = (userId: string, handle: string | null, label: string) => {
    if (!labels.has(userId) || labels.get(userId) === userId) labels.set(userId, label);
    if (handle === null) return;
    const ids = byHandle.get(bare(handle)) ?? new Set<string>();
    ids.add(userId);
    byHandle.set(bare(handle), ids);
  };
  const noteContact = (listId: string, contact: CrmContact) => {
    const userId = contact.user_id ?? '';
    if (userId === '') return;
    if (listId === target?.id) inTarget.add(userId);
    note(userId, handleOf(contact), creatorLabel(contact));
  };
  /** Reads pages of one list until `done` holds, the list ends or the command's pages are spent. */
  const read = async (reading: Reading, done: () => boolean) => {
    while (reading.next !== null && pages < PAGES_MAX && !done()) {
      pages++;
      const { data } = await ctx.service.crm.listCreators({
        listId: reading.listId,
        page: reading.next,
        perPage: PAGE_SIZE,
      });
      for (const contact of data.items) noteContact(reading.listId, contact);
      reading.next = data.items.length === 0 ? null : data.nextPage;
    }
  };
  const cached = cacheReader(ctx, note);

  return {
    async resolve(handles) {
      if (handles.length === 0) return { ids: new Map(), unknown: [], several: [] };
      for (const handle of handles) await cached.byHandle(handle);
      const [first] = readings;
      if (target !== null && first !== undefined) await read(first, () => false);
      const found = () => handles.every((handle) => byHandle.has(bare(handle)));
      for (const reading of readings) await read(reading, found);
      return sorted(handles, byHandle, inTarget);
    },
    async labels(ids, inList) {
      await cached.byIds(ids.filter((id) => !labels.has(id)));
      const allNamed = () => [...inList].every((id) => labels.has(id));
      const [first] = readings;
      if (target !== null && first !== undefined) await read(first, allNamed);
      return new Map(ids.map((id) => [id, labels.get(id) ?? id]));
    },
  };
}

/** Each handle's creator: the one creator with it, else the one in the list acted on, else it is said. */
function sorted(
  handles: readonly string[],
  byHandle: ReadonlyMap<string, ReadonlySet<string>>,
  inTarget: ReadonlySet<string>,
): Handles {
  const ids = new Map<string, string>();
  const unknown: string[] = [];
  const several: Array<{ handle: string; ids: string[] }> = [];
  for (const handle of handles) {
    const found = [...(byHandle.get(bare(handle)) ?? [])];
    const inList = found.filter((id) => inTarget.has(id));
    const [only] = found.length === 1 ? found : inList.length === 1 ? inList : [];
    if (only !== undefined) ids.set(handle, only);
    else if (found.length === 0) unknown.push(handle);
    else several.push({ handle, ids: found });
  }
  return { ids, unknown, several };
}

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** A cached profile as people read it: "@handle · Name". */
function profileLabel(profile: Readonly<Record<string, unknown>>): {
  handle: string | null;
  label: string | null;
} {
  const handle = textOf(profile.handle)?.replace(/^@+/, '') ?? null;
  const parts = [handle === null || handle === '' ? null : `@${handle}`, textOf(profile.nickname)];
  const label = parts.filter((part) => part !== null).join(' · ');
  return { handle: handle === '' ? null : handle, label: label === '' ? null : label };
}

/** Reads the account's fresh cached profiles, by handle on every platform or by ids, into `note`. */
function cacheReader(
  ctx: CommandContext,
  note: (userId: string, handle: string | null, label: string) => void,
) {
  const account = ctx.account;
  const freshSince = new Date(ctx.clock.now().getTime() - ctx.settings.profileTtlMs);
  const noteProfile = (userId: string, profile: Readonly<Record<string, unknown>>) => {
    const { handle, label } = profileLabel(profile);
    note(userId, handle, label ?? userId);
  };
  return {
    async byHandle(handle: string) {
      if (account === null) return;
      for (const platform of V1_PLATFORMS) {
        const found = await ctx.store.handles.find(account, platform, bare(handle), freshSince);
        const userId = textOf(found?.profile.user_id);
        if (found !== null && userId !== null) noteProfile(userId, found.profile);
      }
    },
    async byIds(ids: readonly string[]) {
      if (account === null || ids.length === 0) return;
      const found = await ctx.store.profiles.getFresh(account, ids, freshSince);
      for (const [userId, entry] of found) noteProfile(userId, entry.profile);
    },
  };
}
