/**
 * Cache of paid creator profiles: a profile bought once is shown again for free until it is older than the TTL,
 * to the service account that paid for it only (one team's purchase is never another team's free view).
 */
import type { Db } from './database.js';

/** A cached profile with the time it was bought. */
export interface CachedProfile<P> {
  profile: P;
  fetchedAt: Date;
}

/** Repository of cached profiles. */
export interface ProfileCache<P> {
  /** The fresh cached profiles of `account` among `ids` (fetched after `freshSince`), keyed by id. */
  getFresh(account: string, ids: readonly string[], freshSince: Date): Map<string, CachedProfile<P>>;
  /** Stores profiles `account` bought now. */
  put(account: string, entries: ReadonlyArray<{ id: string; profile: P }>, now: Date): void;
  /** Deletes profiles fetched before `before`. */
  purge(before: Date): number;
}

/** Creates the profile cache. */
export function createProfileCache<P>(db: Db): ProfileCache<P> {
  const upsert = db.prepare(`INSERT INTO creator_profiles (account_id, user_id, profile, fetched_at)
    VALUES (?, ?, ?, ?) ON CONFLICT (account_id, user_id)
    DO UPDATE SET profile = excluded.profile, fetched_at = excluded.fetched_at`);
  const purge = db.prepare('DELETE FROM creator_profiles WHERE fetched_at < ?');
  // json_each keeps the statement fixed whatever the number of ids.
  const select = db.prepare<
    [string, string, string],
    { user_id: string; profile: string; fetched_at: string }
  >(
    `SELECT user_id, profile, fetched_at FROM creator_profiles
     WHERE account_id = ? AND user_id IN (SELECT value FROM json_each(?)) AND fetched_at >= ?`,
  );
  const putAll = db.transaction(
    (account: string, entries: ReadonlyArray<{ id: string; profile: P }>, at: string) => {
      for (const entry of entries) upsert.run(account, entry.id, JSON.stringify(entry.profile), at);
    },
  );
  return {
    getFresh(account, ids, freshSince) {
      const found = new Map<string, CachedProfile<P>>();
      if (ids.length === 0) return found;
      for (const row of select.all(account, JSON.stringify(ids), freshSince.toISOString())) {
        found.set(row.user_id, {
          profile: JSON.parse(row.profile) as P,
          fetchedAt: new Date(row.fetched_at),
        });
      }
      return found;
    },
    put(account, entries, now) {
      putAll(account, entries, now.toISOString());
    },
    purge(before) {
      return purge.run(before.toISOString()).changes;
    },
  };
}
