/**
 * Reply notifications: channel subscriptions, the inbound messages the poller has seen, and one announcement
 * row per (subscription, message) that goes pending → posting → posted, so a restart neither repeats nor drops.
 */
import type { Platform } from '../actor.js';
import type { Db } from './database.js';

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
  }): { subscription: ReplySubscription; created: boolean };
  /** Ends a channel's subscriptions (only the one of `projectId` when given); returns how many. */
  unsubscribe(
    channel: { platform: Platform; workspaceId: string; channelId: string },
    projectId: string | null | undefined,
    now: Date,
  ): number;
  /** The active subscriptions of a workspace, oldest first. */
  list(workspace: { platform: Platform; workspaceId: string }): ReplySubscription[];
  /** Every active subscription. */
  active(): ReplySubscription[];
  /** Which of `ids` the poller of `account` (a service account) has seen. */
  seen(account: string, ids: readonly string[]): Set<string>;
  pollState(account: string): PollState | null;
  /** In one transaction: marks the fresh messages seen, queues their announcements and stores the total. */
  recordPoll(account: string, total: number, fresh: readonly FreshMessage[], now: Date): number;
  /** Announcements not yet known to be posted, in the order the replies were written. */
  unposted(): Announcement[];
  /** Records an attempt to post, before posting. */
  markPosting(subscriptionId: number, messageId: string, now: Date): void;
  /** Records where an announcement landed. */
  markPosted(subscriptionId: number, messageId: string, ref: PostedRef, now: Date): void;
  /**
   * The first posted notification of a mail thread for a subscription, with the chat thread its later replies
   * went into (a Discord thread is started on the first notification by the second).
   */
  threadPost(subscriptionId: number, threadId: string): PostedRef | null;
  /** How many announcements of a subscription were posted. */
  postedCount(subscriptionId: number): number;
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
export function createSubscriptions(db: Db): Subscriptions {
  const findActive = db.prepare<[string, string, string, string], SubscriptionRow>(
    `SELECT * FROM reply_subscriptions WHERE platform = ? AND workspace_id = ? AND channel_id = ?
     AND COALESCE(project_id, '') = ? AND removed_at IS NULL`,
  );
  const byId = db.prepare<[number], SubscriptionRow>('SELECT * FROM reply_subscriptions WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO reply_subscriptions (platform, workspace_id, channel_id, project_id, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const removeAll = db.prepare(
    `UPDATE reply_subscriptions SET removed_at = ? WHERE platform = ? AND workspace_id = ? AND channel_id = ?
     AND removed_at IS NULL`,
  );
  const removeOne = db.prepare(
    `UPDATE reply_subscriptions SET removed_at = ? WHERE platform = ? AND workspace_id = ? AND channel_id = ?
     AND COALESCE(project_id, '') = ? AND removed_at IS NULL`,
  );
  const listWorkspace = db.prepare<[string, string], SubscriptionRow>(
    `SELECT * FROM reply_subscriptions WHERE platform = ? AND workspace_id = ? AND removed_at IS NULL
     ORDER BY id`,
  );
  const listActive = db.prepare<[], SubscriptionRow>(
    'SELECT * FROM reply_subscriptions WHERE removed_at IS NULL ORDER BY id',
  );
  const isSeen = db
    .prepare<[string, string], number>('SELECT 1 FROM reply_seen WHERE account_id = ? AND message_id = ?')
    .pluck();
  const markSeen = db.prepare(
    'INSERT OR IGNORE INTO reply_seen (account_id, message_id, seen_at) VALUES (?, ?, ?)',
  );
  const scopeOf = (account: string) => `inbound:${account}`;
  const getState = db.prepare<[string], { inbound_total: number; checked_at: string }>(
    'SELECT inbound_total, checked_at FROM reply_poll_state WHERE scope = ?',
  );
  const putState = db.prepare(
    `INSERT INTO reply_poll_state (scope, inbound_total, checked_at) VALUES (?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET inbound_total = excluded.inbound_total, checked_at = excluded.checked_at`,
  );
  const queue = db.prepare(
    `INSERT OR IGNORE INTO reply_announcements
     (subscription_id, message_id, thread_id, message, message_at, state, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', ?)`,
  );
  const unpostedRows = db.prepare<[], AnnouncementRow>(
    `SELECT a.* FROM reply_announcements a WHERE a.state <> 'posted'
     ORDER BY a.subscription_id, a.message_at IS NULL, a.message_at, a.message_id`,
  );
  const posting = db.prepare(
    `UPDATE reply_announcements SET state = 'posting', attempts = attempts + 1
     WHERE subscription_id = ? AND message_id = ? AND state <> 'posted'`,
  );
  const posted = db.prepare(
    `UPDATE reply_announcements SET state = 'posted', posted_at = ?, posted_channel_id = ?,
     posted_message_id = ?, posted_thread_id = ? WHERE subscription_id = ? AND message_id = ?`,
  );
  const firstInThread = db.prepare<
    [number, string],
    { posted_channel_id: string; posted_message_id: string; posted_thread_id: string | null }
  >(
    `SELECT first.posted_channel_id, first.posted_message_id,
       COALESCE(first.posted_thread_id, (
         SELECT later.posted_thread_id FROM reply_announcements later
         WHERE later.subscription_id = first.subscription_id AND later.thread_id = first.thread_id
           AND later.state = 'posted' AND later.posted_thread_id IS NOT NULL
         ORDER BY later.posted_at LIMIT 1)) AS posted_thread_id
     FROM reply_announcements first
     WHERE first.subscription_id = ? AND first.thread_id = ? AND first.state = 'posted'
       AND first.posted_message_id IS NOT NULL
     ORDER BY first.posted_at, first.message_at LIMIT 1`,
  );
  const countPosted = db
    .prepare<[number], number>(
      `SELECT COUNT(*) FROM reply_announcements WHERE subscription_id = ? AND state = 'posted'`,
    )
    .pluck();

  const record = db.transaction(
    (account: string, total: number, fresh: readonly FreshMessage[], now: Date): number => {
      let queued = 0;
      const at = now.toISOString();
      for (const item of fresh) {
        markSeen.run(account, item.messageId, at);
        for (const subscriptionId of item.subscriptionIds) {
          queued += queue.run(
            subscriptionId,
            item.messageId,
            item.threadId,
            JSON.stringify(item.message),
            item.messageAt,
            at,
          ).changes;
        }
      }
      putState.run(scopeOf(account), total, at);
      return queued;
    },
  );

  return {
    subscribe(input) {
      const project = input.projectId ?? '';
      const existing = findActive.get(input.platform, input.workspaceId, input.channelId, project);
      if (existing !== undefined) return { subscription: toSubscription(existing), created: false };
      const id = insert.run(
        input.platform,
        input.workspaceId,
        input.channelId,
        input.projectId,
        input.createdBy,
        input.now.toISOString(),
      ).lastInsertRowid;
      const row = byId.get(Number(id));
      if (row === undefined) throw new Error('The new subscription was not stored.');
      return { subscription: toSubscription(row), created: true };
    },
    unsubscribe(channel, projectId, now) {
      const at = now.toISOString();
      if (projectId === undefined) {
        return removeAll.run(at, channel.platform, channel.workspaceId, channel.channelId).changes;
      }
      return removeOne.run(at, channel.platform, channel.workspaceId, channel.channelId, projectId ?? '')
        .changes;
    },
    list: (workspace) => listWorkspace.all(workspace.platform, workspace.workspaceId).map(toSubscription),
    active: () => listActive.all().map(toSubscription),
    seen: (account, ids) => new Set(ids.filter((id) => isSeen.get(account, id) !== undefined)),
    pollState(account) {
      const row = getState.get(scopeOf(account));
      return row === undefined
        ? null
        : { inboundTotal: row.inbound_total, checkedAt: new Date(row.checked_at) };
    },
    recordPoll: (account, total, fresh, now) => record(account, total, fresh, now),
    unposted() {
      const subscriptions = new Map<number, ReplySubscription | null>();
      const out: Announcement[] = [];
      for (const row of unpostedRows.all()) {
        if (!subscriptions.has(row.subscription_id)) {
          const found = byId.get(row.subscription_id);
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
    markPosting(subscriptionId, messageId) {
      posting.run(subscriptionId, messageId);
    },
    markPosted(subscriptionId, messageId, ref, now) {
      posted.run(now.toISOString(), ref.channelId, ref.messageId, ref.threadId, subscriptionId, messageId);
    },
    threadPost(subscriptionId, threadId) {
      const row = firstInThread.get(subscriptionId, threadId);
      return row === undefined
        ? null
        : {
            channelId: row.posted_channel_id,
            messageId: row.posted_message_id,
            threadId: row.posted_thread_id,
          };
    },
    postedCount: (subscriptionId) => countPosted.get(subscriptionId) ?? 0,
  };
}
