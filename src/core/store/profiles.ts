/**
 * Cache of paid creator profiles: a profile bought once is shown again for free until it is older than the TTL,
 * to the service account that paid for it only (one team's purchase is never another team's free view).
 */
import { type Sql, sql } from './sql.js';

/** A cached profile with the time it was bought. */
export interface CachedProfile<P> {
  profile: P;
  fetchedAt: Date;
}

/** Repository of cached profiles. */
export interface ProfileCache<P> {
  /** The fresh cached profiles of `account` among `ids` (fetched after `freshSince`), keyed by id. */
  getFresh(account: string, ids: readonly string[], freshSince: Date): Promise<Map<string, CachedProfile<P>>>;
  /** Stores profiles `account` bought now. */
  put(account: string, entries: ReadonlyArray<{ id: string; profile: P }>, now: Date): Promise<void>;
  /** Deletes profiles fetched before `before`; resolves to how many. */
  purge(before: Date): Promise<number>;
}

/** Creates the profile cache. */
export function createProfileCache<P>(db: Sql): ProfileCache<P> {
  // One JSON array parameter keeps the statement fixed whatever the number of ids.
  const idsIn = (ids: readonly string[]) =>
    db.dialect === 'postgres'
      ? sql`SELECT jsonb_array_elements_text(CAST(${JSON.stringify(ids)} AS jsonb))`
      : sql`SELECT value FROM json_each(${JSON.stringify(ids)})`;
  return {
    async getFresh(account, ids, freshSince) {
      const found = new Map<string, CachedProfile<P>>();
      if (ids.length === 0) return found;
      const rows = await db.all<{ user_id: string; profile: string; fetched_at: string }>(
        sql`SELECT user_id, profile, fetched_at FROM creator_profiles
            WHERE account_id = ${account} AND user_id IN (${idsIn(ids)})
              AND fetched_at >= ${freshSince.toISOString()}`,
      );
      for (const row of rows) {
        found.set(row.user_id, {
          profile: JSON.parse(row.profile) as P,
          fetchedAt: new Date(row.fetched_at),
        });
      }
      return found;
    },
    async put(account, entries, now) {
      const at = now.toISOString();
      await db.transaction(async (tx) => {
        for (const entry of entries) {
          await tx.run(
            sql`INSERT INTO creator_profiles (account_id, user_id, profile, fetched_at)
                VALUES (${account}, ${entry.id}, ${profileText(entry.profile)}, ${at})
                ON CONFLICT (account_id, user_id)
                DO UPDATE SET profile = excluded.profile, fetched_at = excluded.fetched_at`,
          );
        }
      });
    },
    purge: (before) => db.run(sql`DELETE FROM creator_profiles WHERE fetched_at < ${before.toISOString()}`),
  };
}

/**
 * A profile as stored: JSON without NUL characters, which PostgreSQL's JSON functions refuse (a single one would
 * break every lookup by handle of the account) and which mean nothing in a creator's texts.
 */
function profileText(profile: unknown): string {
  return JSON.stringify(profile, (_key, value: unknown) =>
    typeof value === 'string' ? value.replaceAll('\0', '') : value,
  );
}
