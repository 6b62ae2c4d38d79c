/**
 * One rate limiter per API key, in a registry shared by every client of the process. A key's limiter starts a job
 * when its rate window (rate-window.ts: in memory, or in Redis for every replica) gives a slot, Bottleneck's bound on
 * requests in flight (maxConcurrent) lets it run and no hold is on (a 429's Retry-After, or none left); the job that
 * starts is the one whose turn it is in the key's person queue (person-queue.ts: people round robin, background
 * behind them).
 *
 * Each waiting job puts one slot in Bottleneck at its priority; a slot that runs waits for the window, then takes the
 * job whose turn it is at that moment, since Bottleneck keeps no per-person turns and cannot wait on a window kept
 * outside it. A slot that finds no job left (one was taken out of the queue) gives its window slot back at once.
 */
import Bottleneck from 'bottleneck';
import { CancelledError, InternalError } from '../errors.js';
import {
  createPersonQueue,
  type LimiterMetrics,
  type LimiterTicket,
  type PersonQueue,
  type QueuedJob,
  type ScheduleOptions,
} from './person-queue.js';
import type { WindowState } from './queue-notices.js';
import { DEFAULT_RATE_LIMIT, type RateLimitSettings, validate } from './rate-settings.js';
import { memoryWindows, type RateWindow, type RateWindows, type WindowSlot } from './rate-window.js';
import { sleep } from './retry.js';
import type { Priority } from './types.js';

export type { LimiterMetrics, LimiterTicket, ScheduleOptions } from './person-queue.js';
export { DEFAULT_RATE_LIMIT, type RateLimitSettings } from './rate-settings.js';

/** Message of jobs dropped by stop(). */
export const LIMITER_STOPPED_MESSAGE = 'The service client was stopped.';

/** True for the rejection of a job that a stopped limiter dropped or refused. */
export function isLimiterStopped(error: unknown): boolean {
  return error instanceof Bottleneck.BottleneckError && error.message === LIMITER_STOPPED_MESSAGE;
}

/** Bottleneck priorities: lower runs first. */
const PRIORITIES: Readonly<Record<Priority, number>> = { user: 2, background: 7 };
/** What a request is assumed to take until one was timed. */
const FIRST_REQUEST_MS = 1_000;
/** Weight of the latest request in the running average of how long requests take. */
const REQUEST_MS_WEIGHT = 0.2;

/** What the service reported about the rate limit in one answer. */
export interface RateLimitReport {
  total: number | null;
  remaining: number | null;
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

/** Limiters shared by every client of the process, one per API key. */
export interface RateLimiterRegistry {
  /** The key's limiter, created with `settings` on first use (later settings are ignored). */
  forKey(apiKey: string, settings?: Partial<RateLimitSettings>): KeyRateLimiter;
  /** Drops waiting jobs, disconnects every limiter and clears every timer. */
  stop(): Promise<void>;
}

/** A key's hold: nothing of this process starts until it ends. */
function createHold(stopped: () => boolean) {
  let holdUntil = 0;
  const listeners = new Set<() => void>();
  return {
    heldFor: () => Math.max(0, holdUntil - Date.now()),
    /** Holds this process's starts (a hold of its own, or one another replica's window reported). */
    holdHere(ms: number) {
      if (stopped() || !(ms > 0) || Date.now() + ms <= holdUntil) return;
      holdUntil = Date.now() + ms;
      for (const listener of [...listeners]) listener();
    },
    onHold(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Requests of this process in flight, and how long requests take (a running average). */
function createFlights() {
  const flights = new Set<{ startedAt: number }>();
  let requestMs = FIRST_REQUEST_MS;
  let timedOnce = false;
  return {
    requestMs: () => requestMs,
    start() {
      const flight = { startedAt: Date.now() };
      flights.add(flight);
      return flight;
    },
    /** The request ended; `timed` when it reached the service, so that its time counts. */
    end(flight: { startedAt: number }, timed: boolean) {
      flights.delete(flight);
      if (!timed) return;
      const took = Date.now() - flight.startedAt;
      requestMs = timedOnce ? requestMs + REQUEST_MS_WEIGHT * (took - requestMs) : took;
      timedOnce = true;
    },
    /** When each request in flight is expected to end, in milliseconds from now. */
    busy: () => [...flights].map((flight) => Math.max(0, flight.startedAt + requestMs - Date.now())),
  };
}

/** What a key's slots work with. */
interface SlotParts {
  bottleneck: Bottleneck;
  queue: PersonQueue;
  window: RateWindow;
  held: ReturnType<typeof createHold>;
  flights: ReturnType<typeof createFlights>;
  /** Aborts when the limiter stops. */
  stopping: AbortSignal;
}

/**
 * The slots of a key in Bottleneck: one per waiting job, at its priority. A slot Bottleneck lets run waits for the
 * window, takes the job whose turn it is, runs it, then settles its window slot.
 */
function createSlots(parts: SlotParts): { changed(): void } {
  const { bottleneck, queue, window, flights, stopping } = parts;
  const { heldFor, holdHere } = parts.held;
  /** Slots in Bottleneck, per priority, that have not yet taken a job or found none. */
  const slots: Record<Priority, number> = { user: 0, background: 0 };
  /** Slots waiting for the window; one is called off when fewer jobs wait. */
  const acquirers = new Set<AbortController>();
  /** Puts a slot in Bottleneck for every job without one. */
  const refill = () => {
    if (stopping.aborted) return;
    for (const priority of ['user', 'background'] as const) {
      while (slots[priority] < queue.count(priority)) {
        slots[priority]++;
        // Rejected only when a stop drops it; stop() drops the jobs themselves.
        bottleneck
          .schedule({ priority: PRIORITIES[priority] }, () => runSlot(priority))
          .catch(() => undefined);
      }
    }
  };
  /** Fewer jobs wait than slots wait for the window (one was taken out): calls one slot off. */
  const trim = () => {
    if (acquirers.size <= queue.count()) return;
    const [spare] = acquirers;
    acquirers.delete(spare as AbortController);
    spare?.abort(new CancelledError('no job left for this slot'));
  };

  /** The job a slot of `priority` runs: one of its priority when any waits (a surplus slot serves the other). */
  const takeFor = (priority: Priority) =>
    queue.take(priority) ?? queue.take(priority === 'user' ? 'background' : 'user');
  /** Waits for a slot of the window, then takes the job whose turn it is; asks as a person's while people wait. */
  const acquireTurn = async (priority: Priority): Promise<{ job: QueuedJob; slot: WindowSlot } | null> => {
    try {
      for (;;) {
        // Every waiting job has a slot on its way already.
        if (stopping.aborted || acquirers.size >= queue.count()) return null;
        const acquirer = new AbortController();
        const signal = AbortSignal.any([stopping, acquirer.signal]);
        acquirers.add(acquirer);
        // What a shared window was asked for; a window of this process alone asks nothing.
        let as: Priority | null = null;
        let slot: WindowSlot;
        try {
          if (heldFor() > 0) await sleep(heldFor(), signal);
          slot = await window.acquire({
            priority: () => {
              as = queue.count('user') > 0 ? 'user' : 'background';
              return as;
            },
            signal,
            onHeld: holdHere,
          });
        } catch (error) {
          // Called off, or stopping (stop() drops the waiting jobs).
          if (acquirer.signal.aborted || stopping.aborted) return null;
          // The window cannot be reached (Redis): the job whose turn it was fails unsent; the next ones try again.
          const failed = takeFor(priority);
          if (failed !== null) queue.drop(failed, error);
          return null;
        } finally {
          acquirers.delete(acquirer);
        }
        // A hold that began while this slot waited: the slot goes back and waits it out.
        const job =
          heldFor() > 0
            ? null
            : as === 'user'
              ? queue.take('user')
              : as === null
                ? takeFor(priority)
                : takeFor('user');
        if (job !== null) return { job, slot };
        void slot.release().catch(() => undefined);
      }
    } finally {
      slots[priority]--;
      refill();
    }
  };

  /** A slot Bottleneck let run: it waits for the window, runs the job, then settles its window slot. */
  const runSlot = async (priority: Priority): Promise<void> => {
    const turn = await acquireTurn(priority);
    if (turn === null) return;
    const { job, slot } = turn;
    queue.start(job);
    const flight = flights.start();
    let released = false;
    try {
      await job.run({
        notSent: () => {
          if (released) return;
          released = true;
          void slot.release().catch(() => undefined);
        },
      });
    } finally {
      flights.end(flight, !released);
      // A slot not given back expires by itself (two windows): nothing is lost if Redis is briefly unreachable.
      if (!released) {
        void slot.settle().catch(() => undefined);
      }
    }
  };

  return {
    changed() {
      refill();
      trim();
    },
  };
}

/** Creates the limiter of one key over its window. */
function createKeyLimiter(
  settings: RateLimitSettings,
  metrics: LimiterMetrics | undefined,
  window: RateWindow,
): { limiter: KeyRateLimiter; stop(): Promise<void> } {
  const { windowMs, marginMs } = settings;
  const bottleneck = new Bottleneck({ maxConcurrent: settings.maxConcurrent ?? settings.perWindow });
  const stopping = new AbortController();
  let allowance = settings.perWindow;
  let stopped = false;
  const held = createHold(() => stopped);
  const { heldFor, holdHere } = held;
  const flights = createFlights();
  const windowState = async (): Promise<WindowState> => {
    const seen = await window.peek(flights.requestMs());
    return {
      allowance,
      windowMs,
      marginMs,
      maxConcurrent: settings.maxConcurrent ?? allowance,
      holdMs: Math.max(heldFor(), seen.heldMs),
      tokens: seen.slots,
      busy: flights.busy(),
      requestMs: flights.requestMs(),
    };
  };

  /** People of this process waiting for the key: while there are any, no replica starts background work. */
  let peopleWaiting = 0;
  const queue = createPersonQueue({
    metrics,
    people(delta) {
      peopleWaiting += delta;
      if (peopleWaiting === 0 || (peopleWaiting === 1 && delta > 0)) window.peopleWaiting(peopleWaiting > 0);
    },
    reportMs: settings.queueReportMs,
    window: windowState,
    changed: () => slots.changed(),
  });

  const slots = createSlots({ bottleneck, queue, window, held, flights, stopping: stopping.signal });

  const hold = (ms: number) => {
    holdHere(ms);
    if (!stopped && ms > 0) void window.hold(ms).catch(() => undefined);
  };
  const limiter: KeyRateLimiter = {
    schedule: (priority, job, options = {}) =>
      stopped
        ? Promise.reject(new Bottleneck.BottleneckError(LIMITER_STOPPED_MESSAGE))
        : queue.add(priority, job, options),
    observe(report) {
      if (stopped) return;
      const total = report.total;
      if (total !== null && Number.isInteger(total) && total > 0 && total !== allowance) {
        allowance = total;
        window.resize(total);
        // Typed as returning the limiter, updateSettings returns a promise (rejected only once the limiter is gone).
        if (settings.maxConcurrent === undefined)
          void Promise.resolve(bottleneck.updateSettings({ maxConcurrent: total })).catch(() => undefined);
      }
      if (report.remaining !== null && report.remaining <= 0) hold(windowMs);
    },
    hold,
    heldFor,
    onHold: held.onHold,
    get allowance() {
      return allowance;
    },
    queued: () => queue.count(),
  };
  const stop = async () => {
    stopped = true;
    const reason = new Bottleneck.BottleneckError(LIMITER_STOPPED_MESSAGE);
    stopping.abort(reason);
    queue.stop(reason);
    window.stop();
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

/**
 * Creates a registry of per-key limiters; `defaults` apply to limiters created without settings, every limiter
 * reports to `metrics` when given, and keeps its window in `windows` (in memory by default).
 */
export function createRateLimiterRegistry(
  defaults: Partial<RateLimitSettings> = {},
  metrics?: LimiterMetrics,
  windows: RateWindows = memoryWindows(),
): RateLimiterRegistry {
  const limiters = new Map<string, { limiter: KeyRateLimiter; stop(): Promise<void> }>();
  let stopped = false;
  return {
    forKey(apiKey, settings = {}) {
      if (stopped) throw new InternalError(LIMITER_STOPPED_MESSAGE);
      const existing = limiters.get(apiKey);
      if (existing) return existing.limiter;
      const merged = { ...DEFAULT_RATE_LIMIT, ...defaults, ...settings };
      validate(merged);
      const { perWindow: allowance, windowMs, marginMs } = merged;
      const created = createKeyLimiter(
        merged,
        metrics,
        windows.forKey(apiKey, { allowance, windowMs, marginMs }),
      );
      limiters.set(apiKey, created);
      return created.limiter;
    },
    async stop() {
      stopped = true;
      await Promise.all([...limiters.values()].map((entry) => entry.stop()));
      limiters.clear();
      await windows.stop();
    },
  };
}
