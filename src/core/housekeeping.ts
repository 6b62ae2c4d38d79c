/**
 * Housekeeping: the database keeps only what can still be used. Expired buttons are kept a while longer, so that
 * pressing one still says "expired, run it again" rather than "unknown".
 */
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { Store } from './store/index.js';

/** How long rows are kept past their use. */
export interface RetentionSettings {
  /** Invocation claims (duplicate detection) older than this are dropped. */
  invocationsMs: number;
  /** Expired buttons and search sessions are dropped this long after expiring (conversations when they expire). */
  expiredElementsMs: number;
  /** Cached profiles older than this (the profile TTL) are dropped. */
  profilesMs: number;
}

/** What one run removed. */
export interface PurgeCounts {
  invocations: number;
  actions: number;
  searches: number;
  conversations: number;
  profiles: number;
  /** Reservations past their expiry (left by a process that stopped before giving them back). */
  reservations: number;
}

/** Periodic purge, started with the app. */
export interface Housekeeping {
  runOnce(): Promise<PurgeCounts>;
  start(intervalMs?: number): void;
  stop(): void;
}

/** Creates the housekeeping job; a run that fails in the background is reported to `logger` when given. */
export function createHousekeeping(
  store: Store,
  clock: Clock,
  retention: RetentionSettings,
  logger?: Pick<Logger, 'warn'>,
): Housekeeping {
  let timer: NodeJS.Timeout | null = null;
  const runOnce = async (): Promise<PurgeCounts> => {
    const now = clock.now().getTime();
    return {
      invocations: await store.invocations.purge(new Date(now - retention.invocationsMs)),
      actions: await store.actions.purge(new Date(now - retention.expiredElementsMs)),
      searches: await store.searches.purge(new Date(now - retention.expiredElementsMs)),
      conversations: await store.conversations.purge(new Date(now)),
      profiles: await store.profiles.purge(new Date(now - retention.profilesMs)),
      reservations: await store.reservations.purge(new Date(now)),
    };
  };
  const runInBackground = () => {
    void runOnce().catch((error: unknown) => {
      logger?.warn({ err: error }, 'Housekeeping could not purge old rows.');
    });
  };
  return {
    runOnce,
    start(intervalMs = 6 * 3_600_000) {
      if (timer !== null) return;
      runInBackground();
      timer = setInterval(runInBackground, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
