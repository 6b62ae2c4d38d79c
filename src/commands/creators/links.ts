/**
 * `creators link <profile URL>`: what a creator profile link shows (a Slack link unfurl is this command's answer),
 * never spending: the creator card when the profile is in the account's cache, else a small card with a Look up
 * button. Look up is a free search by the handle; it buys nothing, since the search matches handles that merely
 * contain the one linked and an id tells no handle: only the Details button of a match it lists buys a profile.
 */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction, defineCommand } from '../../core/command/types.js';
import { creatorProfileSchema } from '../../core/service/creators.js';
import { SEARCH_PLATFORMS } from '../../core/service/enums.js';
import {
  bold,
  button,
  buttons,
  CARDS_PER_PAGE,
  notice,
  platformLabel,
  type Reply,
  reply,
  text,
} from '../../core/ui/index.js';
import { FIND_IDS, hasUnbought, matched, matchNodes } from './find.js';
import { PROFILE_LINK_MAX, type ProfileLink, parseProfileLink } from './profile-links.js';
import type { ProfileEntry } from './profiles-cache.js';
import { cardOf, KINDS } from './views.js';

/** The label of the button that looks up the creator a link names (a free search). */
export const LOOK_UP_LABEL = 'Look up';

/** Ids a Look up asks for: as many as Find creator on a viral post. */
const LOOKUP_IDS = FIND_IDS;

/** The fresh cached profile of the creator a link names, or null; nothing is bought. */
export async function cachedByLink(ctx: CommandContext, link: ProfileLink): Promise<ProfileEntry | null> {
  if (ctx.account === null) return null;
  const freshSince = new Date(ctx.clock.now().getTime() - ctx.settings.profileTtlMs);
  const cached = await ctx.store.handles.find(ctx.account, link.platform, link.handle, freshSince);
  const parsed = cached === null ? null : creatorProfileSchema.safeParse(cached.profile);
  return cached !== null && parsed?.success === true
    ? { profile: parsed.data, fetchedAt: cached.fetchedAt }
    : null;
}

const linkPayload = z.object({
  platform: z.enum(SEARCH_PLATFORMS),
  handle: z.string().min(1).max(100),
});

const linkInput = z
  .object({ url: z.string().trim().min(1).max(PROFILE_LINK_MAX) })
  .transform((raw, ctx): ProfileLink => {
    const link = parseProfileLink(raw.url);
    if (link !== null) return link;
    ctx.addIssue({
      code: 'custom',
      path: ['url'],
      message:
        'is not a creator profile link (e.g. https://www.tiktok.com/@handle, https://www.instagram.com/handle)',
    });
    return z.NEVER;
  });

const named = (link: ProfileLink) => `@${link.handle} on ${platformLabel(link.platform)}`;

/** What a link shows: the cached card, or the handle with a Look up button; never a service call. */
async function linkReply(ctx: CommandContext, link: ProfileLink): Promise<Reply> {
  const entry = await cachedByLink(ctx, link);
  if (entry !== null) return reply([cardOf(ctx, entry)], { visibility: 'channel' });
  return reply(
    [
      text(
        bold(named(link)),
        ': not looked up yet. Look up searches the service for free; a full profile costs 1 credit.',
      ),
      buttons(button(LOOK_UP_LABEL, ctx.token(KINDS.lookup, link), { style: 'primary' })),
    ],
    { visibility: 'channel' },
  );
}

/** `creators link`. */
export const linkCommand = defineCommand({
  name: 'link',
  description:
    'The card of a creator profile link: free from the cache, else a Look up button (free search).',
  params: {
    url: {
      kind: 'text',
      positional: true,
      required: true,
      description: 'A creator profile URL (TikTok, Instagram, YouTube, X, LinkedIn).',
      example: 'https://www.tiktok.com/@annafit',
    },
  },
  schema: linkInput,
  examples: [
    'creators link https://www.tiktok.com/@annafit',
    'creators link https://www.instagram.com/annafit/',
  ],
  async run(ctx, link) {
    return linkReply(ctx, link);
  },
});

/**
 * Look up: the creator a link names, free from the cache; else a free search by handle on the platform, shown as
 * free results. Nothing is bought here: the search matches handles that contain the linked one, and an id tells no
 * handle, so buying its first hit could buy someone else (`@emma` finding `@theemmaplays989`). An exact match
 * (same platform, handle equal but for ASCII case and a leading @) is known only from the cache; each other hit
 * gets its own Details button, which states its cost.
 */
export const lookupAction = defineAction({
  kind: KINDS.lookup,
  payload: linkPayload,
  async run(ctx, link) {
    const cached = await cachedByLink(ctx, link);
    if (cached !== null) return reply([cardOf(ctx, cached)]);
    const result = await ctx.service.creators.search({
      username: link.handle,
      source: link.platform,
      perPage: LOOKUP_IDS,
    });
    const ids = [...new Set(result.data.items)];
    if (ids.length === 0) {
      return reply([notice('info', `No creator ${named(link)} is known to the service. Nothing was spent.`)]);
    }
    // Every hit bought already and none is the linked handle: there is no such creator. Else it cannot be told.
    const known = ids.length <= CARDS_PER_PAGE && !(await hasUnbought(ctx, ids));
    const searched = `The free search matches handles containing "${link.handle}"`;
    return reply([
      known
        ? notice('info', `No creator ${named(link)}. Nothing was spent.`)
        : notice('info', `No creator ${named(link)} is confirmed yet. Nothing was spent.`),
      known
        ? text(`${searched}; the closest it found:`)
        : text(
            `${searched} and found ${matched(ids.length)} on ${platformLabel(link.platform)}; a handle is known only`,
            ' once its profile is bought. Add to list is free; Details buys the full profile for 1 credit.',
          ),
      ...(await matchNodes(
        ctx,
        ids,
        `/scout creators search username:${link.handle} platform:${link.platform}`,
      )),
    ]);
  },
});
