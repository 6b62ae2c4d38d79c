/** Per-person settings: daily credit caps set by admins, and small preferences such as the last list used. */
import type { Actor } from '../actor.js';
import { type Sql, sql } from './sql.js';

type Person = Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;

/** The workspace-wide default cap is stored under this user id. */
export const EVERYONE = '*';

/** Credit caps and preferences. */
export interface Settings {
  /** The person's own cap, else the workspace default, else null (no cap stored). */
  dailyCap(person: Person): Promise<number | null>;
  /** Sets (or with null removes) the cap of a person, or of everyone with userId EVERYONE. */
  setDailyCap(person: Person, cap: number | null, setBy: string, now: Date): Promise<void>;
  /** The caps of a workspace, for display. */
  caps(
    workspace: Pick<Actor, 'platform' | 'workspaceId'>,
  ): Promise<Array<{ userId: string; dailyCap: number }>>;
  preference(person: Person, name: string): Promise<string | null>;
  setPreference(person: Person, name: string, value: string): Promise<void>;
}

/** Creates the settings repository. */
export function createSettings(db: Sql): Settings {
  return {
    async dailyCap(p) {
      const row = await db.one<{ cap: number }>(
        sql`SELECT daily_cap AS "cap" FROM credit_caps
            WHERE platform = ${p.platform} AND workspace_id = ${p.workspaceId} AND user_id IN (${p.userId}, ${EVERYONE})
            ORDER BY user_id = ${EVERYONE} LIMIT 1`,
      );
      return row?.cap ?? null;
    },
    async setDailyCap(p, value, setBy, now) {
      if (value === null) {
        await db.run(
          sql`DELETE FROM credit_caps
              WHERE platform = ${p.platform} AND workspace_id = ${p.workspaceId} AND user_id = ${p.userId}`,
        );
        return;
      }
      await db.run(
        sql`INSERT INTO credit_caps (platform, workspace_id, user_id, daily_cap, set_by, set_at)
            VALUES (${p.platform}, ${p.workspaceId}, ${p.userId}, ${value}, ${setBy}, ${now.toISOString()})
            ON CONFLICT (platform, workspace_id, user_id)
            DO UPDATE SET daily_cap = excluded.daily_cap, set_by = excluded.set_by, set_at = excluded.set_at`,
      );
    },
    caps: (w) =>
      db.all<{ userId: string; dailyCap: number }>(
        sql`SELECT user_id AS "userId", daily_cap AS "dailyCap" FROM credit_caps
            WHERE platform = ${w.platform} AND workspace_id = ${w.workspaceId} ORDER BY user_id`,
      ),
    async preference(p, name) {
      const row = await db.one<{ value: string }>(
        sql`SELECT value FROM user_preferences
            WHERE platform = ${p.platform} AND workspace_id = ${p.workspaceId} AND user_id = ${p.userId}
              AND name = ${name}`,
      );
      return row?.value ?? null;
    },
    async setPreference(p, name, value) {
      await db.run(
        sql`INSERT INTO user_preferences (platform, workspace_id, user_id, name, value)
            VALUES (${p.platform}, ${p.workspaceId}, ${p.userId}, ${name}, ${value})
            ON CONFLICT (platform, workspace_id, user_id, name) DO UPDATE SET value = excluded.value`,
      );
    },
  };
}
