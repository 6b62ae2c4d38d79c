/**
 * The outbox: every post Scout makes unasked (a digest, a reply notification, a budget alert), one row each,
 * queued once under its key and posted once, across restarts and processes. A row goes pending → posting → posted,
 * or dropped (no longer wanted, or given up). One process at a time claims a post before sending it: a pending one,
 * or one left posting by this process, by none, or by a process that is gone (processes.ts). A post claimed again
 * was cut off mid-post: it may have landed, so it is looked for before it is sent again.
 */
import type { Platform } from '../actor.js';
import { HEARTBEAT_STALE_MS } from './processes.js';
import { type Sql, sql } from './sql.js';

/** What a post is; each kind is delivered by its job. */
export type PostKind = 'digest' | 'reply' | 'budget-alert';

/** A post's state: queued, being sent, sent, or given up unsent. */
export type PostState = 'pending' | 'posting' | 'posted' | 'dropped';

/** Where a post goes: a channel, or a person written to privately. */
export type Destination = { channelId: string } | { userId: string };

/** A tenant: a workspace on a platform. */
export type PostTenant = { platform: Platform; workspaceId: string };

/** A post to queue. */
export interface NewPost extends PostTenant {
  kind: PostKind;
  to: Destination;
  /** Unique within the tenant, and given to the platform, so a repeat of the post is recognised. */
  key: string;
  /** What it belongs to (a subscription, a tenant's balance of a day): counted, threaded and kept in order by it. */
  series?: string | null;
  /** A conversation within the series (a mail thread): its later posts go into the chat thread of its first. */
  thread?: string | null;
  /** When what it tells of happened (ISO 8601): posts go out in this order, undated ones last. */
  happenedAt?: string | null;
  /** What its job renders it from (stored as JSON). */
  payload: unknown;
  /** 'dropped' records a post settled unsent (a once-guard); 'pending' by default. */
  state?: 'pending' | 'dropped';
}

/** A queued post, with the payload its job stored. */
export type QueuedPost<P = unknown> = Omit<NewPost, 'payload' | 'state'> & {
  id: number;
  payload: P;
  state: PostState;
  attempts: number;
};

/** This process's claim on a post: whether an earlier attempt may have landed, and which attempt this is. */
export type Claim = { mayHaveLanded: boolean; attempts: number };

/** Where a post landed. */
export type Landed = { channelId: string; messageId: string; threadId: string | null };

/** Repository of the outbox. */
export interface Outbox {
  /** Queues a post unless its tenant has one under its key already (then nothing changes); whether it was queued. */
  queue(post: NewPost, now: Date): Promise<boolean>;
  /** The post under `key` in the tenant, whatever its state; null when there is none. */
  find(tenant: PostTenant, key: string): Promise<QueuedPost | null>;
  /** How many posts a series has (in the tenant, in the state, when given). */
  count(filter: { series: string; tenant?: PostTenant; state?: PostState }): Promise<number>;
  /** Posts of `kind` not known to be posted (pending or posting), in the order they go out. */
  unposted<P>(kind: PostKind): Promise<QueuedPost<P>[]>;
  /** Claims a post for process `owner` (see the module's rule); null when another live process has it, or it is done. */
  claim(id: number, owner: string, now: Date): Promise<Claim | null>;
  /** Gives up `owner`'s claim on a post cut off by a stop: it stays posting, for any process to take up. */
  release(id: number, owner: string): Promise<void>;
  markPosted(id: number, where: Landed, now: Date): Promise<void>;
  /** Gives a post up unsent (no longer wanted, or refused too often); a posted one stays posted. */
  drop(id: number): Promise<void>;
  /** The first posted post of a thread of a series, with the chat thread its later posts went into. */
  threadPost(series: string, thread: string): Promise<Landed | null>;
  /** Deletes the posts of `kind` queued before `before`; returns how many. */
  purge(kind: PostKind, before: Date): Promise<number>;
  /** Deletes the posts of `kind` in a tenant not yet posted; returns how many. */
  forget(kind: PostKind, tenant: PostTenant): Promise<number>;
}

/** A post as it is read, its destination and payload not yet parsed. */
type Row = Omit<QueuedPost<string>, 'to'> & { channelId: string | null; userId: string | null };

const COLUMNS = sql`id, kind, platform, workspace_id AS "workspaceId", channel_id AS "channelId", user_id AS "userId",
  key, series, thread, happened_at AS "happenedAt", payload, state, attempts`;

const toPost = ({ channelId, userId, payload, ...post }: Row): QueuedPost => ({
  ...post,
  id: Number(post.id),
  attempts: Number(post.attempts),
  to: channelId === null ? { userId: userId ?? '' } : { channelId },
  payload: JSON.parse(payload) as unknown,
});

/** Creates the outbox repository (on a transaction, for a post queued with other writes). */
export function createOutbox(db: Sql): Outbox {
  return {
    async queue(post, now) {
      const channel = 'channelId' in post.to ? post.to.channelId : null;
      const user = 'userId' in post.to ? post.to.userId : null;
      // The unique key decides between two processes queueing the same post at once.
      const queued = await db.run(
        sql`INSERT INTO outbox (kind, platform, workspace_id, channel_id, user_id, key, series, thread, happened_at,
              payload, state, created_at)
            VALUES (${post.kind}, ${post.platform}, ${post.workspaceId}, ${channel}, ${user}, ${post.key},
              ${post.series ?? null}, ${post.thread ?? null}, ${post.happenedAt ?? null}, ${JSON.stringify(post.payload)},
              ${post.state ?? 'pending'}, ${now.toISOString()})
            ON CONFLICT (platform, workspace_id, key) DO NOTHING`,
      );
      return queued > 0;
    },
    async find(tenant, key) {
      const row = await db.one<Row>(
        sql`SELECT ${COLUMNS} FROM outbox
            WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} AND key = ${key}`,
      );
      return row === undefined ? null : toPost(row);
    },
    async count({ series, tenant, state }) {
      const ofTenant =
        tenant === undefined
          ? sql``
          : sql`AND platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId}`;
      const inState = state === undefined ? sql`` : sql`AND state = ${state}`;
      const row = await db.one<{ n: number }>(
        sql`SELECT COUNT(*) AS "n" FROM outbox WHERE series = ${series} ${ofTenant} ${inState}`,
      );
      return Number(row?.n ?? 0);
    },
    unposted: async <P>(kind: PostKind) =>
      (
        await db.all<Row>(
          sql`SELECT ${COLUMNS} FROM outbox WHERE kind = ${kind} AND state IN ('pending', 'posting')
              ORDER BY CASE WHEN happened_at IS NULL THEN 1 ELSE 0 END, happened_at, id`,
        )
      ).map((row) => toPost(row) as QueuedPost<P>),
    async claim(id, owner, now) {
      const alive = new Date(now.getTime() - HEARTBEAT_STALE_MS).toISOString();
      // One conditional statement: of processes claiming at once, one changes the row. Rows never go back to
      // pending, so a second attempt is one whose first may have landed.
      const row = await db.one<{ attempts: number }>(
        sql`UPDATE outbox SET state = 'posting', owner = ${owner}, attempts = attempts + 1
            WHERE id = ${id} AND (state = 'pending' OR (state = 'posting' AND (owner IS NULL OR owner = ${owner}
              OR owner NOT IN (SELECT id FROM scout_processes WHERE heartbeat_at >= ${alive}))))
            RETURNING attempts`,
      );
      return row === undefined ? null : { mayHaveLanded: row.attempts > 1, attempts: row.attempts };
    },
    async release(id, owner) {
      await db.run(
        sql`UPDATE outbox SET owner = NULL WHERE id = ${id} AND owner = ${owner} AND state = 'posting'`,
      );
    },
    async markPosted(id, where, now) {
      await db.run(
        sql`UPDATE outbox SET state = 'posted', posted_at = ${now.toISOString()}, posted_channel_id = ${where.channelId},
              posted_message_id = ${where.messageId}, posted_thread_id = ${where.threadId}
            WHERE id = ${id}`,
      );
    },
    async drop(id) {
      await db.run(sql`UPDATE outbox SET state = 'dropped' WHERE id = ${id} AND state <> 'posted'`);
    },
    threadPost: async (series, thread) =>
      (await db.one<Landed>(
        sql`SELECT first.posted_channel_id AS "channelId", first.posted_message_id AS "messageId",
              COALESCE(first.posted_thread_id, (
                SELECT later.posted_thread_id FROM outbox later
                WHERE later.series = first.series AND later.thread = first.thread AND later.state = 'posted'
                  AND later.posted_thread_id IS NOT NULL
                ORDER BY later.posted_at LIMIT 1)) AS "threadId"
            FROM outbox first
            WHERE first.series = ${series} AND first.thread = ${thread} AND first.state = 'posted'
              AND first.posted_message_id IS NOT NULL
            ORDER BY first.posted_at, first.happened_at LIMIT 1`,
      )) ?? null,
    purge: (kind, before) =>
      db.run(sql`DELETE FROM outbox WHERE kind = ${kind} AND created_at < ${before.toISOString()}`),
    forget: (kind, tenant) =>
      db.run(
        sql`DELETE FROM outbox WHERE kind = ${kind} AND platform = ${tenant.platform}
              AND workspace_id = ${tenant.workspaceId} AND state IN ('pending', 'posting')`,
      ),
  };
}
