/**
 * The reply poller: for each service account with subscribed channels (each tenant's own key), reads inbound
 * agent messages at background priority, queues one notification per new reply and subscription in the outbox
 * (atomically with marking the reply seen), then delivers them (outbox.ts), each subscription's in order, threading
 * later replies of a mail thread under the first notification. Accounts are polled side by side: one waiting on its
 * own rate limit does not hold up another.
 */

import { type AgentMessage, agentMessageSchema } from '../service/agent.js';
import type { Page } from '../service/types.js';
import type { MintedAction } from '../store/action-tokens.js';
import type { QueuedPost } from '../store/outbox.js';
import {
  type FreshMessage,
  type ReplyPayload,
  type ReplySubscription,
  subscriptionSeries,
} from '../store/subscriptions.js';
import type { ServiceAccount } from '../tenancy/index.js';
import { toEpochMs } from '../ui/index.js';
import { type Courier, type DeliveryDeps, deliverPosts } from './outbox.js';
import { metadataHandle, replyNotification, replyTime } from './reply-view.js';

/** Messages per request: the contract's maximum, so a full read takes as few requests as possible. */
export const POLL_PAGE_SIZE = 100;
/** A full read stops after this many pages (10 000 replies), so a broken `next_page` cannot loop forever. */
export const POLL_PAGES_MAX = 100;

const BACKGROUND = { priority: 'background' } as const;

/** What the poller needs. */
export type ReplyPollerOptions = DeliveryDeps;

/** The poller's two steps, run by the jobs loop (and by tests directly). */
export interface ReplyPoller {
  /** One poll: one request when nothing is new, a full read otherwise. Returns how many were queued. */
  poll(signal?: AbortSignal): Promise<number>;
  /** Posts every queued announcement; returns how many were posted. */
  deliver(signal?: AbortSignal): Promise<number>;
}

const matches = (subscription: ReplySubscription, message: AgentMessage, known: boolean): boolean => {
  if (subscription.projectId !== null && subscription.projectId !== message.project_id) return false;
  const at = toEpochMs(replyTime(message));
  // A subscription starts from its creation: older replies are history. An undated reply found by a later poll
  // is new; on the very first read nothing tells it from history, so it is left out.
  return at === null ? known : at >= subscription.createdAt.getTime();
};

/** Creates the reply poller. */
export function createReplyPoller(options: ReplyPollerOptions): ReplyPoller {
  const { app, logger, clock } = options;
  const { store } = app;

  /** The items grouped by the service account of their tenant; items of tenants without one are left out. */
  const byAccount = async <T>(items: readonly T[], tenantOf: (item: T) => ReplySubscription) => {
    const groups = new Map<string, { account: ServiceAccount; items: T[] }>();
    for (const item of items) {
      const access = await app.tenants.access(tenantOf(item));
      if (access.status !== 'ok') continue;
      const group = groups.get(access.account.id) ?? { account: access.account, items: [] };
      group.items.push(item);
      groups.set(access.account.id, group);
    }
    return [...groups.values()];
  };

  /** Runs `work` for each account at once; one account's failure is logged and does not stop the others. */
  const eachAccount = async <T>(
    groups: ReadonlyArray<{ account: ServiceAccount; items: T[] }>,
    what: string,
    work: (account: ServiceAccount, items: T[]) => Promise<number>,
  ): Promise<number> => {
    const results = await Promise.allSettled(groups.map((g) => work(g.account, g.items)));
    let total = 0;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') total += result.value;
      else logger.warn({ err: result.reason, account: groups[i]?.account.id }, `Reply ${what} failed.`);
    });
    // When every account failed, the loop backs off (longer on 429) as it did with one account.
    const [first] = results;
    if (first?.status === 'rejected' && results.every((r) => r.status === 'rejected')) throw first.reason;
    return total;
  };

  const page = async (
    account: ServiceAccount,
    n: number,
    signal?: AbortSignal,
  ): Promise<Page<AgentMessage>> =>
    (
      await account.service.agent.messages(
        { direction: 'inbound', page: n, perPage: POLL_PAGE_SIZE },
        signal === undefined ? BACKGROUND : { ...BACKGROUND, signal },
      )
    ).data;

  const poll = async (signal?: AbortSignal): Promise<number> =>
    eachAccount(await byAccount(await store.subscriptions.active(), (s) => s), 'poll', (account) =>
      pollAccount(account, signal),
    );

  /** One poll of an account that has subscribed channels. */
  const pollAccount = async (account: ServiceAccount, signal?: AbortSignal): Promise<number> => {
    const first = await page(account, 1, signal);
    const state = await store.subscriptions.pollState(account.id);
    const firstIds = first.items.map((m) => m.id);
    const unseenOnFirst =
      (await store.subscriptions.seen(account.id, firstIds)).size < new Set(firstIds).size;
    // Ordering is not documented: the total says whether anything changed, and only then are all pages read.
    if (state !== null && first.total !== null && first.total === state.inboundTotal && !unseenOnFirst)
      return 0;
    const all = new Map(first.items.map((m) => [m.id, m]));
    let next = first.nextPage;
    for (let pages = 1; next !== null && pages < POLL_PAGES_MAX; pages++) {
      const more = await page(account, next, signal);
      for (const m of more.items) all.set(m.id, m);
      next = more.nextPage !== null && more.nextPage > next ? more.nextPage : null;
    }
    // The subscriptions as they are now, after the reads: a key changed meanwhile moved its tenant to another
    // account or restarted its subscriptions from now. Only the store is awaited from here to the record.
    const current = (await byAccount(await store.subscriptions.active(), (s) => s)).find(
      (g) => g.account.id === account.id,
    );
    const subscriptionsNow = current?.items ?? [];
    const seen = await store.subscriptions.seen(account.id, [...all.keys()]);
    const fresh: FreshMessage[] = [];
    for (const message of all.values()) {
      if (seen.has(message.id) || message.direction === 'outbound') continue;
      const at = toEpochMs(replyTime(message));
      fresh.push({
        messageId: message.id,
        threadId: message.thread_id ?? null,
        messageAt: at === null ? null : new Date(at).toISOString(),
        message: message as Record<string, unknown>,
        subscriptions: subscriptionsNow.filter((s) => matches(s, message, state !== null)),
      });
    }
    // A page shifting under a concurrent reply can hide one message: storing the smaller count makes the next
    // poll read everything again.
    const total = Math.min(first.total ?? all.size, all.size);
    const queued = await store.subscriptions.recordPoll(account.id, total, fresh, clock.now());
    if (queued > 0)
      logger.info(
        { queued, fresh: fresh.length, account: account.id },
        'New creator replies queued for announcement.',
      );
    return queued;
  };

  const projectNames = async (
    account: ServiceAccount,
    signal?: AbortSignal,
  ): Promise<Map<string, string>> => {
    try {
      const { data } = await account.service.agent.projects(
        signal === undefined ? BACKGROUND : { ...BACKGROUND, signal },
      );
      return new Map(data.projects.map((p) => [p.id, p.name ?? p.id]));
    } catch (error) {
      logger.warn({ err: error }, 'Agent projects could not be read; notifications show project ids.');
      return new Map();
    }
  };

  const handleOf = async (account: ServiceAccount, message: AgentMessage): Promise<string | null> => {
    const fromMetadata = metadataHandle(message);
    if (fromMetadata !== null || !message.creator_id) return fromMetadata;
    const cached = (await store.profiles.getFresh(account.id, [message.creator_id], new Date(0))).get(
      message.creator_id,
    );
    const handle = cached?.profile.handle;
    return typeof handle === 'string' && handle.trim() !== '' ? handle.trim().replace(/^@+/, '') : null;
  };

  /** What a notification says: its buttons minted and stored before it is posted, in the thread of its mail thread. */
  const notification = async (
    account: ServiceAccount,
    subscription: ReplySubscription,
    post: QueuedPost<ReplyPayload>,
    names: Map<string, string>,
  ) => {
    const message = agentMessageSchema.parse(post.payload.message);
    const thread = post.thread
      ? await store.outbox.threadPost(subscriptionSeries(subscription.id), post.thread)
      : null;
    const actor = {
      platform: subscription.platform,
      workspaceId: subscription.workspaceId,
      userId: subscription.createdBy,
    };
    const now = clock.now();
    const elements: MintedAction[] = [];
    const reply = replyNotification(message, {
      projectName: message.project_id ? (names.get(message.project_id) ?? null) : null,
      handle: await handleOf(account, message),
      inThread: thread !== null,
      token: (kind, payload) => {
        const minted = store.actions.mint({ kind, payload, actor, ttlMs: app.settings.elementTtlMs, now });
        elements.push(minted);
        return minted.token;
      },
    });
    await store.actions.save(elements);
    return thread === null
      ? { reply }
      : { reply, inThreadOf: { platform: subscription.platform, ...thread } };
  };

  /** How an account's notifications are delivered, with the subscriptions they were queued for. */
  const courierOf = (
    account: ServiceAccount,
    subscriptions: ReadonlyMap<number, ReplySubscription>,
    names: Map<string, string>,
  ): Courier<ReplyPayload> => ({
    kind: 'reply',
    what: 'A reply notification',
    // A post that cannot go holds back the rest of its subscription, so replies keep their order and threads.
    inOrder: true,
    async prepare(post) {
      const subscription = subscriptions.get(post.payload.subscriptionId);
      return subscription === undefined ? 'drop' : notification(account, subscription, post, names);
    },
    done: (post, outcome) => app.metrics.notification(post.platform, outcome),
  });

  const deliver = async (signal?: AbortSignal): Promise<number> => {
    const queued = await store.outbox.unposted<ReplyPayload>('reply');
    // Read after the queue: the subscription of every post read is among them unless it has ended.
    const subscriptions = new Map((await store.subscriptions.active()).map((s) => [s.id, s]));
    const items: Array<{ post: QueuedPost<ReplyPayload>; subscription: ReplySubscription }> = [];
    for (const post of queued) {
      const subscription = subscriptions.get(post.payload.subscriptionId);
      // Replies queued for a subscription since ended are not announced.
      if (subscription === undefined) await store.outbox.drop(post.id);
      else items.push({ post, subscription });
    }
    return eachAccount(
      await byAccount(items, (item) => item.subscription),
      'delivery',
      async (account, group) =>
        deliverPosts(
          options,
          courierOf(account, subscriptions, await projectNames(account, signal)),
          group.map((item) => item.post),
          signal,
        ),
    );
  };

  return { poll, deliver };
}
