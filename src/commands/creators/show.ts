/** `creators show <id | @handle | email>`: one creator's full profile, from the cache when it can. */
import { z } from 'zod';
import type { CommandContext } from '../../core/command/types.js';
import { defineCommand } from '../../core/command/types.js';
import { SEARCH_PLATFORMS } from '../../core/service/enums.js';
import { choice } from '../../core/service/input-kit.js';
import { notice, type Reply, reply, text } from '../../core/ui/index.js';
import { sourceParam } from './filters.js';
import { cachedProfiles, type LoadedProfiles, loadProfiles, type ProfileEntry } from './profiles-cache.js';
import { cardButtons, detailNodes } from './views.js';

/** Ids a handle or email lookup considers: the first search page, enough to find a cached exact match. */
const LOOKUP_IDS = 25;

const HANDLE = /^@[\p{L}\p{N}._-]{1,100}$/u;

/** What `who` names. */
export type Target =
  | { kind: 'id'; value: string }
  | { kind: 'handle'; value: string; source?: (typeof SEARCH_PLATFORMS)[number] }
  | { kind: 'email'; value: string; source?: (typeof SEARCH_PLATFORMS)[number] };

const showInput = z
  .object({ who: z.string().trim().min(1).max(200), source: choice(SEARCH_PLATFORMS).optional() })
  .transform((raw, ctx): Target => {
    const withSource = raw.source === undefined ? {} : { source: raw.source };
    if (raw.who.startsWith('@')) {
      if (HANDLE.test(raw.who)) return { kind: 'handle', value: raw.who.slice(1), ...withSource };
      ctx.addIssue({
        code: 'custom',
        path: ['who'],
        message: `"${raw.who}" is not a handle (letters, digits, . _ -)`,
      });
      return z.NEVER;
    }
    if (raw.who.includes('@')) {
      if (z.email().safeParse(raw.who).success) return { kind: 'email', value: raw.who, ...withSource };
      ctx.addIssue({ code: 'custom', path: ['who'], message: `"${raw.who}" is not an email address` });
      return z.NEVER;
    }
    // One creator: `userIds` (the contract's name for ids to get) may bring a comma list.
    if (/[\s,]/.test(raw.who)) {
      ctx.addIssue({ code: 'custom', path: ['who'], message: 'Give one creator id, @handle or email.' });
      return z.NEVER;
    }
    return { kind: 'id', value: raw.who };
  });

const describe = (target: Target) => {
  const where = target.kind !== 'id' && target.source !== undefined ? ` on ${target.source}` : '';
  if (target.kind === 'handle') return `with handle @${target.value}${where}`;
  if (target.kind === 'email') return `with email ${target.value}${where}`;
  return `with id ${target.value}`;
};

function notFound(target: Target): Reply {
  return reply([notice('info', `No creator ${describe(target)}. Nothing was spent.`)]);
}

/** Finds the profile a handle or email names: a free search, a cached exact match, else the first id bought. */
export async function lookUp(
  ctx: CommandContext,
  target: Exclude<Target, { kind: 'id' }>,
): Promise<{ entry: ProfileEntry; others: number; notice: LoadedProfiles['notice'] } | null> {
  const filter = target.kind === 'handle' ? { username: target.value } : { email: target.value };
  const result = await ctx.service.creators.search({
    ...filter,
    ...(target.source === undefined ? {} : { source: target.source }),
    perPage: LOOKUP_IDS,
  });
  const ids = result.data.items;
  const [first] = ids;
  if (first === undefined) return null;
  const wanted = target.value.toLowerCase();
  const matches = (entry: ProfileEntry) =>
    target.kind === 'handle'
      ? entry.profile.handle?.replace(/^@/, '').toLowerCase() === wanted
      : entry.profile.email?.toLowerCase() === wanted;
  const cached = [...(await cachedProfiles(ctx, ids)).values()].find(matches);
  if (cached !== undefined) return { entry: cached, others: ids.length - 1, notice: null };
  const loaded = await loadProfiles(ctx, [first]);
  const bought = loaded.entries.get(first);
  return bought === undefined ? null : { entry: bought, others: ids.length - 1, notice: loaded.notice };
}

/** `creators show`. */
export const showCommand = defineCommand({
  name: 'show',
  working: 'Looking up the creator…',
  description: 'One creator in full, by id, @handle or email; 1 credit unless the profile is cached.',
  params: {
    who: {
      kind: 'text',
      positional: true,
      required: true,
      // The contract's body names of creators get (`userIds`, or `user_ids`), here for one id.
      aliases: ['userIds', 'userId'],
      description: 'A creator id, @handle or email.',
      example: '@annafit',
    },
    source: sourceParam(SEARCH_PLATFORMS),
  },
  schema: showInput,
  examples: [
    'creators show @annafit platform:instagram',
    'creators show instagram_57971538386',
    'creators show ana@example.com',
  ],
  cost: '1 credit, free when the profile is cached',
  estimate: async (target, ctx) =>
    target.kind === 'id' && (await cachedProfiles(ctx, [target.value])).has(target.value) ? 0 : 1,
  async run(ctx, target) {
    if (target.kind === 'id') {
      const loaded = await loadProfiles(ctx, [target.value]);
      const entry = loaded.entries.get(target.value);
      if (entry === undefined) return notFound(target);
      return reply([...detailNodes(ctx, entry, cardButtons(ctx, entry.profile, false)), loaded.notice], {
        visibility: 'channel',
      });
    }
    const found = await lookUp(ctx, target);
    if (found === null) return notFound(target);
    const { entry, others, notice: trial } = found;
    const exact =
      target.kind === 'handle'
        ? entry.profile.handle?.replace(/^@/, '').toLowerCase() === target.value.toLowerCase()
        : entry.profile.email?.toLowerCase() === target.value.toLowerCase();
    return reply(
      [
        exact
          ? null
          : notice('info', `No exact match ${describe(target)}; this is the closest the service found.`),
        ...detailNodes(ctx, entry, cardButtons(ctx, entry.profile, false)),
        others > 0 && !exact
          ? text(
              `${others} more creator${others === 1 ? '' : 's'} matched; list them with /scout creators search.`,
            )
          : null,
        trial,
      ],
      { visibility: 'channel' },
    );
  },
});
