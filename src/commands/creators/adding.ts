/**
 * Adding creators to a CRM list, whoever they are (one, a page, those chosen, every result): without a list, a
 * personal picker of the team's lists; with one named, a single add request carrying every id; with a name no list
 * has, the offer to create it and add them, one press.
 */
import { didYouMean, matchChoice } from '../../core/command/suggest.js';
import type { CommandContext } from '../../core/command/types.js';
import type { CrmList } from '../../core/service/crm.js';
import {
  bold,
  button,
  buttons,
  code,
  notice,
  OPTION_VALUE_MAX,
  plural,
  type Reply,
  reply,
  SELECT_OPTIONS_MAX,
  select,
  text,
  truncate,
} from '../../core/ui/index.js';
import { manyOutcome, nameOf, outcome } from './outcomes.js';
import { type AddTarget, idsOf, isCreator, subjectOf } from './targets.js';
import { KINDS } from './views.js';

/** The preference that remembers the list a person last added to. */
export const LAST_LIST = 'last-list';

/** The longest list name offered for creation (a longer one is a sentence, not a name). */
export const NEW_LIST_NAME_MAX = 100;

/** The label of the button that creates a list and adds the creators to it. */
export const createLabel = (name: string) => `Create "${truncate(name, 50)}" and add`;

const stamp = (list: CrmList) => list.date_updated ?? list.date_created ?? '';

/** The team's lists, most recent first, with the person's last list moved to the front. */
function ordered(lists: readonly CrmList[], last: string | null): CrmList[] {
  const sorted = [...lists].sort((a, b) => stamp(b).localeCompare(stamp(a)));
  const preferred = sorted.findIndex((list) => list.id === last);
  if (preferred > 0) sorted.unshift(...sorted.splice(preferred, 1));
  return sorted;
}

type Found = { list: CrmList } | { problem: string } | { missing: string };

/** A list named by id, by exact name (any case), or by the unique list whose name starts with the words. */
export function findList(lists: readonly CrmList[], value: string): Found {
  const wanted = value.trim().toLowerCase();
  const byId = lists.find((list) => list.id === value.trim());
  if (byId !== undefined) return { list: byId };
  const exact = lists.filter((list) => nameOf(list).toLowerCase() === wanted);
  const candidates =
    exact.length > 0 ? exact : lists.filter((l) => nameOf(l).toLowerCase().startsWith(wanted));
  const [only] = candidates;
  if (candidates.length === 1 && only !== undefined) return { list: only };
  if (candidates.length === 0) return { missing: value.trim() };
  const names = candidates.map((list) => `"${nameOf(list)}"`).join(', ');
  return { problem: `"${value}" matches several lists: ${names}. Type more of the name.` };
}

function noLists(): Reply {
  return reply([
    notice('info', 'Your team has no CRM list yet.'),
    text(
      'Create one with ',
      code('/scout lists create name:"Spring launch"'),
      ', then press Add to list again, or name a new list there to create it.',
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
        description: plural(list.contact_count ?? 0, 'contact'),
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

/** No list is named `name`: says so, naming the lists, and offers to create it and add the creators there. */
function createOffer(ctx: CommandContext, target: AddTarget, name: string, lists: readonly CrmList[]): Reply {
  ctx.changedNothing();
  const names = lists.map((list) => `"${nameOf(list)}"`).join(', ');
  const guess = matchChoice(name, lists.map(nameOf));
  const hint = guess.ok ? '' : didYouMean(guess.suggestions).trim();
  const said = lists.length === 0 ? 'Your team has no list yet.' : `${hint} Your lists: ${names}.`.trim();
  if (name.length > NEW_LIST_NAME_MAX) {
    return reply([notice('warning', `There is no list "${truncate(name, 60)}". ${said}`)]);
  }
  return reply([
    notice('warning', `There is no list "${name}". ${said}`),
    buttons(
      button(createLabel(name), ctx.token(KINDS.createAdd, { target, name }, { personal: true }), {
        style: 'primary',
      }),
    ),
  ]);
}

/** Adds the target's creators to `list` in one request, remembers the list, and says what it did. */
export async function addToList(ctx: CommandContext, target: AddTarget, list: CrmList): Promise<Reply> {
  const ids = await idsOf(ctx, target);
  if (ids === null) return ctx.expired();
  const result = await ctx.service.crm.addCreators({ listId: list.id, userIds: ids, status: 'TO_OUTREACH' });
  await ctx.store.settings.setPreference(ctx.actor, LAST_LIST, list.id);
  return isCreator(target) ? outcome(target, list, result.data) : manyOutcome(target, list, result.data);
}

/**
 * Add to list for any target: without a list (`value` empty), the picker of the team's lists; with a list id or
 * name, the add; with a name no list has, the offer to create it.
 */
export async function addTo(
  ctx: CommandContext,
  target: AddTarget,
  value: string | undefined,
): Promise<Reply> {
  const { lists } = (await ctx.service.crm.listLists()).data;
  const named = value?.trim() ?? '';
  if (named === '') return lists.length === 0 ? noLists() : picker(ctx, target, lists);
  const found = findList(lists, named);
  if ('problem' in found) return reply([notice('warning', found.problem)]);
  if ('missing' in found) return createOffer(ctx, target, found.missing, lists);
  return addToList(ctx, target, found.list);
}
