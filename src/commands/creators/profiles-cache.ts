/**
 * Creator profiles through Scout's cache: a profile bought once is shown again for free (to anyone using the
 * service account that paid for it) until it is older than the profile TTL; only the ids missing are bought. A
 * purchase the service answers as a trial account's tells the person so, once a day.
 */
import type { CommandContext } from '../../core/command/types.js';
import { InternalError } from '../../core/errors.js';
import { type CreatorProfile, creatorProfileSchema } from '../../core/service/creators.js';
import { type NoticeNode, notice } from '../../core/ui/index.js';

/** A profile and when it was bought. */
export interface ProfileEntry {
  profile: CreatorProfile;
  fetchedAt: Date;
}

const freshSince = (ctx: CommandContext) => new Date(ctx.clock.now().getTime() - ctx.settings.profileTtlMs);

/** The account whose purchases the cache holds; profiles are work that always has one. */
const accountOf = (ctx: CommandContext): string => {
  if (ctx.account === null) throw new InternalError('Creator profiles need a connected service account.');
  return ctx.account;
};

/** The fresh cached profiles among `ids`, keyed by id; nothing is bought. */
export async function cachedProfiles(
  ctx: CommandContext,
  ids: readonly string[],
): Promise<Map<string, ProfileEntry>> {
  const found = new Map<string, ProfileEntry>();
  for (const [id, cached] of await ctx.store.profiles.getFresh(accountOf(ctx), ids, freshSince(ctx))) {
    const parsed = creatorProfileSchema.safeParse(cached.profile);
    if (parsed.success) found.set(id, { profile: parsed.data, fetchedAt: cached.fetchedAt });
  }
  return found;
}

/** The ids among `ids` that are not freshly cached: what showing them would cost. */
export async function uncachedIds(ctx: CommandContext, ids: readonly string[]): Promise<string[]> {
  const cached = await cachedProfiles(ctx, ids);
  return [...new Set(ids)].filter((id) => !cached.has(id));
}

/** Puts profiles bought now into the cache and returns them as entries, keyed by creator id. */
export async function rememberProfiles(
  ctx: CommandContext,
  profiles: readonly CreatorProfile[],
): Promise<Map<string, ProfileEntry>> {
  const now = ctx.clock.now();
  const entries = new Map<string, ProfileEntry>();
  for (const profile of profiles) entries.set(profile.user_id, { profile, fetchedAt: now });
  await ctx.store.profiles.put(
    accountOf(ctx),
    [...entries.values()].map((entry) => ({ id: entry.profile.user_id, profile: entry.profile })),
    now,
  );
  return entries;
}

/** What a person is told, once a day, when the service answers a purchase as a trial account's. */
export const TRIAL_NOTICE =
  'The service says the account Scout uses here is a trial account. You are told this once a day.';

/**
 * The notice owed to a purchase the service answered with `isTrial`: the trial notice the first time today (UTC) for
 * this person, in any process; null otherwise. Failing to record it only leaves it unsaid: the profiles are paid for.
 */
export async function trialNotice(ctx: CommandContext, isTrial: boolean | null): Promise<NoticeNode | null> {
  if (isTrial !== true) return null;
  const day = ctx.clock.now().toISOString().slice(0, 10);
  try {
    return (await ctx.store.notices.claimDaily(ctx.actor, 'trial-account', day))
      ? notice('info', TRIAL_NOTICE)
      : null;
  } catch (error) {
    ctx.logger.warn({ err: error }, 'Could not record the trial account notice.');
    return null;
  }
}

/** Profiles of a reply, by creator id, with the notice their purchase owes the person (see trialNotice). */
export interface LoadedProfiles {
  entries: Map<string, ProfileEntry>;
  notice: NoticeNode | null;
}

/**
 * The profiles of `ids`, keyed by id: cached ones for free, the others bought in one creators-get call and
 * cached. Ids the service does not know are absent from the result.
 */
export async function loadProfiles(
  ctx: CommandContext,
  ids: readonly string[],
  boughtNow: ReadonlySet<string> = new Set(),
): Promise<LoadedProfiles> {
  const entries = await cachedProfiles(ctx, ids);
  // What was paid for before this answer is shown free, and its cost line says so.
  ctx.cached([...entries.keys()].filter((id) => !boughtNow.has(id)).length);
  const missing = [...new Set(ids)].filter((id) => !entries.has(id));
  if (missing.length === 0) return { entries, notice: null };
  const result = await ctx.service.creators.get({ userIds: missing });
  for (const [id, entry] of await rememberProfiles(ctx, result.data.creators)) entries.set(id, entry);
  return { entries, notice: await trialNotice(ctx, result.data.isTrial) };
}
