/**
 * Daily viral digests: their schedule and filters, one run per digest and local day (pending → posting →
 * posted, with the posts chosen kept for a retry), and the posts each digest has shown.
 */
import type { Platform } from '../actor.js';
import type { Db } from './database.js';

/** A scheduled digest. */
export interface Digest {
  id: number;
  platform: Platform;
  workspaceId: string;
  channelId: string;
  /** The person whose credits pay for it. */
  createdBy: string;
  /** HH:MM in `timeZone`. */
  localTime: string;
  /** IANA time zone name. */
  timeZone: string;
  /** Viral filters (contract field names); dates absolute (YYYY-MM-DD) or relative (`7d`). */
  filters: Record<string, unknown>;
  /** Posts per digest. */
  top: number;
  createdAt: Date;
  removedAt: Date | null;
}

/** One day's run of a digest. */
export interface DigestRun {
  digestId: number;
  localDay: string;
  state: 'pending' | 'posting' | 'posted';
  /** The posts chosen for the day. */
  posts: Record<string, unknown>[];
  /** The one line posted instead when no post is shown. */
  note: string | null;
  attempts: number;
}

/** What a new digest needs. */
export type NewDigest = Omit<Digest, 'id' | 'removedAt'>;

/** Repository of digests. */
export interface Digests {
  create(digest: NewDigest): Digest;
  get(id: number): Digest | null;
  /** Removes a digest of the workspace; false when there is no such active digest. */
  remove(workspace: { platform: Platform; workspaceId: string }, id: number, now: Date): boolean;
  /** The active digests of a workspace, oldest first. */
  list(workspace: { platform: Platform; workspaceId: string }): Digest[];
  /** Every active digest. */
  active(): Digest[];
  run(digestId: number, localDay: string): DigestRun | null;
  /** Post ids a digest has shown, among `ids`. */
  shown(digestId: number, ids: readonly string[]): Set<string>;
  /**
   * In one transaction: stores the day's run with its posts (pending) and marks them shown. False when the day
   * already has a run (another pass got there first).
   */
  begin(
    digestId: number,
    localDay: string,
    chosen: { posts: readonly Record<string, unknown>[]; note: string | null },
    now: Date,
  ): boolean;
  /** Runs not yet known to be posted. */
  unposted(): DigestRun[];
  markPosting(digestId: number, localDay: string): void;
  markPosted(digestId: number, localDay: string, messageId: string, now: Date): void;
}

interface DigestRow {
  id: number;
  platform: string;
  workspace_id: string;
  channel_id: string;
  created_by: string;
  local_time: string;
  time_zone: string;
  filters: string;
  top: number;
  created_at: string;
  removed_at: string | null;
}

interface RunRow {
  digest_id: number;
  local_day: string;
  state: 'pending' | 'posting' | 'posted';
  posts: string;
  note: string | null;
  attempts: number;
}

const toDigest = (row: DigestRow): Digest => ({
  id: row.id,
  platform: row.platform as Platform,
  workspaceId: row.workspace_id,
  channelId: row.channel_id,
  createdBy: row.created_by,
  localTime: row.local_time,
  timeZone: row.time_zone,
  filters: JSON.parse(row.filters) as Record<string, unknown>,
  top: row.top,
  createdAt: new Date(row.created_at),
  removedAt: row.removed_at === null ? null : new Date(row.removed_at),
});

const toRun = (row: RunRow): DigestRun => ({
  digestId: row.digest_id,
  localDay: row.local_day,
  state: row.state,
  posts: JSON.parse(row.posts) as Record<string, unknown>[],
  note: row.note,
  attempts: row.attempts,
});

/** Creates the digests repository. */
export function createDigests(db: Db): Digests {
  const insert = db.prepare(
    `INSERT INTO digests (platform, workspace_id, channel_id, created_by, local_time, time_zone, filters, top,
     created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[number], DigestRow>('SELECT * FROM digests WHERE id = ?');
  const remove = db.prepare(
    `UPDATE digests SET removed_at = ? WHERE id = ? AND platform = ? AND workspace_id = ?
     AND removed_at IS NULL`,
  );
  const listWorkspace = db.prepare<[string, string], DigestRow>(
    'SELECT * FROM digests WHERE platform = ? AND workspace_id = ? AND removed_at IS NULL ORDER BY id',
  );
  const listActive = db.prepare<[], DigestRow>('SELECT * FROM digests WHERE removed_at IS NULL ORDER BY id');
  const runRow = db.prepare<[number, string], RunRow>(
    'SELECT * FROM digest_runs WHERE digest_id = ? AND local_day = ?',
  );
  const isShown = db
    .prepare<[number, string], number>('SELECT 1 FROM digest_shown WHERE digest_id = ? AND post_id = ?')
    .pluck();
  const insertRun = db.prepare(
    `INSERT OR IGNORE INTO digest_runs (digest_id, local_day, state, posts, note, created_at)
     VALUES (?, ?, 'pending', ?, ?, ?)`,
  );
  const insertShown = db.prepare(
    'INSERT OR IGNORE INTO digest_shown (digest_id, post_id, local_day) VALUES (?, ?, ?)',
  );
  const unpostedRows = db.prepare<[], RunRow>(
    `SELECT * FROM digest_runs WHERE state <> 'posted' ORDER BY digest_id, local_day`,
  );
  const posting = db.prepare(
    `UPDATE digest_runs SET state = 'posting', attempts = attempts + 1
     WHERE digest_id = ? AND local_day = ? AND state <> 'posted'`,
  );
  const posted = db.prepare(
    `UPDATE digest_runs SET state = 'posted', posted_at = ?, posted_message_id = ?
     WHERE digest_id = ? AND local_day = ?`,
  );
  const begin = db.transaction(
    (
      digestId: number,
      localDay: string,
      chosen: { posts: readonly Record<string, unknown>[]; note: string | null },
      now: Date,
    ) => {
      const inserted = insertRun.run(
        digestId,
        localDay,
        JSON.stringify(chosen.posts),
        chosen.note,
        now.toISOString(),
      );
      if (inserted.changes === 0) return false;
      for (const post of chosen.posts) {
        if (typeof post.id === 'string') insertShown.run(digestId, post.id, localDay);
      }
      return true;
    },
  );

  return {
    create(digest) {
      const id = insert.run(
        digest.platform,
        digest.workspaceId,
        digest.channelId,
        digest.createdBy,
        digest.localTime,
        digest.timeZone,
        JSON.stringify(digest.filters),
        digest.top,
        digest.createdAt.toISOString(),
      ).lastInsertRowid;
      const row = byId.get(Number(id));
      if (row === undefined) throw new Error('The new digest was not stored.');
      return toDigest(row);
    },
    get(id) {
      const row = byId.get(id);
      return row === undefined ? null : toDigest(row);
    },
    remove: (workspace, id, now) =>
      remove.run(now.toISOString(), id, workspace.platform, workspace.workspaceId).changes === 1,
    list: (workspace) => listWorkspace.all(workspace.platform, workspace.workspaceId).map(toDigest),
    active: () => listActive.all().map(toDigest),
    run(digestId, localDay) {
      const row = runRow.get(digestId, localDay);
      return row === undefined ? null : toRun(row);
    },
    shown: (digestId, ids) => new Set(ids.filter((id) => isShown.get(digestId, id) !== undefined)),
    begin: (digestId, localDay, chosen, now) => begin(digestId, localDay, chosen, now),
    unposted: () => unpostedRows.all().map(toRun),
    markPosting(digestId, localDay) {
      posting.run(digestId, localDay);
    },
    markPosted(digestId, localDay, messageId, now) {
      posted.run(now.toISOString(), messageId, digestId, localDay);
    },
  };
}
