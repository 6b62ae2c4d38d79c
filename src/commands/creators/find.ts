/**
 * Find creator, from a viral post: a free creator search by the post's username. A profile already cached is
 * shown as a creator card; otherwise the ids the search returned are shown with Add to list (free) and Details,
 * whose label states its cost. Nothing is bought until someone presses Details.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction } from '../../core/command/types.js';
import {
  type Button,
  bold,
  button,
  buttons,
  CARDS_PER_PAGE,
  code,
  normalizeHandle,
  notice,
  type Reply,
  type ReplyNode,
  reply,
  text,
} from '../../core/ui/index.js';
import { cachedProfiles } from './profiles-cache.js';
import { type CreatorRef, cardOf, KINDS } from './views.js';

/** Element kind of the Find creator button of a viral post card. */
export const FIND_CREATOR_KIND = 'viral.creator';

/** Ids a lookup asks for: enough to find a cached exact match among partial ones. */
export const FIND_IDS = 25;

/** The longest username a button carries (a handle is far shorter). */
const USERNAME_MAX = 100;

const findPayload = z.object({ username: z.string().min(1).max(USERNAME_MAX) });

const bare = (handle: string | null | undefined) => normalizeHandle(handle)?.toLowerCase() ?? null;

/** The Find creator button of a post by `username`; null when the post names no creator. */
export function findCreatorButton(ctx: CommandContext, username: string | null): Button | null {
  const handle = normalizeHandle(username);
  if (handle === null || handle === '' || handle.length > USERNAME_MAX) return null;
  return button('Find creator', ctx.token(FIND_CREATOR_KIND, { username: handle }));
}

/** A creator found whose profile is not bought: its id, Add to list, and Details with its cost. */
function idNodes(ctx: CommandContext, ref: CreatorRef, label: string): ReplyNode[] {
  return [
    text(bold(label), ' · creator id ', code(ref.userId)),
    buttons(
      button('Add to list', ctx.token(KINDS.add, ref), { style: 'primary' }),
      button('Details · 1 credit', ctx.token(KINDS.details, ref)),
    ),
  ];
}

/** How many creators the search matched, in words: a lookup asks for FIND_IDS at most. */
export const matched = (count: number) =>
  count >= FIND_IDS ? `${FIND_IDS} or more creators` : `${count} creator${count === 1 ? '' : 's'}`;

/**
 * What the free search found for `username`, without buying anything. Only a cached profile whose handle is
 * `username` is "the creator": the search matches handles that merely contain it, and an id alone tells no
 * handle, so every other hit (even a single one) is a numbered match.
 */
async function found(ctx: CommandContext, username: string, ids: readonly string[]): Promise<Reply> {
  const cached = await cachedProfiles(ctx, ids);
  const exact = ids.find((id) => bare(cached.get(id)?.profile.handle) === username.toLowerCase());
  const exactEntry = exact === undefined ? undefined : cached.get(exact);
  if (exactEntry !== undefined) {
    return reply([
      text('The creator of this post, ', bold(`@${username}`), ' (profile already bought: nothing spent):'),
      cardOf(ctx, exactEntry),
    ]);
  }
  return reply([
    text(
      `The service found ${matched(ids.length)} whose handle matches @${username}`,
      ' (free search: nothing spent).',
      (await hasUnbought(ctx, ids))
        ? ' Add to list is free; Details buys the full profile for 1 credit.'
        : '',
    ),
    ...(await matchNodes(ctx, ids, `/scout creators search username:${username}`)),
  ]);
}

/** Whether the hits shown include one whose profile is not bought (its Details costs 1 credit). */
export async function hasUnbought(ctx: CommandContext, ids: readonly string[]): Promise<boolean> {
  const shown = ids.slice(0, CARDS_PER_PAGE);
  const cached = await cachedProfiles(ctx, shown);
  return shown.some((id) => !cached.has(id));
}

/**
 * The hits of a free handle search as free results, the first page of them: a cached profile as its card, any
 * other id as "Match N" with Add to list and Details (1 credit), and how to see them all when there are more.
 */
export async function matchNodes(
  ctx: CommandContext,
  ids: readonly string[],
  seeAll: string,
): Promise<ReplyNode[]> {
  const shown = ids.slice(0, CARDS_PER_PAGE);
  const cached = await cachedProfiles(ctx, shown);
  return [
    ...shown.flatMap((id, index) => {
      const entry = cached.get(id);
      if (entry !== undefined) return [cardOf(ctx, entry)];
      return idNodes(ctx, { userId: id, handle: null }, `Match ${index + 1}`);
    }),
    ...(ids.length > shown.length ? [text('See them all with ', code(seeAll), '.')] : []),
  ];
}

/** Find creator: one free creator search by the post's username. */
export const findCreatorAction = defineAction({
  kind: FIND_CREATOR_KIND,
  payload: findPayload,
  async run(ctx, { username }) {
    const result = await ctx.service.creators.search({ username, perPage: FIND_IDS });
    const ids = [...new Set(result.data.items)];
    if (ids.length === 0) {
      return reply([
        notice('info', `The service has no creator with the handle @${username}. Nothing was spent.`),
      ]);
    }
    return found(ctx, username, ids);
  },
});
