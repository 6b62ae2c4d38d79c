/**
 * Reply notifications: channel subscriptions, the inbound messages the poller has seen, and one announcement
 * row per (subscription, message) that goes pending → posting → posted, so a restart neither repeats nor drops.
 */
import type { Platform } from '../actor.js';
import { InternalError } from '../errors.js';
import { type Sql, sql, whichOf } from './sql.js';

/** A channel subscribed to new inbound replies. */
export interface ReplySubscription {
  id: number;
  platform: Platform;
  workspaceId: string;
  channelId: string;
  /** One agent project, or null for every project. */
  projectId: string | null;
  createdBy: string;
  createdAt: Date;
  removedAt: Date | null;
}

/** Where a notification landed, so later replies of its mail thread can go into its chat thread. */
export interface PostedRef {
  channelId: string;
  messageId: string;
  threadId: string | null;
}

/** A notification to post, or posted. */
export interface Announcement {
  subscription: ReplySubscription;
  messageId: string;
  threadId: string | null;
  /** The agent message as the poller read it. */
  message: Record<string, unknown>;
  messageAt: string | null;
  state: 'pending' | 'posting' | 'posted';
  attempts: number;
}

/** A message the poller saw for the first time, with the subscriptions it is announced to. */
export interface FreshMessage {
  messageId: string;
  threadId: string | null;
  messageAt: string | null;
  message: Record<string, unknown>;
  subscriptionIds: readonly number[];
}

/** What the poller knew after its last full read. */
export interface PollState {
  inboundTotal: number;
  checkedAt: Date;
}

/** Repository of reply subscriptions and announcements. */
export interface Subscriptions {
  /** Subscribes a channel (to one project or all); an existing active subscription is returned unchanged. */
  subscribe(input: {
    platform: Platform;
    workspaceId: string;
    channelId: string;
    projectId: string | null;
    createdBy: string;
    now: Date;
  }): Promise<{ subscription: ReplySubscription; created: boolean }>;
  /** Ends a channel's subscriptions (only the one of `projectId` when given); returns how many. */
  unsubscribe(
    channel: { platform: Platform; workspaceId: string; channelId: string },
    projectId: string | null | undefined,
    now: Date,
  ): Promise<number>;
  /** The active subscriptions of a workspace, oldest first. */
  list(workspace: { platform: Platform; workspaceId: string }): Promise<ReplySubscription[]>;
  /** Every active subscription. */
  active(): Promise<ReplySubscription[]>;
  /** Which of `ids` the poller of `account` (a service account) has seen. */
  seen(account: string, ids: readonly string[]): Promise<Set<string>>;
  pollState(account: string): Promise<PollState | null>;
  /** In one transaction: marks the fresh messages seen, queues their announcements and stores the total. */
  recordPoll(account: string, total: number, fresh: readonly FreshMessage[], now: Date): Promise<number>;
  /** Announcements not yet known to be posted, in the order the replies were written. */
  unposted(): Promise<Announcement[]>;
  /** Records an attempt to post, before posting. */
  markPosting(subscriptionId: number, messageId: string, now: Date): Promise<void>;
  /** Records where an announcement landed. */
  markPosted(subscriptionId: number, messageId: string, ref: PostedRef, now: Date): Promise<void>;
  /**
   * The first posted notification of a mail thread for a subscription, with the chat thread its later replies
   * went into (a Discord thread is started on the first notification by the second).
   */
  threadPost(subscriptionId: number, threadId: string): Promise<PostedRef | null>;
  /** How many announcements of a subscription were posted. */
  postedCount(subscriptionId: number): Promise<number>;
}

interface SubscriptionRow {
  id: number;
  platform: string;
  workspace_id: string;
  channel_id: string;
  project_id: string | null;
  created_by: string;
  created_at: string;
  removed_at: string | null;
}

interface AnnouncementRow {
  subscription_id: number;
  message_id: string;
  thread_id: string | null;
  message: string;
  message_at: string | null;
  state: 'pending' | 'posting' | 'posted';
  attempts: number;
}

const toSubscription = (row: SubscriptionRow): ReplySubscription => ({
  id: row.id,
  platform: row.platform as Platform,
  workspaceId: row.workspace_id,
  channelId: row.channel_id,
  projectId: row.project_id,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
  removedAt: row.removed_at === null ? null : new Date(row.removed_at),
});

/** Creates the subscriptions repository. */
export function createSubscriptions(db: Sql): Subscriptions {
  const scopeOf = (account: string) => `inbound:${account}`;
  const findActive = (tx: Sql, platform: string, workspaceId: string, channelId: string, project: string) =>
    tx.one<SubscriptionRow>(
      sql`SELECT * FROM reply_subscriptions
          WHERE platform = ${platform} AND workspace_id = ${workspaceId} AND channel_id = ${channelId}
            AND COALESCE(project_id, '') = ${project} AND removed_at IS NULL`,
    );
  const byId = (id: number) =>
    db.one<SubscriptionRow>(sql`SELECT * FROM reply_subscriptions WHERE id = ${id}`);

  return {
    async subscribe(input) {
      const project = input.projectId ?? '';
      const existing = await findActive(db, input.platform, input.workspaceId, input.channelId, project);
      if (existing !== undefined) return { subscription: toSubscription(existing), created: false };
      // The unique index of active subscriptions decides between two processes subscribing at once.
      const row = await db.one<SubscriptionRow>(
        sql`INSERT INTO reply_subscriptions (platform, workspace_id, channel_id, project_id, created_by, created_at)
            VALUES (${input.platform}, ${input.workspaceId}, ${input.channelId}, ${input.projectId},
              ${input.createdBy}, ${input.now.toISOString()})
            ON CONFLICT DO NOTHING RETURNING *`,
      );
      if (row !== undefined) return { subscription: toSubscription(row), created: true };
      const other = await findActive(db, input.platform, input.workspaceId, input.channelId, project);
      if (other === undefined) throw new InternalError('The new subscription was not stored.');
      return { subscription: toSubscription(other), created: false };
    },
    unsubscribe(channel, projectId, now) {
      const at = now.toISOString();
      const ofProject =
        projectId === undefined ? sql`` : sql`AND COALESCE(project_id, '') = ${projectId ?? ''}`;
      return db.run(
        sql`UPDATE reply_subscriptions SET removed_at = ${at}
            WHERE platform = ${channel.platform} AND workspace_id = ${channel.workspaceId}
              AND channel_id = ${channel.channelId} ${ofProject} AND removed_at IS NULL`,
      );
    },
    list: async (workspace) =>
      (
        await db.all<SubscriptionRow>(
          sql`SELECT * FROM reply_subscriptions
              WHERE platform = ${workspace.platform} AND workspace_id = ${workspace.workspaceId}
                AND removed_at IS NULL
              ORDER BY id`,
        )
      ).map(toSubscription),
    active: async () =>
      (
        await db.all<SubscriptionRow>(
          sql`SELECT * FROM reply_subscriptions WHERE removed_at IS NULL ORDER BY id`,
        )
      ).map(toSubscription),
    seen: (account, ids) =>
      whichOf(
        db,
        ids,
        (part) =>
          sql`SELECT message_id AS "value" FROM reply_seen
              WHERE account_id = ${account} AND message_id IN (${sql.join(part)})`,
      ),
    async pollState(account) {
      const row = await db.one<{ inbound_total: number; checked_at: string }>(
        sql`SELECT inbound_total, checked_at FROM reply_poll_state WHERE scope = ${scopeOf(account)}`,
      );
      return row === undefined
        ? null
        : { inboundTotal: row.inbound_total, checkedAt: new Date(row.checked_at) };
    },
    recordPoll: (account, total, fresh, now) =>
      db.transaction(async (tx) => {
        let queued = 0;
        const at = now.toISOString();
        for (const item of fresh) {
          await tx.run(
            sql`INSERT INTO reply_seen (account_id, message_id, seen_at) VALUES (${account}, ${item.messageId}, ${at})
                ON CONFLICT DO NOTHING`,
          );
          for (const subscriptionId of item.subscriptionIds) {
            // The primary key queues each (subscription, message) once, whichever process polled it.
            queued += await tx.run(
              sql`INSERT INTO reply_announcements
                  (subscription_id, message_id, thread_id, message, message_at, state, created_at)
                  VALUES (${subscriptionId}, ${item.messageId}, ${item.threadId}, ${JSON.stringify(item.message)},
                    ${item.messageAt}, 'pending', ${at})
                  ON CONFLICT DO NOTHING`,
            );
          }
        }
        await tx.run(
          sql`INSERT INTO reply_poll_state (scope, inbound_total, checked_at) VALUES (${scopeOf(account)}, ${total}, ${at})
              ON CONFLICT (scope)
              DO UPDATE SET inbound_total = excluded.inbound_total, checked_at = excluded.checked_at`,
        );
        return queued;
      }),
    async unposted() {
      const rows = await db.all<AnnouncementRow>(
        sql`SELECT a.subscription_id, a.message_id, a.thread_id, a.message, a.message_at, a.state, a.attempts
            FROM reply_announcements a WHERE a.state <> 'posted'
            ORDER BY a.subscription_id, CASE WHEN a.message_at IS NULL THEN 1 ELSE 0 END, a.message_at,
              a.message_id`,
      );
      const subscriptions = new Map<number, ReplySubscription | null>();
      const out: Announcement[] = [];
      for (const row of rows) {
        if (!subscriptions.has(row.subscription_id)) {
          const found = await byId(row.subscription_id);
          subscriptions.set(row.subscription_id, found === undefined ? null : toSubscription(found));
        }
        const subscription = subscriptions.get(row.subscription_id);
        if (subscription === null || subscription === undefined) continue;
        out.push({
          subscription,
          messageId: row.message_id,
          threadId: row.thread_id,
          message: JSON.parse(row.message) as Record<string, unknown>,
          messageAt: row.message_at,
          state: row.state,
          attempts: row.attempts,
        });
      }
      return out;
    },
    async markPosting(subscriptionId, messageId) {
      await db.run(
        sql`UPDATE reply_announcements SET state = 'posting', attempts = attempts + 1
            WHERE subscription_id = ${subscriptionId} AND message_id = ${messageId} AND state <> 'posted'`,
      );
    },
    async markPosted(subscriptionId, messageId, ref, now) {
      await db.run(
        sql`UPDATE reply_announcements SET state = 'posted', posted_at = ${now.toISOString()},
              posted_channel_id = ${ref.channelId}, posted_message_id = ${ref.messageId},
              posted_thread_id = ${ref.threadId}
            WHERE subscription_id = ${subscriptionId} AND message_id = ${messageId}`,
      );
    },
    async threadPost(subscriptionId, threadId) {
      const row = await db.one<{
        posted_channel_id: string;
        posted_message_id: string;
        posted_thread_id: string | null;
      }>(
        sql`SELECT first.posted_channel_id, first.posted_message_id,
              COALESCE(first.posted_thread_id, (
                SELECT later.posted_thread_id FROM reply_announcements later
                WHERE later.subscription_id = first.subscription_id AND later.thread_id = first.thread_id
                  AND later.state = 'posted' AND later.posted_thread_id IS NOT NULL
                ORDER BY later.posted_at LIMIT 1)) AS posted_thread_id
            FROM reply_announcements first
            WHERE first.subscription_id = ${subscriptionId} AND first.thread_id = ${threadId}
              AND first.state = 'posted' AND first.posted_message_id IS NOT NULL
            ORDER BY first.posted_at, first.message_at LIMIT 1`,
      );
      return row === undefined
        ? null
        : {
            channelId: row.posted_channel_id,
            messageId: row.posted_message_id,
            threadId: row.posted_thread_id,
          };
    },
    async postedCount(subscriptionId) {
      const row = await db.one<{ n: number }>(
        sql`SELECT COUNT(*) AS "n" FROM reply_announcements
            WHERE subscription_id = ${subscriptionId} AND state = 'posted'`,
      );
      return row?.n ?? 0;
    },
  };
}
