/** Per-person settings: daily credit caps set by admins, and small preferences such as the last list used. */
import type { Actor } from '../actor.js';
import type { Db } from './database.js';

type Person = Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;

/** The workspace-wide default cap is stored under this user id. */
export const EVERYONE = '*';

/** Credit caps and preferences. */
export interface Settings {
  /** The person's own cap, else the workspace default, else null (no cap stored). */
  dailyCap(person: Person): number | null;
  /** Sets (or with null removes) the cap of a person, or of everyone with userId EVERYONE. */
  setDailyCap(person: Person, cap: number | null, setBy: string, now: Date): void;
  /** The caps of a workspace, for display. */
  caps(workspace: Pick<Actor, 'platform' | 'workspaceId'>): Array<{ userId: string; dailyCap: number }>;
  preference(person: Person, name: string): string | null;
  setPreference(person: Person, name: string, value: string): void;
}

/** Creates the settings repository. */
export function createSettings(db: Db): Settings {
  const cap = db
    .prepare<[string, string, string], number>(
      `SELECT daily_cap FROM credit_caps WHERE platform = ? AND workspace_id = ? AND user_id IN (?, '*')
       ORDER BY user_id = '*' LIMIT 1`,
    )
    .pluck();
  const upsertCap =
    db.prepare(`INSERT INTO credit_caps (platform, workspace_id, user_id, daily_cap, set_by, set_at)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, user_id)
    DO UPDATE SET daily_cap = excluded.daily_cap, set_by = excluded.set_by, set_at = excluded.set_at`);
  const deleteCap = db.prepare(
    'DELETE FROM credit_caps WHERE platform = ? AND workspace_id = ? AND user_id = ?',
  );
  const listCaps = db.prepare<[string, string], { userId: string; dailyCap: number }>(
    `SELECT user_id AS userId, daily_cap AS dailyCap FROM credit_caps
     WHERE platform = ? AND workspace_id = ? ORDER BY user_id`,
  );
  const pref = db
    .prepare<[string, string, string, string], string>(
      'SELECT value FROM user_preferences WHERE platform = ? AND workspace_id = ? AND user_id = ? AND name = ?',
    )
    .pluck();
  const upsertPref = db.prepare(`INSERT INTO user_preferences (platform, workspace_id, user_id, name, value)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, user_id, name) DO UPDATE SET value = excluded.value`);
  return {
    dailyCap: (p) => cap.get(p.platform, p.workspaceId, p.userId) ?? null,
    setDailyCap(p, value, setBy, now) {
      if (value === null) deleteCap.run(p.platform, p.workspaceId, p.userId);
      else upsertCap.run(p.platform, p.workspaceId, p.userId, value, setBy, now.toISOString());
    },
    caps: (w) => listCaps.all(w.platform, w.workspaceId),
    preference: (p, name) => pref.get(p.platform, p.workspaceId, p.userId, name) ?? null,
    setPreference(p, name, value) {
      upsertPref.run(p.platform, p.workspaceId, p.userId, name, value);
    },
  };
}
