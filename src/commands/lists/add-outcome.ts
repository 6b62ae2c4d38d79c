/**
 * What `list add` did, in words, from the service's add counters: "Added 2 creators to Spring (1 back on the
 * list); 1 was already there; not added: youtube_x (not a creator id)." The ids the service did not take are
 * named, found with one membership check of those it neither added nor reported.
 */
import type { CommandContext } from '../../core/command/types.js';
import type { CrmAddResult } from '../../core/service/index.js';
import {
  button,
  buttons,
  CARDS_PER_PAGE,
  type NoticeLevel,
  notice,
  plural,
  type Reply,
  type ReplyNode,
  reply,
  text,
} from '../../core/ui/index.js';
import { CONTACTS_PER_TABLE, contactNode, KINDS } from './contacts-view.js';
import { repeatedNote } from './list-inputs.js';
import type { ListTarget } from './resolve.js';

/** Ids named as not added, at most. */
const NAMED_MAX = 5;

/** The Open list button of a list. */
export function openButton(ctx: CommandContext, list: ListTarget, label = 'Open list') {
  return button(
    label,
    ctx.token(KINDS.page, {
      listId: list.id,
      name: list.name,
      page: 1,
      perPage: CONTACTS_PER_TABLE,
      replace: false,
    }),
  );
}

/** The ids sent that the service did not take: those it neither added nor has in the list. */
async function notTaken(
  ctx: CommandContext,
  list: ListTarget,
  sent: readonly string[],
  result: CrmAddResult,
): Promise<string[]> {
  if ((result.skipped_invalid_count ?? 0) === 0) return [];
  const added = new Set(result.contacts.map((contact) => contact.user_id));
  const others = sent.filter((id) => !added.has(id));
  if (others.length === 0) return [];
  const { data } = await ctx.service.crm.checkCreators({ listId: list.id, userIds: others });
  const inList = new Set(data.entries.filter((entry) => entry.exists).map((entry) => entry.user_id));
  return others.filter((id) => !inList.has(id));
}

/** What the service did, in one sentence, and how it reads (success when something was added). */
export function addSentence(
  listName: string,
  result: CrmAddResult,
  invalid: readonly string[],
): { level: NoticeLevel; sentence: string } {
  const added = result.added_count ?? (result.created_count ?? 0) + (result.reactivated_count ?? 0);
  const back = result.reactivated_count ?? 0;
  const already = result.skipped_duplicate_count ?? 0;
  const skipped = Math.max(result.skipped_invalid_count ?? 0, invalid.length);
  const parts: string[] = [];
  if (already > 0) parts.push(`${already} ${already === 1 ? 'was' : 'were'} already there`);
  if (skipped > 0) {
    const shown = invalid.slice(0, NAMED_MAX);
    const more = skipped - shown.length;
    const ids = [
      ...shown,
      ...(more > 0 ? [`${shown.length > 0 ? `${more} more` : plural(more, 'id')}`] : []),
    ];
    const one = skipped === 1;
    parts.push(
      added > 0
        ? `not added: ${ids.join(', ')} (${one ? 'not a creator id' : 'not creator ids'})`
        : `${ids.join(', ')} ${one ? 'is not a creator id' : 'are not creator ids'}`,
    );
  }
  if (added === 0) {
    const sentence = `Nothing was added to ${listName}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}.`;
    return { level: skipped > 0 || already === 0 ? 'warning' : 'info', sentence };
  }
  const head = `Added ${plural(added, 'creator')} to ${listName}${back > 0 ? ` (${back} back on the list)` : ''}`;
  return { level: 'success', sentence: `${[head, ...parts].join('; ')}.` };
}

/** The answer to `list add`: what it did in words, the new contacts when few, and Open list. */
export async function addReply(
  ctx: CommandContext,
  list: ListTarget,
  sent: readonly string[],
  result: CrmAddResult,
  repeated: readonly string[],
): Promise<Reply> {
  const note = repeatedNote(repeated);
  const { level, sentence } = addSentence(list.name, result, await notTaken(ctx, list, sent, result));
  const nodes: ReplyNode[] = [notice(level, sentence), ...(note === null ? [] : [text(note)])];
  // A few new contacts are shown with their buttons; more are one press away.
  if (result.contacts.length > 0 && result.contacts.length <= CARDS_PER_PAGE) {
    nodes.push(...result.contacts.map((contact) => contactNode(ctx, list, contact)));
  }
  nodes.push(buttons(openButton(ctx, list)));
  return reply(nodes, { visibility: 'channel' });
}
