/** The settings of a key's rate limiter (rate-limiter.ts), their defaults and their check. */
import { QUEUE_REPORT_MS } from './queue-notices.js';

/** Settings of a key's limiter. */
export interface RateLimitSettings {
  /** Requests allowed to start in any window. */
  perWindow: number;
  /** Length of the sliding window, in milliseconds. */
  windowMs: number;
  /**
   * Requests of one key in flight at once; when omitted it follows the allowance (the window, not a fixed number,
   * is what the service limits), including an allowance learnt from the service's answers.
   */
  maxConcurrent?: number;
  /** Extra wait before a slot comes back, absorbing clock and network jitter between client and service. */
  marginMs: number;
  /** Shortest time between two reports of a waiting call's place (ScheduleOptions.onQueue). */
  queueReportMs: number;
}

/** Defaults: the contract's 60 requests per minute, as many in flight as the allowance lets start. */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  perWindow: 60,
  windowMs: 60_000,
  marginMs: 25,
  queueReportMs: QUEUE_REPORT_MS,
};

/** Throws a RangeError naming the first setting that is out of range. */
export function validate(settings: RateLimitSettings): void {
  const positiveInt = (n: number) => Number.isInteger(n) && n > 0;
  if (
    !positiveInt(settings.perWindow) ||
    !positiveInt(settings.windowMs) ||
    (settings.maxConcurrent !== undefined && !positiveInt(settings.maxConcurrent))
  ) {
    throw new RangeError(
      'Rate limit settings need positive whole numbers (perWindow, windowMs, maxConcurrent).',
    );
  }
  if (!(settings.marginMs >= 0)) throw new RangeError('Rate limit marginMs must be zero or more.');
  if (!(settings.queueReportMs > 0)) throw new RangeError('Rate limit queueReportMs must be more than zero.');
}
