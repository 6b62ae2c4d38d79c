/** Cache of paid creator profiles: a profile bought once is shown again for free until it is older than the TTL. */
import type { Db } from './database.js';

/** A cached profile with the time it was bought. */
export interface CachedProfile<P> {
  profile: P;
  fetchedAt: Date;
}

/** Repository of cached profiles. */
export interface ProfileCache<P> {
  /** The fresh cached profiles among `ids` (fetched after `freshSince`), keyed by id. */
  getFresh(ids: readonly string[], freshSince: Date): Map<string, CachedProfile<P>>;
  /** Stores profiles bought now. */
  put(entries: ReadonlyArray<{ id: string; profile: P }>, now: Date): void;
  /** Deletes profiles fetched before `before`. */
  purge(before: Date): number;
}

/** Creates the profile cache. */
export function createProfileCache<P>(db: Db): ProfileCache<P> {
  const upsert = db.prepare(`INSERT INTO creator_profiles (user_id, profile, fetched_at) VALUES (?, ?, ?)
    ON CONFLICT (user_id) DO UPDATE SET profile = excluded.profile, fetched_at = excluded.fetched_at`);
  const purge = db.prepare('DELETE FROM creator_profiles WHERE fetched_at < ?');
  // json_each keeps the statement fixed whatever the number of ids.
  const select = db.prepare<[string, string], { user_id: string; profile: string; fetched_at: string }>(
    `SELECT user_id, profile, fetched_at FROM creator_profiles
     WHERE user_id IN (SELECT value FROM json_each(?)) AND fetched_at >= ?`,
  );
  const putAll = db.transaction((entries: ReadonlyArray<{ id: string; profile: P }>, at: string) => {
    for (const entry of entries) upsert.run(entry.id, JSON.stringify(entry.profile), at);
  });
  return {
    getFresh(ids, freshSince) {
      const found = new Map<string, CachedProfile<P>>();
      if (ids.length === 0) return found;
      for (const row of select.all(JSON.stringify(ids), freshSince.toISOString())) {
        found.set(row.user_id, {
          profile: JSON.parse(row.profile) as P,
          fetchedAt: new Date(row.fetched_at),
        });
      }
      return found;
    },
    put(entries, now) {
      putAll(entries, now.toISOString());
    },
    purge(before) {
      return purge.run(before.toISOString()).changes;
    },
  };
}
