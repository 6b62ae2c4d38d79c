/**
 * The budget alert sender: delivers the alerts paid calls queued in the outbox (see credits.ts noteSpend) as private
 * messages, off the commands' path. Woken as soon as an alert is queued in this process, and run by the jobs loop
 * for what another process queued or a stop interrupted. Each is posted once (outbox.ts), keyed
 * `alert:<person>:<threshold>:<day>`.
 */

import { CancelledError } from '../errors.js';
import type { AlertPayload } from '../store/budget-alerts.js';
import { alertReply } from './budget-alert-view.js';
import { type Courier, type DeliveryDeps, deliverPosts } from './outbox.js';

/** Attempts at one alert before it is given up (a person who cannot be written to). */
export const ALERT_ATTEMPTS_MAX = 5;
/** Days an alert row is kept (the once-guard needs only its own day). */
const KEEP_DAYS = 7;

/** What the sender needs. */
export type BudgetAlertSenderOptions = DeliveryDeps;

/** Sends queued budget alerts. */
export interface BudgetAlertSender {
  /** Posts every alert this process can claim; returns how many were posted. One run at a time. */
  deliver(signal?: AbortSignal): Promise<number>;
  /** Starts sending alerts as soon as they are queued in this process. */
  start(): void;
  /** Stops that, aborting a post in flight (it is posted at the next start, after a look-up), and waits. */
  stop(): Promise<void>;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Creates the budget alert sender. */
export function createBudgetAlertSender(options: BudgetAlertSenderOptions): BudgetAlertSender {
  const { app, logger, clock } = options;
  const { alerts, outbox } = app.store;
  const courier: Courier<AlertPayload> = {
    kind: 'budget-alert',
    what: 'A budget alert',
    maxAttempts: ALERT_ATTEMPTS_MAX,
    // Yesterday's numbers are no longer news: the day they describe is over.
    prepare: async ({ payload }) =>
      payload.day < dayOf(clock.now()) ? 'drop' : { reply: alertReply(payload) },
  };

  const deliverNow = async (signal?: AbortSignal): Promise<number> => {
    const count = await deliverPosts(
      options,
      courier,
      await outbox.unposted<AlertPayload>('budget-alert'),
      signal,
    );
    await outbox.purge('budget-alert', new Date(clock.now().getTime() - KEEP_DAYS * 86_400_000));
    return count;
  };

  // One delivery at a time in this process: a post left 'posting' by this process is taken up again by it.
  let tail: Promise<unknown> = Promise.resolve();
  const deliver = (signal?: AbortSignal): Promise<number> => {
    const run = tail.then(() => deliverNow(signal));
    tail = run.catch(() => {});
    return run;
  };

  let controller: AbortController | null = null;
  let unsubscribe: (() => void) | null = null;
  let woken = false;
  const wake = () => {
    const current = controller;
    if (current === null || woken) return;
    woken = true;
    // Off the path of the command whose paid call queued the alert: it never waits on it nor fails with it.
    setImmediate(() => {
      woken = false;
      deliver(current.signal).catch((error: unknown) => {
        if (!current.signal.aborted) logger.warn({ err: error }, 'Budget alerts could not be sent.');
      });
    });
  };

  return {
    deliver,
    start() {
      if (controller !== null) return;
      controller = new AbortController();
      unsubscribe = alerts.onQueued(wake);
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      controller?.abort(new CancelledError('budget alerts stopped'));
      controller = null;
      await tail;
    },
  };
}
