/**
 * The profile cache read by platform and handle (a pasted profile link names no creator id): the freshest profile
 * an account bought of that handle on that platform. Letter case is ignored for ASCII letters, as SQLite's lower().
 */
import type { CachedProfile } from './profiles.js';
import { type Sql, sql } from './sql.js';

/** Reads cached profiles by handle. */
export interface ProfileHandles {
  /** The freshest profile `account` bought of `handle` on `source` since `freshSince`, or null. */
  find(
    account: string,
    source: string,
    handle: string,
    freshSince: Date,
  ): Promise<CachedProfile<Record<string, unknown>> | null>;
}

/** Lower case for ASCII letters only, as SQLite's lower() (PostgreSQL's lower() follows the locale). */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/** Creates the reader over the profile cache's table. */
export function createProfileHandles(db: Sql): ProfileHandles {
  return {
    async find(account, source, handle, freshSince) {
      const wantSource = asciiLower(source);
      const wantHandle = asciiLower(handle.replace(/^@+/, ''));
      const matches =
        db.dialect === 'postgres'
          ? sql`translate(CAST(profile AS jsonb) ->> 'source', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
                  = ${wantSource}
                AND translate(ltrim(CAST(profile AS jsonb) ->> 'handle', '@'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
                  'abcdefghijklmnopqrstuvwxyz') = ${wantHandle}`
          : sql`lower(json_extract(profile, '$.source')) = ${wantSource}
                AND lower(ltrim(json_extract(profile, '$.handle'), '@')) = ${wantHandle}`;
      const row = await db.one<{ profile: string; fetched_at: string }>(
        sql`SELECT profile, fetched_at FROM creator_profiles
            WHERE account_id = ${account} AND fetched_at >= ${freshSince.toISOString()} AND ${matches}
            ORDER BY fetched_at DESC LIMIT 1`,
      );
      if (row === undefined) return null;
      return {
        profile: JSON.parse(row.profile) as Record<string, unknown>,
        fetchedAt: new Date(row.fetched_at),
      };
    },
  };
}
