/**
 * `creators link <profile URL>`: what a creator profile link shows (a Slack link unfurl is this command's answer),
 * never spending: the creator card when the profile is in the account's cache, else a small card with a
 * "Look up (1 credit)" button, whose press is the only thing that may buy it.
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
  notice,
  platformLabel,
  type Reply,
  reply,
  text,
} from '../../core/ui/index.js';
import { PROFILE_LINK_MAX, type ProfileLink, parseProfileLink } from './profile-links.js';
import type { ProfileEntry } from './profiles-cache.js';
import { lookUp } from './show.js';
import { cardOf, KINDS } from './views.js';

/** The label of the button that buys the profile a link names. */
export const LOOK_UP_LABEL = 'Look up (1 credit)';

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
        'not a creator profile link (e.g. https://www.tiktok.com/@handle, https://www.instagram.com/handle)',
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
      text(bold(named(link)), ': not looked up yet. Looking up buys the full profile.'),
      buttons(button(LOOK_UP_LABEL, ctx.token(KINDS.lookup, link), { style: 'primary' })),
    ],
    { visibility: 'channel' },
  );
}

/** `creators link`. */
export const linkCommand = defineCommand({
  family: 'creators',
  name: 'link',
  description: 'The card of a creator profile link: free from the cache, else a Look up button (1 credit).',
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
  cost: 'free',
  estimate: () => 0,
  permission: 'everyone',
  async run(ctx, link) {
    return linkReply(ctx, link);
  },
});

/**
 * Look up: the creator a link names, free from the cache; else a free search by handle on the platform and one
 * profile bought (the exact handle when it is cached, else the closest the service found, said so).
 */
export const lookupAction = defineAction({
  kind: KINDS.lookup,
  payload: linkPayload,
  estimate: async (link, _event, ctx) => ((await cachedByLink(ctx, link)) === null ? 1 : 0),
  async run(ctx, link) {
    const cached = await cachedByLink(ctx, link);
    if (cached !== null) return reply([cardOf(ctx, cached)]);
    const found = await lookUp(ctx, { kind: 'handle', value: link.handle, source: link.platform });
    if (found === null) {
      return reply([notice('info', `No creator ${named(link)} is known to the service. Nothing was spent.`)]);
    }
    const exact = found.entry.profile.handle?.replace(/^@/, '').toLowerCase() === link.handle.toLowerCase();
    return reply([
      exact
        ? null
        : notice('info', `No exact match for ${named(link)}; this is the closest the service found.`),
      cardOf(ctx, found.entry),
    ]);
  },
});
