/**
 * Scout's background jobs: the reply poller, the digest scheduler and the budget alert sender, started and stopped
 * with the process. Each queues its posts in the outbox and delivers them through one rule (outbox.ts).
 */

import type { Platform } from '../actor.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Outbound } from '../outbound.js';
import { createBudgetAlertSender } from './budget-alerts.js';
import type { JobsApp } from './deps.js';
import { createDigestScheduler } from './digest-scheduler.js';
import { createLoop } from './loop.js';
import { createReplyPoller } from './reply-poller.js';

/** Default poll interval: SCOUT_REPLY_POLL_SECONDS' default of 120 s. */
export const DEFAULT_POLL_INTERVAL_MS = 120_000;
/** Default interval between digest checks. */
export const DEFAULT_DIGEST_CHECK_MS = 30_000;
/** Default interval between looks for budget alerts left unsent (those queued in this process go at once). */
export const DEFAULT_ALERT_CHECK_MS = 60_000;

/** Options of createJobs. */
export interface JobsOptions {
  app: JobsApp;
  /** The Outbound of each platform Scout posts to. */
  outbound: ReadonlyMap<Platform, Outbound>;
  logger: Logger;
  /** The app's clock by default. */
  clock?: Clock;
  pollIntervalMs?: number;
  digestCheckMs?: number;
  alertCheckMs?: number;
}

/** The running jobs. */
export interface Jobs {
  /** Starts the loops; queued notifications, due digests and unsent alerts are handled at once. */
  start(): Promise<void>;
  /** Stops the loops, aborting work in flight; what was not confirmed posted is posted at next start. */
  stop(): Promise<void>;
}

/** Creates the background jobs. */
export function createJobs(options: JobsOptions): Jobs {
  const clock = options.clock ?? options.app.clock;
  const deps = { app: options.app, outbound: options.outbound, logger: options.logger, clock };
  const poller = createReplyPoller(deps);
  const digests = createDigestScheduler(deps);
  const alerts = createBudgetAlertSender(deps);
  const loops = [
    createLoop({
      name: 'reply poller',
      intervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      logger: options.logger,
      async work(signal) {
        // Deliver first: what an earlier run queued (or a crash interrupted) goes out before anything new.
        await poller.deliver(signal);
        if ((await poller.poll(signal)) > 0) await poller.deliver(signal);
      },
    }),
    createLoop({
      name: 'digest scheduler',
      intervalMs: options.digestCheckMs ?? DEFAULT_DIGEST_CHECK_MS,
      logger: options.logger,
      work: (signal) => digests.check(signal),
    }),
    createLoop({
      name: 'budget alerts',
      intervalMs: options.alertCheckMs ?? DEFAULT_ALERT_CHECK_MS,
      logger: options.logger,
      work: (signal) => alerts.deliver(signal),
    }),
  ];
  return {
    async start() {
      alerts.start();
      for (const loop of loops) loop.start();
    },
    async stop() {
      await Promise.all([...loops.map((loop) => loop.stop()), alerts.stop()]);
    },
  };
}

export { alertReply } from './budget-alert-view.js';
export { ALERT_ATTEMPTS_MAX, type BudgetAlertSender, createBudgetAlertSender } from './budget-alerts.js';
export { createDigestScheduler, type DigestScheduler, dueDay } from './digest-scheduler.js';
export {
  chooseDigestPosts,
  DIGEST_TOP_DEFAULT,
  DIGEST_TOP_MAX,
  digestReply,
  poolSize,
  resolveDigestFilters,
} from './digest-view.js';
export { type Courier, type DeliveryDeps, deliverPosts, type Prepared } from './outbox.js';
export { createReplyPoller, type ReplyPoller } from './reply-poller.js';
export { type ConversationPayload, NOTIFY_KINDS, type StatusPayload } from './reply-view.js';
export { canonicalTimeZone, localDayOf, parseLocalTime, zonedInstant } from './time-zone.js';
