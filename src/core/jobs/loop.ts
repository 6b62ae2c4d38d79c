/**
 * A background loop: runs its work now, then again after each interval, backing off after failures (longer
 * still when the service said 429). One run at a time; stop() aborts the run in flight and waits for it.
 */

import { CancelledError } from '../errors.js';
import type { Logger } from '../logger.js';
import { ServiceError } from '../service/errors.js';

/** Longest wait after repeated failures. */
export const BACKOFF_MAX_MS = 30 * 60_000;

/** Options of createLoop. */
export interface LoopOptions {
  name: string;
  intervalMs: number;
  logger: Logger;
  work(signal: AbortSignal): Promise<unknown>;
}

/** A started-and-stopped loop. */
export interface Loop {
  start(): void;
  stop(): Promise<void>;
}

/** The wait before the next run after `failures` failures in a row, the last one being `error`. */
export function backoffMs(intervalMs: number, failures: number, error: unknown): number {
  const retryAfterMs =
    error instanceof ServiceError && error.code === 'RATE_LIMITED' && error.retryAfter !== null
      ? error.retryAfter * 1000
      : 0;
  const grown = intervalMs * 2 ** Math.min(failures, 10);
  return Math.min(BACKOFF_MAX_MS, Math.max(grown, retryAfterMs));
}

/** Creates a loop; nothing runs before start(). */
export function createLoop(options: LoopOptions): Loop {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let controller: AbortController | null = null;
  let stopped = true;
  let failures = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  const tick = () => {
    timer = null;
    const current = new AbortController();
    controller = current;
    running = (async () => {
      try {
        await options.work(current.signal);
        failures = 0;
        schedule(options.intervalMs);
      } catch (error) {
        if (current.signal.aborted) return;
        failures += 1;
        const wait = backoffMs(options.intervalMs, failures, error);
        const limited = error instanceof ServiceError && error.code === 'RATE_LIMITED';
        options.logger.warn(
          { err: error, job: options.name, retryInMs: wait },
          limited ? 'The service rate-limited a background job; backing off.' : 'A background job failed.',
        );
        schedule(wait);
      } finally {
        running = null;
        controller = null;
      }
    })();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      controller?.abort(new CancelledError(`${options.name} stopped`));
      await running;
    },
  };
}
