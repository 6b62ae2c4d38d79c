/** Retry policy: which failures are worth another attempt, and how long to wait before it. */

import type { ServiceErrorCode } from './errors.js';

/** Retry settings of a client. */
export interface RetrySettings {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** Backoff before the second attempt; it doubles with each further attempt. */
  baseDelayMs: number;
  /** Backoff ceiling. */
  maxDelayMs: number;
  /** A 429 asking for a longer wait than this fails at once instead of holding the call. */
  maxRetryAfterMs: number;
}

/** Defaults: four attempts, 0.5 s doubling to 20 s, and 429 waits up to 2 minutes. */
export const DEFAULT_RETRY: RetrySettings = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 120_000,
};

/** How a failed attempt ended. */
export interface FailedAttempt {
  code: ServiceErrorCode;
  /** False when the request provably never reached the service (for instance the connection was refused). */
  sent: boolean;
}

/**
 * Whether to try again. Rate-limited and unsent requests were not processed, so any operation may repeat them;
 * server errors, timeouts and network failures are repeated only for operations that are safe to repeat.
 */
export function isRetryable(failure: FailedAttempt, repeatable: boolean): boolean {
  if (failure.code === 'RATE_LIMITED') return true;
  if (failure.code === 'NETWORK_ERROR' && !failure.sent) return true;
  if (!repeatable) return false;
  return (
    failure.code === 'SERVICE_UNAVAILABLE' || failure.code === 'TIMEOUT' || failure.code === 'NETWORK_ERROR'
  );
}

/** Jittered exponential backoff before attempt `attempt + 1`: half fixed, half random, capped. */
export function backoffDelay(
  attempt: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Waits `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
