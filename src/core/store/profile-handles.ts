/**
 * The profile cache read by platform and handle (a pasted profile link names no creator id): the freshest profile
 * an account bought of that handle on that platform. Letter case is ignored for ASCII letters, as SQLite's lower().
 */
import type { Db } from './database.js';
import type { CachedProfile } from './profiles.js';

/** Reads cached profiles by handle. */
export interface ProfileHandles {
  /** The freshest profile `account` bought of `handle` on `source` since `freshSince`, or null. */
  find(
    account: string,
    source: string,
    handle: string,
    freshSince: Date,
  ): CachedProfile<Record<string, unknown>> | null;
}

/** Creates the reader over the profile cache's table. */
export function createProfileHandles(db: Db): ProfileHandles {
  const select = db.prepare<[string, string, string, string], { profile: string; fetched_at: string }>(
    `SELECT profile, fetched_at FROM creator_profiles
     WHERE account_id = ? AND fetched_at >= ?
       AND lower(json_extract(profile, '$.source')) = lower(?)
       AND lower(ltrim(json_extract(profile, '$.handle'), '@')) = lower(?)
     ORDER BY fetched_at DESC LIMIT 1`,
  );
  return {
    find(account, source, handle, freshSince) {
      const row = select.get(account, freshSince.toISOString(), source, handle.replace(/^@+/, ''));
      if (row === undefined) return null;
      return {
        profile: JSON.parse(row.profile) as Record<string, unknown>,
        fetchedAt: new Date(row.fetched_at),
      };
    },
  };
}
