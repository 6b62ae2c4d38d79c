/**
 * One rate limiter per API key, built on bottleneck. Bottleneck queues jobs by priority and bounds concurrency;
 * its reservoir is used as a sliding window: every start takes a token and that token comes back one window
 * after the request settled, so no window of `windowMs` ever holds more starts than the allowance (a fixed-interval
 * reservoir refresh would let two bursts straddle a refresh).
 */

import Bottleneck from 'bottleneck';
import type { SharedWindows } from './shared-window.js';
import type { Priority } from './types.js';

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
}

/** Defaults: the contract's 60 requests per minute, as many in flight as the allowance lets start. */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  perWindow: 60,
  windowMs: 60_000,
  marginMs: 25,
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

/** The limiter of one API key. */
export interface KeyRateLimiter {
  /** Runs a job when the window, the concurrency bound and any hold allow; user jobs go first. */
  schedule<T>(priority: Priority, job: (ticket: LimiterTicket) => Promise<T>): Promise<T>;
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
  /** Jobs waiting to start. */
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

/** Bottleneck priorities: lower runs first. */
const PRIORITIES: Readonly<Record<Priority, number>> = { user: 2, background: 7 };

/** Reservoir debt applied during a hold; returned in full when the hold ends. */
const HOLD_DEBT = 1_000_000_000;

/** Message of jobs dropped by stop(). */
export const LIMITER_STOPPED_MESSAGE = 'The service client was stopped.';

/** A key's window shared with other replicas (see shared-window.ts). */
interface Shared {
  readonly windows: SharedWindows;
  readonly apiKey: string;
}

function createKeyLimiter(
  settings: RateLimitSettings,
  timers: Set<NodeJS.Timeout>,
  metrics: LimiterMetrics | undefined,
  shared: Shared | null,
): {
  limiter: KeyRateLimiter;
  stop(): Promise<void>;
} {
  const { windowMs, marginMs } = settings;
  // Alone, Bottleneck's reservoir is the window; shared, the window is in Redis and Bottleneck only orders the jobs.
  const bottleneck = new Bottleneck({
    maxConcurrent: settings.maxConcurrent ?? settings.perWindow,
    ...(shared === null ? { reservoir: settings.perWindow } : {}),
  });
  const stopping = new AbortController();
  // Reservoir updates only fail if the limiter is gone; nothing to do then.
  const adjust = (delta: number) => void bottleneck.incrementReservoir(delta).catch(() => undefined);
  let allowance = settings.perWindow;
  let holdUntil = 0;
  let holdTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  const later = (ms: number, fn: () => void): NodeJS.Timeout | null => {
    if (stopped) return null;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        fn();
      },
      Math.max(0, ms),
    );
    timer.unref();
    timers.add(timer);
    return timer;
  };
  const cancel = (timer: NodeJS.Timeout | null) => {
    if (timer === null) return;
    clearTimeout(timer);
    timers.delete(timer);
  };

  const endHold = () => {
    const left = holdUntil - Date.now();
    if (left > 0) {
      holdTimer = later(left, endHold);
      return;
    }
    holdTimer = null;
    if (shared === null) adjust(HOLD_DEBT);
  };

  const holdListeners = new Set<() => void>();
  /** Holds this replica's starts (or, shared, says it waits for another replica's hold). */
  const holdHere = (ms: number) => {
    if (stopped || !(ms > 0)) return;
    const grows = Date.now() + ms > holdUntil;
    holdUntil = Math.max(holdUntil, Date.now() + ms);
    if (holdTimer === null) {
      if (shared === null) adjust(-HOLD_DEBT);
      holdTimer = later(ms, endHold);
    }
    if (grows) for (const listener of [...holdListeners]) listener();
  };
  const hold = (ms: number) => {
    holdHere(ms);
    if (shared !== null && !stopped && ms > 0)
      void shared.windows.hold(shared.apiKey, ms).catch(() => undefined);
  };

  // Defined apart from `schedule`: a token waits up to a window to come back, and its timer must hold nothing of
  // the job (its request, URL and body), or every request of the last window stays in memory that long.
  const giveBackAt = (at: number) => later(at - Date.now(), () => adjust(1));

  /** People of this replica waiting for the key: while there are any, no replica starts background work. */
  let peopleWaiting = 0;
  const countPeople = (priority: Priority, delta: number) => {
    if (priority !== 'user' || shared === null) return;
    peopleWaiting += delta;
    if (peopleWaiting === 0 || (peopleWaiting === 1 && delta > 0))
      shared.windows.peopleWaiting(shared.apiKey, peopleWaiting > 0);
  };

  /** Runs a job in a slot of the window shared with other replicas. */
  const inSharedSlot = async <T>(
    from: Shared,
    priority: Priority,
    job: (ticket: LimiterTicket) => Promise<T>,
    started: () => void,
  ): Promise<T> => {
    const slot = await from.windows.acquire(from.apiKey, {
      allowance,
      windowMs,
      marginMs,
      priority,
      signal: stopping.signal,
      onHeld: holdHere,
    });
    started();
    let released = false;
    try {
      return await job({
        notSent: () => {
          if (released) return;
          released = true;
          void slot.release().catch(() => undefined);
        },
      });
    } finally {
      // A slot not given back expires by itself (two windows): nothing is lost if Redis is briefly unreachable.
      if (!released) void slot.settle().catch(() => undefined);
    }
  };

  const schedule = <T>(priority: Priority, job: (ticket: LimiterTicket) => Promise<T>): Promise<T> => {
    const scheduledAt = performance.now();
    let waiting = true;
    metrics?.queued(priority, 1);
    countPeople(priority, 1);
    /** Leaves the queue once: when the job starts, or when it is dropped unstarted (a stop). */
    const leave = () => {
      if (!waiting) return;
      waiting = false;
      metrics?.queued(priority, -1);
      countPeople(priority, -1);
    };
    const scheduled = bottleneck.schedule({ priority: PRIORITIES[priority] }, async () => {
      if (shared !== null) {
        return inSharedSlot(shared, priority, job, () => {
          leave();
          metrics?.waited(priority, (performance.now() - scheduledAt) / 1000);
        });
      }
      leave();
      metrics?.waited(priority, (performance.now() - scheduledAt) / 1000);
      const startedAt = Date.now();
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        cancel(cap);
        adjust(1);
      };
      // A request that runs longer than a window reached the service long ago: bound how long it keeps its token.
      const cap = later(2 * windowMs + marginMs, release);
      try {
        return await job({ notSent: release });
      } finally {
        if (!released) {
          released = true;
          cancel(cap);
          giveBackAt(Math.min(Date.now() + windowMs, startedAt + 2 * windowMs) + marginMs);
        }
      }
    });
    // A branch of its own: the caller still gets the rejection of a dropped job.
    scheduled.then(leave, leave);
    return scheduled;
  };

  const observe = (report: RateLimitReport) => {
    if (stopped) return;
    if (
      report.total !== null &&
      Number.isInteger(report.total) &&
      report.total > 0 &&
      report.total !== allowance
    ) {
      if (shared === null) adjust(report.total - allowance);
      allowance = report.total;
      // Typed as returning the limiter, updateSettings returns a promise (rejected only once the limiter is gone).
      if (settings.maxConcurrent === undefined)
        void Promise.resolve(bottleneck.updateSettings({ maxConcurrent: allowance })).catch(() => undefined);
    }
    if (report.remaining !== null && report.remaining <= 0) hold(windowMs);
  };

  const limiter: KeyRateLimiter = {
    schedule,
    observe,
    hold,
    heldFor: () => (holdTimer === null ? 0 : Math.max(0, holdUntil - Date.now())),
    onHold(listener) {
      holdListeners.add(listener);
      return () => holdListeners.delete(listener);
    },
    get allowance() {
      return allowance;
    },
    queued: () => bottleneck.queued(),
  };
  const stop = async () => {
    stopped = true;
    stopping.abort(new Bottleneck.BottleneckError(LIMITER_STOPPED_MESSAGE));
    cancel(holdTimer);
    holdTimer = null;
    // Not awaited: it would wait for requests in flight, which end by their own time limits.
    void bottleneck
      .stop({
        dropWaitingJobs: true,
        dropErrorMessage: LIMITER_STOPPED_MESSAGE,
        enqueueErrorMessage: LIMITER_STOPPED_MESSAGE,
      })
      .catch(() => undefined);
    await bottleneck.disconnect();
  };
  return { limiter, stop };
}

/** True for the rejection of a job that a stopped limiter dropped or refused. */
export function isLimiterStopped(error: unknown): boolean {
  return error instanceof Bottleneck.BottleneckError && error.message === LIMITER_STOPPED_MESSAGE;
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
      if (stopped) throw new Error(LIMITER_STOPPED_MESSAGE);
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
}
