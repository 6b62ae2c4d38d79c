/**
 * Notices told to a person at most once a UTC day (that the service account is a trial account): one row per person
 * and kind holds the last day it was told, and moving it forward is the once-guard, one conditional statement, so
 * processes sharing the database tell it once between them and a restart does not tell it again.
 */
import type { Actor } from '../actor.js';
import { type Sql, sql } from './sql.js';

type Person = Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;

/** What a once-a-day notice is about. */
export type NoticeKind = 'trial-account';

/** The once-a-day notices of every person. */
export interface PersonNotices {
  /**
   * Claims the person's notice of `kind` for `day` (the UTC day, YYYY-MM-DD): true the first time that day, in any
   * process; false when it was claimed that day already (or a later one).
   */
  claimDaily(person: Person, kind: NoticeKind, day: string): Promise<boolean>;
}

/** Creates the repository of once-a-day notices. */
export function createPersonNotices(db: Sql): PersonNotices {
  return {
    async claimDaily(person, kind, day) {
      const changed = await db.run(
        sql`INSERT INTO person_notices (platform, workspace_id, user_id, kind, day)
            VALUES (${person.platform}, ${person.workspaceId}, ${person.userId}, ${kind}, ${day})
            ON CONFLICT (platform, workspace_id, user_id, kind)
            DO UPDATE SET day = excluded.day WHERE person_notices.day < excluded.day`,
      );
      return changed > 0;
    },
  };
}
