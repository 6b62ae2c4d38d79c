/**
 * `list add` to a list no one has: the answer names the team's lists and offers Create "<name>" and add, which
 * creates the list and adds the creators (with the status and details typed) in one press. Pressed again, or after
 * someone made the list meanwhile, the list of that name is used, never made twice.
 */
import { z } from 'zod';
import { didYouMean, matchChoice } from '../../core/command/suggest.js';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import { type CrmList, crmAddCreatorsInput } from '../../core/service/index.js';
import { button, buttons, notice, type Reply, reply, truncate } from '../../core/ui/index.js';
import { quoted } from './common.js';
import { LIST_NAME_MAX } from './list-inputs.js';
import { chooseList, hasList, type ListTarget } from './resolve.js';

/** The element kind of Create "<name>" and add. */
export const CREATE_ADD_KIND = 'list.create-add';

/** A list id the stored input is checked with before its list is known. */
const PENDING = 'pending';
/** Lists named in the answer, at most. */
const NAMES_SHOWN = 10;

const payload = z.object({
  name: z.string().trim().min(1).max(LIST_NAME_MAX),
  /** The add input as typed (ids, status, notes, single-creator details), without the list. */
  input: z.record(z.string(), z.unknown()),
  repeated: z.array(z.string()),
});

/** What `list add` does once it has its list: the add request, and its answer. */
export type AddToList = (
  ctx: CommandContext,
  list: ListTarget,
  input: Omit<z.output<typeof crmAddCreatorsInput>, 'listId'>,
  repeated: readonly string[],
) => Promise<Reply>;

/** Whether `name` names none of the team's lists: `list add` then offers to create it. */
export const isNewList = (lists: readonly CrmList[], name: string) => !hasList(lists, name);

/** No list is named `name`: says so, with the team's lists, and offers Create "<name>" and add. */
export function offerNewList(
  ctx: CommandContext,
  lists: readonly CrmList[],
  request: { name: string; input: Readonly<Record<string, unknown>>; repeated: readonly string[] },
): Reply {
  ctx.changedNothing();
  const names = lists.map((list) => quoted(list.name ?? list.id));
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  const name = request.name.trim();
  const guess = matchChoice(
    name,
    lists.map((list) => list.name ?? list.id),
  );
  const hint = guess.ok ? '' : didYouMean(guess.suggestions);
  const said =
    names.length === 0 ? 'The team has no lists yet.' : `${hint.trim()} Lists: ${shown}${more}.`.trim();
  if (name.length > LIST_NAME_MAX)
    return reply([notice('warning', `There is no list "${truncate(name, 60)}". ${said}`)]);
  return reply([
    notice('warning', `There is no list "${name}". ${said}`),
    buttons(
      button(
        `Create "${truncate(name, 50)}" and add`,
        ctx.token(CREATE_ADD_KIND, { ...request, name, repeated: [...request.repeated] }, { personal: true }),
        { style: 'primary' },
      ),
    ),
  ]);
}

/** Create "<name>" and add, answered by `add` once the list exists (made now, or found by its name). */
export function createAddAction(add: AddToList) {
  return defineAction({
    kind: CREATE_ADD_KIND,
    payload,
    mutates: true,
    async run(ctx, { name, input, repeated }) {
      // Checked as typed before; a stored request that no longer reads is said like any expired button.
      const typed = crmAddCreatorsInput.safeParse({ ...input, listId: PENDING });
      if (!typed.success) return ctx.expired();
      const { lists } = (await ctx.service.crm.listLists()).data;
      const existing = hasList(lists, name) ? chooseList(lists, name) : null;
      const created = existing === null ? (await ctx.service.crm.createList({ name })).data : null;
      const list = existing ?? { id: created?.id ?? '', name: created?.name ?? name };
      const { listId: _, ...rest } = typed.data;
      const added = await add(ctx, list, rest, repeated);
      const first =
        existing === null
          ? notice('success', `Created the list ${quoted(list.name)}.`)
          : notice('info', `The list ${quoted(list.name)} exists already: added there.`);
      return reply([first, ...added.nodes], { visibility: added.visibility });
    },
  });
}
