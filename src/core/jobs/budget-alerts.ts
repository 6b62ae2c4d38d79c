/**
 * The budget alert sender: posts the alerts paid calls queued (see credits.ts noteSpend) as private messages,
 * off the commands' path. Woken as soon as an alert is queued in this process, and run by the jobs loop for what
 * another process queued or a stop interrupted. Each post is claimed in SQLite before it is sent and marked posted
 * after (pending → posting → posted, keyed `alert:<person>:<threshold>:<day>`), so it lands once.
 */

import type { Platform } from '../actor.js';
import type { Clock } from '../clock.js';
import { CancelledError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Outbound } from '../outbound.js';
import type { BudgetAlert } from '../store/budget-alerts.js';
import { untilAborted } from './abort.js';
import { alertKey, alertReply } from './budget-alert-view.js';
import type { JobsApp } from './deps.js';

/** Attempts at one alert before it is given up (a person who cannot be written to). */
export const ALERT_ATTEMPTS_MAX = 5;
/** Days an alert row is kept (the once-guard needs only its own day). */
const KEEP_DAYS = 7;

/** What the sender needs. */
export interface BudgetAlertSenderOptions {
  app: JobsApp;
  outbound: ReadonlyMap<Platform, Outbound>;
  logger: Logger;
  clock: Clock;
}

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
  const alerts = app.store.alerts;

  const send = async (alert: BudgetAlert, signal?: AbortSignal): Promise<boolean> => {
    const now = clock.now();
    if (alert.day < dayOf(now)) {
      // Yesterday's numbers are no longer news: the day they describe is over.
      await alerts.drop(alert);
      return false;
    }
    const outbound = options.outbound.get(alert.platform);
    // Left for a process that serves the platform.
    if (outbound === undefined) return false;
    const claim = await alerts.claim(alert, app.processId, now);
    if (claim === null) return false;
    const person = { platform: alert.platform, workspaceId: alert.workspaceId, userId: alert.userId };
    try {
      const posted = await untilAborted(
        outbound.postDirect(person, alertReply(alert), {
          key: alertKey(alert),
          mayHaveLanded: claim.mayHaveLanded,
        }),
        signal,
      );
      await alerts.markPosted(alert, posted, clock.now());
      return true;
    } catch (error) {
      if (signal?.aborted) throw error;
      const gaveUp = claim.attempts >= ALERT_ATTEMPTS_MAX;
      if (gaveUp) await alerts.drop(alert);
      logger.warn(
        { err: error, platform: alert.platform, user: alert.userId, alert: alert.threshold },
        gaveUp
          ? 'A budget alert could not be sent and is given up.'
          : 'A budget alert could not be sent; it will be tried again.',
      );
      return false;
    }
  };

  const deliverNow = async (signal?: AbortSignal): Promise<number> => {
    let count = 0;
    for (const alert of await alerts.unsent()) {
      if (signal?.aborted) break;
      try {
        if (await send(alert, signal)) count += 1;
      } catch (error) {
        if (signal?.aborted) break;
        throw error;
      }
    }
    await alerts.purge(dayOf(new Date(clock.now().getTime() - KEEP_DAYS * 86_400_000)));
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
