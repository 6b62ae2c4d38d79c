/**
 * Delivering the outbox (store/outbox.ts) for every job: a job says only what one of its posts says (its
 * `Courier`); each post is then claimed for this process, sent under its key through the platform's Outbound,
 * flagged `mayHaveLanded` when an earlier attempt was cut off (the Outbound looks for it before posting again), and
 * recorded with where it landed. A post cut off by stop() is released for whichever process delivers next.
 */

import type { Platform } from '../actor.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Outbound, PostedMessage, PostOptions } from '../outbound.js';
import type { PostKind, QueuedPost } from '../store/outbox.js';
import type { Reply } from '../ui/index.js';
import { untilAborted } from './abort.js';
import type { JobsApp } from './deps.js';

/** What one post says (and the thread it goes in), or 'drop': it is no longer wanted and is given up unsent. */
export type Prepared = { reply: Reply; inThreadOf?: PostedMessage } | 'drop';

/** What a job tells the outbox about its kind of post. */
export interface Courier<P> {
  readonly kind: PostKind;
  /** How the log names one post: "A digest". */
  readonly what: string;
  /** Attempts before a post is given up (a person who cannot be written to); tried until posted when absent. */
  readonly maxAttempts?: number;
  /** Posts of a series keep their order: one that cannot go now holds back the rest of its series this round. */
  readonly inOrder?: boolean;
  /** What the post says. */
  prepare(post: QueuedPost<P>, signal?: AbortSignal): Promise<Prepared>;
  /** Hears how each post went (for metrics). */
  done?(post: QueuedPost<P>, outcome: 'posted' | 'failed'): void;
}

/** What delivery needs of the jobs. */
export interface DeliveryDeps {
  app: JobsApp;
  outbound: ReadonlyMap<Platform, Outbound>;
  logger: Logger;
  clock: Clock;
}

type Outcome = 'posted' | 'dropped' | 'held' | 'stopped';

/** Posts the queued `posts` of a courier's kind, in order; returns how many were posted. Stops when `signal` aborts. */
export async function deliverPosts<P>(
  deps: DeliveryDeps,
  courier: Courier<P>,
  posts: readonly QueuedPost<P>[],
  signal?: AbortSignal,
): Promise<number> {
  const held = new Set<string | null | undefined>();
  let count = 0;
  for (const post of posts) {
    if (signal?.aborted) break;
    if (held.has(post.series)) continue;
    const outcome = await deliverOne(deps, courier, post, signal);
    if (outcome === 'posted') count += 1;
    // A post of no series holds nothing back.
    if (outcome === 'held' && courier.inOrder === true && post.series) held.add(post.series);
  }
  return count;
}

/** Prepares and posts one post; 'held' when it did not go this round. */
async function deliverOne<P>(
  deps: DeliveryDeps,
  courier: Courier<P>,
  post: QueuedPost<P>,
  signal?: AbortSignal,
): Promise<Outcome> {
  const outbound = deps.outbound.get(post.platform);
  if (outbound === undefined) {
    deps.logger.warn(
      { platform: post.platform, post: post.key },
      `${courier.what} waits: no outbound adapter.`,
    );
    return 'held';
  }
  let prepared: Prepared;
  try {
    prepared = await courier.prepare(post, signal);
  } catch (error) {
    if (signal?.aborted) return 'stopped';
    return failed(deps, courier, post, error, false);
  }
  if (prepared === 'drop') {
    await deps.app.store.outbox.drop(post.id);
    return 'dropped';
  }
  return postOnce(deps, courier, post, { outbound, ...prepared }, signal);
}

/**
 * The one rule for a post: claimed for this process (else another live process has it), sent under its key, flagged
 * as possibly posted when this is not its first attempt, and recorded posted.
 */
async function postOnce<P>(
  deps: DeliveryDeps,
  courier: Courier<P>,
  post: QueuedPost<P>,
  message: { outbound: Outbound; reply: Reply; inThreadOf?: PostedMessage },
  signal?: AbortSignal,
): Promise<Outcome> {
  const { app, clock, logger } = deps;
  const claim = await app.store.outbox.claim(post.id, app.processId, clock.now());
  if (claim === null) return 'held';
  if (claim.mayHaveLanded)
    logger.warn(
      { post: post.key },
      `${courier.what} cut off before it was confirmed is looked for, then posted.`,
    );
  try {
    const posted = await untilAborted(
      send(post, message, { key: post.key, mayHaveLanded: claim.mayHaveLanded }),
      signal,
    );
    await app.store.outbox.markPosted(post.id, posted, clock.now());
    courier.done?.(post, 'posted');
    return 'posted';
  } catch (error) {
    if (signal?.aborted) {
      // The post may have landed: it stays posting, free for the next process that delivers to look for it.
      await app.store.outbox.release(post.id, app.processId).catch(() => undefined);
      return 'stopped';
    }
    const gaveUp = courier.maxAttempts !== undefined && claim.attempts >= courier.maxAttempts;
    if (gaveUp) await app.store.outbox.drop(post.id);
    return failed(deps, courier, post, error, gaveUp);
  }
}

/** Sends a post to its channel or, privately, to its person. */
function send(
  post: QueuedPost<unknown>,
  message: { outbound: Outbound; reply: Reply; inThreadOf?: PostedMessage },
  options: PostOptions,
): Promise<PostedMessage> {
  const { platform, workspaceId, to } = post;
  if ('userId' in to)
    return message.outbound.postDirect({ platform, workspaceId, userId: to.userId }, message.reply, options);
  const thread = message.inThreadOf === undefined ? {} : { inThreadOf: message.inThreadOf };
  return message.outbound.post({ platform, workspaceId, channelId: to.channelId }, message.reply, {
    ...options,
    ...thread,
  });
}

/** Reports a post that could not go this round. */
function failed<P>(
  deps: DeliveryDeps,
  courier: Courier<P>,
  post: QueuedPost<P>,
  error: unknown,
  gaveUp: boolean,
): Outcome {
  courier.done?.(post, 'failed');
  deps.logger.error(
    { err: error, platform: post.platform, post: post.key },
    gaveUp
      ? `${courier.what} could not be posted and is given up.`
      : `${courier.what} could not be posted; it will be tried again.`,
  );
  return 'held';
}
