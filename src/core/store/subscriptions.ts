/**
 * Reply notifications: channel subscriptions and the inbound messages the poller has seen. Each new reply is one
 * post per subscription in the outbox (outbox.ts), queued in the transaction that marks it seen.
 */
import type { Platform } from '../actor.js';
import { InternalError } from '../errors.js';
import { createOutbox, type NewPost } from './outbox.js';
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

/** What a reply notification is rendered from: the agent message as the poller read it. */
export type ReplyPayload = { subscriptionId: number; message: Record<string, unknown> };

/** The outbox series of a subscription's notifications: counted and threaded by it, posted in order. */
export const subscriptionSeries = (subscriptionId: number) => `subscription:${subscriptionId}`;

/** A message the poller saw for the first time, with the subscriptions it is announced to. */
export interface FreshMessage {
  messageId: string;
  threadId: string | null;
  messageAt: string | null;
  message: Record<string, unknown>;
  subscriptions: readonly ReplySubscription[];
}

/** What the poller knew after its last full read. */
export interface PollState {
  inboundTotal: number;
  checkedAt: Date;
}

/** Repository of reply subscriptions and the replies seen. */
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
  /** In one transaction: marks the fresh messages seen, queues their notifications and stores the total. */
  recordPoll(account: string, total: number, fresh: readonly FreshMessage[], now: Date): Promise<number>;
  /** How many notifications of a subscription were posted. */
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
        const outbox = createOutbox(tx);
        let queued = 0;
        const at = now.toISOString();
        for (const item of fresh) {
          await tx.run(
            sql`INSERT INTO reply_seen (account_id, message_id, seen_at) VALUES (${account}, ${item.messageId}, ${at})
                ON CONFLICT DO NOTHING`,
          );
          for (const subscription of item.subscriptions) {
            // The key queues each (subscription, message) once, whichever process polled it.
            if (await outbox.queue(replyPost(subscription, item), now)) queued += 1;
          }
        }
        await tx.run(
          sql`INSERT INTO reply_poll_state (scope, inbound_total, checked_at) VALUES (${scopeOf(account)}, ${total}, ${at})
              ON CONFLICT (scope)
              DO UPDATE SET inbound_total = excluded.inbound_total, checked_at = excluded.checked_at`,
        );
        return queued;
      }),
    postedCount: (subscriptionId) =>
      createOutbox(db).count({ series: subscriptionSeries(subscriptionId), state: 'posted' }),
  };
}

/** The outbox post announcing a fresh message to a subscription's channel. */
function replyPost(subscription: ReplySubscription, item: FreshMessage): NewPost {
  const payload: ReplyPayload = { subscriptionId: subscription.id, message: item.message };
  return {
    kind: 'reply',
    platform: subscription.platform,
    workspaceId: subscription.workspaceId,
    to: { channelId: subscription.channelId },
    key: `reply:${subscription.id}:${item.messageId}`,
    series: subscriptionSeries(subscription.id),
    thread: item.threadId,
    happenedAt: item.messageAt,
    payload,
  };
}
