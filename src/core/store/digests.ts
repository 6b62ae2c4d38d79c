/**
 * Daily viral digests: their schedule and filters, and the posts each digest has shown. A digest's day is one post
 * in the outbox (outbox.ts), keyed by digest and local day, queued with the posts chosen for it.
 */
import type { Platform } from '../actor.js';
import { InternalError } from '../errors.js';
import { createOutbox } from './outbox.js';
import { type Sql, sql, whichOf } from './sql.js';

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

/** What a digest's post of a day is rendered from: the posts chosen, or the one line posted instead. */
export interface DigestPayload {
  digestId: number;
  localDay: string;
  posts: Record<string, unknown>[];
  note: string | null;
}

/** The key of a digest's post of a local day: at most one a day. */
export const digestKey = (digestId: number, localDay: string) => `digest:${digestId}:${localDay}`;

/** What a new digest needs. */
export type NewDigest = Omit<Digest, 'id' | 'removedAt'>;

/** Repository of digests. */
export interface Digests {
  create(digest: NewDigest): Promise<Digest>;
  /**
   * Creates the digest unless its author already has `limits.perPerson` active digests in the workspace or its
   * channel `limits.perChannel`: the count and the creation are one step for every process sharing the database.
   */
  createWithin(
    digest: NewDigest,
    limits: { perPerson: number; perChannel: number },
  ): Promise<Digest | 'person-full' | 'channel-full'>;
  get(id: number): Promise<Digest | null>;
  /** Removes a digest of the workspace; false when there is no such active digest. */
  remove(workspace: { platform: Platform; workspaceId: string }, id: number, now: Date): Promise<boolean>;
  /** The active digests of a workspace, oldest first. */
  list(workspace: { platform: Platform; workspaceId: string }): Promise<Digest[]>;
  /** Every active digest. */
  active(): Promise<Digest[]>;
  /** Post ids a digest has shown, among `ids`. */
  shown(digestId: number, ids: readonly string[]): Promise<Set<string>>;
  /**
   * In one transaction: queues the day's post with its posts chosen and marks them shown. False when the day was
   * queued already (another pass got there first).
   */
  begin(
    digest: Digest,
    localDay: string,
    chosen: { posts: readonly Record<string, unknown>[]; note: string | null },
    now: Date,
  ): Promise<boolean>;
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

/** Creates the digests repository. */
export function createDigests(db: Sql): Digests {
  return {
    create: (digest) => insert(db, digest),
    createWithin: (digest, limits) =>
      db.transaction(async (tx) => {
        await tx.lock(`digests:${digest.platform}:${digest.workspaceId}`);
        const counts = await tx.one<{ mine: number; channel: number }>(
          sql`SELECT COALESCE(SUM(CASE WHEN created_by = ${digest.createdBy} THEN 1 ELSE 0 END), 0) AS "mine",
                COALESCE(SUM(CASE WHEN channel_id = ${digest.channelId} THEN 1 ELSE 0 END), 0) AS "channel"
              FROM digests
              WHERE platform = ${digest.platform} AND workspace_id = ${digest.workspaceId} AND removed_at IS NULL`,
        );
        if ((counts?.mine ?? 0) >= limits.perPerson) return 'person-full';
        if ((counts?.channel ?? 0) >= limits.perChannel) return 'channel-full';
        return insert(tx, digest);
      }),
    async get(id) {
      const row = await db.one<DigestRow>(sql`SELECT * FROM digests WHERE id = ${id}`);
      return row === undefined ? null : toDigest(row);
    },
    remove: async (workspace, id, now) =>
      (await db.run(
        sql`UPDATE digests SET removed_at = ${now.toISOString()}
            WHERE id = ${id} AND platform = ${workspace.platform} AND workspace_id = ${workspace.workspaceId}
              AND removed_at IS NULL`,
      )) === 1,
    list: async (workspace) =>
      (
        await db.all<DigestRow>(
          sql`SELECT * FROM digests
              WHERE platform = ${workspace.platform} AND workspace_id = ${workspace.workspaceId} AND removed_at IS NULL
              ORDER BY id`,
        )
      ).map(toDigest),
    active: async () =>
      (await db.all<DigestRow>(sql`SELECT * FROM digests WHERE removed_at IS NULL ORDER BY id`)).map(
        toDigest,
      ),
    shown: (digestId, ids) =>
      whichOf(
        db,
        ids,
        (part) =>
          sql`SELECT post_id AS "value" FROM digest_shown
              WHERE digest_id = ${digestId} AND post_id IN (${sql.join(part)})`,
      ),
    begin: (digest, localDay, chosen, now) =>
      db.transaction(async (tx) => {
        const { id: digestId, platform, workspaceId, channelId } = digest;
        const payload: DigestPayload = { digestId, localDay, posts: [...chosen.posts], note: chosen.note };
        const key = digestKey(digestId, localDay);
        const post = { kind: 'digest' as const, platform, workspaceId, to: { channelId }, key, payload };
        if (!(await createOutbox(tx).queue({ ...post, happenedAt: now.toISOString() }, now))) return false;
        for (const post of chosen.posts) {
          if (typeof post.id === 'string') {
            await tx.run(
              sql`INSERT INTO digest_shown (digest_id, post_id, local_day) VALUES (${digest.id}, ${post.id}, ${localDay})
                  ON CONFLICT (digest_id, post_id) DO NOTHING`,
            );
          }
        }
        return true;
      }),
  };
}

/** Stores a new digest. */
async function insert(db: Sql, digest: NewDigest): Promise<Digest> {
  const row = await db.one<DigestRow>(
    sql`INSERT INTO digests (platform, workspace_id, channel_id, created_by, local_time, time_zone, filters, top,
          created_at)
        VALUES (${digest.platform}, ${digest.workspaceId}, ${digest.channelId}, ${digest.createdBy},
          ${digest.localTime}, ${digest.timeZone}, ${JSON.stringify(digest.filters)}, ${digest.top},
          ${digest.createdAt.toISOString()})
        RETURNING *`,
  );
  if (row === undefined) throw new InternalError('The new digest was not stored.');
  return toDigest(row);
}
