/**
 * The buttons of creator results: Add to list (a personal list picker, or straight to a named list) for one
 * creator or for every creator of a page, and Details.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import type { CrmAddResult, CrmList } from '../../core/service/crm.js';
import {
  bold,
  code,
  fields,
  notice,
  OPTION_VALUE_MAX,
  plural,
  type Reply,
  reply,
  SELECT_OPTIONS_MAX,
  select,
  text,
} from '../../core/ui/index.js';
import { cachedProfiles, loadProfiles } from './profiles-cache.js';
import { type CreatorRef, cardButtons, detailNodes, KINDS, type PageRef } from './views.js';

/** The preference that remembers the list a person last added to. */
export const LAST_LIST = 'last-list';

const refPayload = z.object({ userId: z.string().min(1), handle: z.string().nullable() });

/** The most ids one add request takes (the contract's bound). */
const ADD_IDS_MAX = 500;

const pagePayload = z.object({ userIds: z.array(z.string().min(1)).min(1).max(ADD_IDS_MAX) });

/** One creator (a card's Add to list) or the creators of a page (Add all on this page). */
const addPayload = z.union([refPayload, pagePayload]);

type AddTarget = CreatorRef | PageRef;

const isPage = (target: AddTarget): target is PageRef => 'userIds' in target;

const stamp = (list: CrmList) => list.date_updated ?? list.date_created ?? '';

/** The team's lists, most recent first, with the person's last list moved to the front. */
function ordered(lists: readonly CrmList[], last: string | null): CrmList[] {
  const sorted = [...lists].sort((a, b) => stamp(b).localeCompare(stamp(a)));
  const preferred = sorted.findIndex((list) => list.id === last);
  if (preferred > 0) sorted.unshift(...sorted.splice(preferred, 1));
  return sorted;
}

const nameOf = (list: CrmList) => list.name ?? list.id;
const who = (ref: CreatorRef) => (ref.handle === null ? ref.userId : `@${ref.handle}`);
/** Who a picker adds: one creator by handle, or the creators of a page by count. */
const subjectOf = (target: AddTarget) =>
  isPage(target) ? `the ${plural(target.userIds.length, 'creator')} on this page` : who(target);

/** A list named by id, by exact name (any case), or by the unique list whose name starts with the words. */
function resolveList(lists: readonly CrmList[], value: string): { list: CrmList } | { problem: string } {
  const wanted = value.trim().toLowerCase();
  const byId = lists.find((list) => list.id === value.trim());
  if (byId !== undefined) return { list: byId };
  const exact = lists.filter((list) => nameOf(list).toLowerCase() === wanted);
  const candidates =
    exact.length > 0 ? exact : lists.filter((l) => nameOf(l).toLowerCase().startsWith(wanted));
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) return { list: only };
  const names = (candidates.length > 1 ? candidates : lists).map((list) => `"${nameOf(list)}"`).join(', ');
  return {
    problem:
      candidates.length > 1
        ? `"${value}" matches several lists: ${names}. Type more of the name.`
        : `There is no list "${value}". Your lists: ${names}.`,
  };
}

function noLists(): Reply {
  return reply([
    notice('info', 'Your team has no CRM list yet.'),
    text(
      'Create one with ',
      code('/scout lists create name:"Spring launch"'),
      ', then press Add to list again.',
    ),
  ]);
}

async function picker(ctx: CommandContext, target: AddTarget, lists: readonly CrmList[]): Promise<Reply> {
  const last = await ctx.store.settings.preference(ctx.actor, LAST_LIST);
  const choices = ordered(lists, last).filter((list) => list.id.length <= OPTION_VALUE_MAX);
  const shown = choices.slice(0, SELECT_OPTIONS_MAX);
  return reply([
    text('Add ', bold(subjectOf(target)), ' to which list?'),
    select({
      placeholder: 'Choose a list',
      actionId: ctx.token(KINDS.add, target, { personal: true }),
      options: shown.map((list) => ({
        label: nameOf(list),
        value: list.id,
        description: `${list.contact_count ?? 0} creators`,
      })),
      ...(last !== null && shown[0]?.id === last ? { selected: last } : {}),
      // A list not shown can be named: Add to list takes a list id or name.
      typed: true,
    }),
    choices.length > shown.length
      ? text(
          `Showing the ${shown.length} most recent of ${choices.length} lists; name another one to add there.`,
        )
      : null,
  ]);
}

/** What happened, in words, from the add counters. */
function outcome(ref: CreatorRef, list: CrmList, result: CrmAddResult): Reply {
  const name = nameOf(list);
  const handle = who(ref);
  if ((result.reactivated_count ?? 0) > 0) {
    return reply(
      [
        notice('success', [
          `Added ${handle} to ${name} again`,
          ': they had been removed from it before, so their earlier entry is reactivated with status To outreach.',
        ]),
      ],
      { visibility: 'channel' },
    );
  }
  if ((result.created_count ?? 0) > 0 || (result.added_count ?? 0) > 0) {
    return reply([notice('success', `Added ${handle} to ${name}.`)], { visibility: 'channel' });
  }
  if ((result.skipped_duplicate_count ?? 0) > 0) {
    return reply([notice('info', `${handle} is already in ${name}: nothing changed.`)]);
  }
  if ((result.skipped_invalid_count ?? 0) > 0) {
    return reply([
      notice('warning', `The service did not accept ${handle} as a creator id: nothing was added.`),
    ]);
  }
  return reply([notice('info', `The service added nothing to ${name} for ${handle}.`)]);
}

const counter = (value: number | null) => value ?? '—';

/** What adding a page did: a sentence, and the service's counters as it reported them. */
function pageOutcome(page: PageRef, list: CrmList, result: CrmAddResult): Reply {
  const name = nameOf(list);
  const added = result.added_count ?? (result.created_count ?? 0) + (result.reactivated_count ?? 0);
  const already = result.skipped_duplicate_count ?? 0;
  const invalid = result.skipped_invalid_count ?? 0;
  const asked = plural(page.userIds.length, 'creator');
  const headline =
    added > 0
      ? notice('success', `Added ${added} of the ${asked} on this page to ${name}.`)
      : already > 0 && invalid === 0
        ? notice('info', `All ${asked} on this page are already in ${name}: nothing changed.`)
        : notice('warning', `Nothing was added to ${name}.`);
  return reply(
    [
      headline,
      fields([
        { label: 'Added', value: counter(result.added_count), inline: true },
        { label: 'Reactivated', value: counter(result.reactivated_count), inline: true },
        { label: 'Already there', value: counter(result.skipped_duplicate_count), inline: true },
        ...(invalid > 0 ? [{ label: 'Not accepted', value: invalid, inline: true }] : []),
      ]),
      (result.reactivated_count ?? 0) > 0
        ? text(
            'Reactivated creators had been removed from the list before; they are back with status To outreach.',
          )
        : null,
    ],
    { visibility: added > 0 ? 'channel' : 'author' },
  );
}

/**
 * Add to list, for one creator or every creator of a page: without a value, a personal picker of the team's
 * lists; with one (a list id or name), one add request with every id (and no single-creator field).
 */
export const addAction = defineAction({
  kind: KINDS.add,
  payload: addPayload,
  mutates: true,
  async run(ctx, target, event) {
    const { lists } = (await ctx.service.crm.listLists()).data;
    if (lists.length === 0) return noLists();
    const value = event.value?.trim();
    if (value === undefined || value === '') return picker(ctx, target, lists);
    const found = resolveList(lists, value);
    if ('problem' in found) return reply([notice('warning', found.problem)]);
    const result = await ctx.service.crm.addCreators({
      listId: found.list.id,
      userIds: isPage(target) ? [...new Set(target.userIds)] : [target.userId],
      status: 'TO_OUTREACH',
    });
    await ctx.store.settings.setPreference(ctx.actor, LAST_LIST, found.list.id);
    return isPage(target)
      ? pageOutcome(target, found.list, result.data)
      : outcome(target, found.list, result.data);
  },
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
