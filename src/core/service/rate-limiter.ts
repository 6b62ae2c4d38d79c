/**
 * One rate limiter per API key (key-limiter.ts), in a registry shared by every client of the process: a sliding
 * window of the key's allowance, a bound on requests in flight, holds after a 429, and the order of waiting jobs
 * (people first, round robin per person; background behind them).
 */

import { InternalError } from '../errors.js';
import { createKeyLimiter, isLimiterStopped, LIMITER_STOPPED_MESSAGE } from './key-limiter.js';
import { QUEUE_REPORT_MS } from './queue-reports.js';
import type { SharedWindows } from './shared-window.js';
import type { Priority, QueuePlace } from './types.js';

export { isLimiterStopped, LIMITER_STOPPED_MESSAGE };

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
  /** Extra wait before a token comes back, absorbing clock and network jitter between client and service. */
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

/** Given to a job: lets it return its token at once when nothing reached the service. */
export interface LimiterTicket {
  notSent(): void;
}

/** What the service reported about the rate limit in one answer. */
export interface RateLimitReport {
  total: number | null;
  remaining: number | null;
}

/** How a job waits for its turn. */
export interface ScheduleOptions {
  /** Who waits (an opaque key): people's jobs take turns person by person; without one, ANONYMOUS_PERSON's turn. */
  person?: string;
  /** Takes the job out of the queue while it waits (the schedule rejects with the reason); no effect once started. */
  signal?: AbortSignal;
  /** Told the job's place while it waits: see CallOptions.onQueue. */
  onQueue?: (place: QueuePlace) => void;
  /** Told once when a wait `onQueue` was told of is over: the job started, was taken out or dropped. */
  onQueueOver?: () => void;
}

/** The limiter of one API key. */
export interface KeyRateLimiter {
  /**
   * Runs a job when the window, the concurrency bound and any hold allow: people's jobs first, taking turns per
   * person, then background jobs in the order they came.
   */
  schedule<T>(
    priority: Priority,
    job: (ticket: LimiterTicket) => Promise<T>,
    options?: ScheduleOptions,
  ): Promise<T>;
  /** Follows the service's allowance, and holds new starts when it reports none left. */
  observe(report: RateLimitReport): void;
  /** Holds every new start for `ms` milliseconds (a 429's Retry-After). */
  hold(ms: number): void;
  /** Milliseconds left on the current hold; 0 when none. */
  heldFor(): number;
  /** Calls `listener` whenever a hold starts or grows; returns the function that stops it. */
  onHold(listener: () => void): () => void;
  /** The current allowance per window. */
  readonly allowance: number;
  /** Jobs waiting to start (taken-out ones not counted). */
  queued(): number;
}

/** What the limiters report: their queue length and how long each job waited, per priority. */
export interface LimiterMetrics {
  /** A job joined (+1) or left (-1) a queue. */
  queued(priority: Priority, delta: number): void;
  /** A job started `seconds` after it was scheduled. */
  waited(priority: Priority, seconds: number): void;
}

/** Limiters shared by every client of the process, one per API key. */
export interface RateLimiterRegistry {
  /** The key's limiter, created with `settings` on first use (later settings are ignored). */
  forKey(apiKey: string, settings?: Partial<RateLimitSettings>): KeyRateLimiter;
  /** Drops waiting jobs, disconnects every limiter and clears every timer. */
  stop(): Promise<void>;
}

/**
 * Creates a registry of per-key limiters; `defaults` apply to limiters created without settings, and every limiter
 * reports to `metrics` when given.
 */
export function createRateLimiterRegistry(
  defaults: Partial<RateLimitSettings> = {},
  metrics?: LimiterMetrics,
  shared?: SharedWindows,
): RateLimiterRegistry {
  const limiters = new Map<string, { limiter: KeyRateLimiter; stop(): Promise<void> }>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  return {
    forKey(apiKey, settings = {}) {
      if (stopped) throw new InternalError(LIMITER_STOPPED_MESSAGE);
      const existing = limiters.get(apiKey);
      if (existing) return existing.limiter;
      const merged = { ...DEFAULT_RATE_LIMIT, ...defaults, ...settings };
      validate(merged);
      const created = createKeyLimiter(
        merged,
        timers,
        metrics,
        shared === undefined ? null : { windows: shared, apiKey },
      );
      limiters.set(apiKey, created);
      return created.limiter;
    },
    async stop() {
      stopped = true;
      await Promise.all([...limiters.values()].map((entry) => entry.stop()));
      limiters.clear();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await shared?.stop();
    },
  };
}

function validate(settings: RateLimitSettings): void {
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
