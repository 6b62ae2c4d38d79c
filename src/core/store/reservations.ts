/**
 * Credits set aside for paid work in flight, per person, in the database: every process sharing it sees the others'
 * reservations when it checks a daily cap. A reservation of a process whose heartbeat stopped, or past its expiry,
 * no longer counts.
 */
import type { Actor } from '../actor.js';
import { HEARTBEAT_STALE_MS } from './processes.js';
import { type Sql, sql } from './sql.js';

type Person = Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;

/** The reservations of every process. */
export interface ReservationBook {
  /** Credits set aside for the person now, by every live process. */
  held(person: Person, now: Date): Promise<number>;
  /** Sets the reservation `id` of the person to `credits` (removing it at 0), held by `owner` until `expiresAt`. */
  put(id: string, person: Person, credits: number, owner: string | null, expiresAt: Date): Promise<void>;
  /** Removes reservations that expired before `before`; how many. */
  purge(before: Date): Promise<number>;
}

/** Creates the reservation book. */
export function createReservationBook(db: Sql): ReservationBook {
  return {
    async held(person, now) {
      const alive = new Date(now.getTime() - HEARTBEAT_STALE_MS).toISOString();
      const row = await db.one<{ held: number }>(
        sql`SELECT COALESCE(SUM(r.credits), 0) AS "held"
            FROM credit_reservations r LEFT JOIN scout_processes p ON p.id = r.owner
            WHERE r.platform = ${person.platform} AND r.workspace_id = ${person.workspaceId}
              AND r.user_id = ${person.userId} AND r.expires_at > ${now.toISOString()}
              AND (r.owner IS NULL OR p.heartbeat_at >= ${alive})`,
      );
      return Number(row?.held ?? 0);
    },
    async put(id, person, credits, owner, expiresAt) {
      if (credits <= 0) {
        await db.run(sql`DELETE FROM credit_reservations WHERE id = ${id}`);
        return;
      }
      await db.run(
        sql`INSERT INTO credit_reservations (id, platform, workspace_id, user_id, credits, owner, expires_at)
            VALUES (${id}, ${person.platform}, ${person.workspaceId}, ${person.userId}, ${credits}, ${owner},
              ${expiresAt.toISOString()})
            ON CONFLICT (id) DO UPDATE SET credits = excluded.credits, expires_at = excluded.expires_at`,
      );
    },
    purge: (before) =>
      db.run(sql`DELETE FROM credit_reservations WHERE expires_at < ${before.toISOString()}`),
  };
}
