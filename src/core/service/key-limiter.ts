/**
 * The limiter of one API key (rate-limiter.ts has the registry and the types), built on bottleneck. Bottleneck bounds
 * concurrency and orders by priority; its reservoir is used as a sliding window: every start takes a token and that
 * token comes back one window after the request settled, so no window of `windowMs` ever holds more starts than the
 * allowance (a fixed-interval reservoir refresh would let two bursts straddle a refresh).
 *
 * Bottleneck orders slots, not jobs: each waiting job puts one slot in Bottleneck at its priority, and a slot that
 * starts runs the job whose turn it is (turns.ts, fair-queue.ts: people's jobs round robin per person, background
 * behind them). The window, the concurrency bound and the holds stay Bottleneck's; the order among people is ours.
 * A slot that finds no job left (one was taken out of the queue) gives its token back at once.
 */

import Bottleneck from 'bottleneck';
import { CancelledError } from '../errors.js';
import type { WindowState } from './queue-estimate.js';
import type {
  KeyRateLimiter,
  LimiterMetrics,
  LimiterTicket,
  RateLimitReport,
  RateLimitSettings,
  ScheduleOptions,
} from './rate-limiter.js';
import { sleep } from './retry.js';
import type { SharedSlot, SharedWindows } from './shared-window.js';
import { createTurns, type Turn } from './turns.js';
import type { Priority } from './types.js';

/** Bottleneck priorities: lower runs first. */
const PRIORITIES: Readonly<Record<Priority, number>> = { user: 2, background: 7 };

/** Reservoir debt applied during a hold; returned in full when the hold ends. */
const HOLD_DEBT = 1_000_000_000;

/** Message of jobs dropped by stop(). */
export const LIMITER_STOPPED_MESSAGE = 'The service client was stopped.';

/** A key's window shared with other replicas (see shared-window.ts). */
export interface Shared {
  readonly windows: SharedWindows;
  readonly apiKey: string;
}

/** A request in flight, or a token not yet back (`backAt`: when it comes back, once its request settled). */
interface Token {
  readonly startedAt: number;
  backAt: number | null;
}

/** What a request is assumed to take until one was timed. */
const FIRST_REQUEST_MS = 1_000;
/** Weight of the latest request in the running average of how long requests take. */
const REQUEST_MS_WEIGHT = 0.2;

/** Creates the limiter of one key; `timers` collects its timers, so that the registry can clear them all. */
export function createKeyLimiter(
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

  const concurrency = () => settings.maxConcurrent ?? allowance;
  /** Tokens out of the window (alone) and requests of this replica in flight (both). */
  const tokens = new Set<Token>();
  const flights = new Set<Token>();
  let requestMs = FIRST_REQUEST_MS;
  let timedOnce = false;
  const timed = (flight: Token) => {
    const took = Date.now() - flight.startedAt;
    requestMs = timedOnce ? requestMs + REQUEST_MS_WEIGHT * (took - requestMs) : took;
    timedOnce = true;
  };

  // Defined apart from the slots: a token waits up to a window to come back, and its timer must hold nothing of the
  // job (its request, URL and body), or every request of the last window stays in memory that long.
  const giveBack = (token: Token) =>
    later((token.backAt ?? Date.now()) - Date.now(), () => {
      tokens.delete(token);
      adjust(1);
    });

  /** People of this replica waiting for the key: while there are any, no replica starts background work. */
  let peopleWaiting = 0;
  const countPeople = (delta: number) => {
    if (shared === null) return;
    peopleWaiting += delta;
    if (peopleWaiting === 0 || (peopleWaiting === 1 && delta > 0))
      shared.windows.peopleWaiting(shared.apiKey, peopleWaiting > 0);
  };

  /** Slot jobs in Bottleneck, per priority, that have not yet taken a job or found none. */
  const slots: Record<Priority, number> = { user: 0, background: 0 };
  /** Slots waiting for the shared window; one is called off when fewer jobs wait. */
  const acquirers = new Set<AbortController>();

  const windowState = async (): Promise<WindowState> => {
    const now = Date.now();
    const state = {
      allowance,
      windowMs,
      marginMs,
      maxConcurrent: concurrency(),
      holdMs: limiter.heldFor(),
      busy: [...flights].map((flight) => Math.max(0, flight.startedAt + requestMs - now)),
      requestMs,
    };
    // A request in flight gives its token back a window after it ends, and at most two after it started.
    const inFlight = (startedAt: number) =>
      Math.min(Math.max(now, startedAt + requestMs) + windowMs, startedAt + 2 * windowMs) + marginMs - now;
    if (shared === null) {
      const out = [...tokens].map((t) => (t.backAt === null ? inFlight(t.startedAt) : t.backAt - now));
      return { ...state, tokens: out };
    }
    // Shared, a slot's score is when it comes back, two windows after it was taken while its request runs.
    const seen = await shared.windows.peek(shared.apiKey);
    const settled = windowMs + marginMs;
    const out = seen.slots.map((ms) => (ms > settled ? Math.min(ms, inFlight(now)) : ms));
    return { ...state, tokens: out, holdMs: Math.max(state.holdMs, seen.heldMs) };
  };
  const turns = createTurns({
    metrics,
    people: countPeople,
    reportMs: settings.queueReportMs,
    window: windowState,
    later,
    cancel,
    changed: () => {
      refill();
      trim();
    },
  });
  /** The job a slot of `priority` runs: one of its priority when any waits (a surplus slot serves the other). */
  const takeFor = (priority: Priority) =>
    turns.take(priority) ?? turns.take(priority === 'user' ? 'background' : 'user');

  /** Puts a slot in Bottleneck for every job without one. */
  const refill = () => {
    if (stopped) return;
    for (const priority of ['user', 'background'] as const) {
      while (slots[priority] < turns.count(priority)) {
        slots[priority]++;
        const slot = shared === null ? () => localSlot(priority) : () => sharedSlot(shared, priority);
        // Rejected only when a stop drops it; stop() drops the jobs themselves.
        bottleneck.schedule({ priority: PRIORITIES[priority] }, slot).catch(() => undefined);
      }
    }
  };
  /** Fewer jobs wait than slots wait for the shared window (one was taken out): calls one slot off. */
  const trim = () => {
    if (acquirers.size <= turns.count()) return;
    const [spare] = acquirers;
    acquirers.delete(spare as AbortController);
    spare?.abort(new CancelledError('no job left for this slot'));
  };

  /** A slot of the window Bottleneck keeps: it holds one of Bottleneck's tokens. */
  const localSlot = async (priority: Priority): Promise<void> => {
    slots[priority]--;
    // A hold that began after Bottleneck let this slot through: the token waits it out with the slots behind.
    const entry = limiter.heldFor() > 0 ? null : takeFor(priority);
    refill();
    if (entry === null) {
      adjust(1);
      return;
    }
    turns.start(entry);
    const token: Token = { startedAt: Date.now(), backAt: null };
    tokens.add(token);
    flights.add(token);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      cancel(cap);
      tokens.delete(token);
      adjust(1);
    };
    // A request that runs longer than a window reached the service long ago: bound how long it keeps its token.
    const cap = later(2 * windowMs + marginMs, release);
    try {
      await entry.run({ notSent: release });
    } finally {
      flights.delete(token);
      if (!released) {
        released = true;
        cancel(cap);
        timed(token);
        token.backAt = Math.min(Date.now() + windowMs, token.startedAt + 2 * windowMs) + marginMs;
        giveBack(token);
      }
    }
  };

  /**
   * Waits for a slot of the window shared with other replicas, then takes the job whose turn it is. The slot asks
   * Redis as a person's while people of this replica wait, whatever job it was put in Bottleneck for.
   */
  const acquireTurn = async (
    from: Shared,
    priority: Priority,
  ): Promise<{ entry: Turn; slot: SharedSlot } | null> => {
    try {
      for (;;) {
        // Every waiting job has a slot on its way already.
        if (stopped || acquirers.size >= turns.count()) return null;
        const acquirer = new AbortController();
        const signal = AbortSignal.any([stopping.signal, acquirer.signal]);
        acquirers.add(acquirer);
        let as: Priority = priority;
        let slot: SharedSlot;
        try {
          const held = limiter.heldFor();
          if (held > 0) await sleep(held, signal);
          slot = await from.windows.acquire(from.apiKey, {
            allowance,
            windowMs,
            marginMs,
            priority: () => {
              as = turns.count('user') > 0 ? 'user' : 'background';
              return as;
            },
            signal,
            onHeld: holdHere,
          });
        } catch (error) {
          // Called off, or stopping (stop() drops the waiting jobs).
          if (acquirer.signal.aborted || stopped) return null;
          // Redis cannot be reached: the job whose turn it was fails unsent; the next ones try again.
          const failed = takeFor(priority);
          if (failed !== null) turns.drop(failed, error);
          return null;
        } finally {
          acquirers.delete(acquirer);
        }
        const entry =
          limiter.heldFor() > 0
            ? null
            : as === 'user'
              ? turns.take('user')
              : (turns.take('user') ?? turns.take('background'));
        if (entry !== null) return { entry, slot };
        void slot.release().catch(() => undefined);
      }
    } finally {
      slots[priority]--;
      refill();
    }
  };

  /** A slot of the window shared with other replicas: Bottleneck only bounds this replica's requests in flight. */
  const sharedSlot = async (from: Shared, priority: Priority): Promise<void> => {
    const turn = await acquireTurn(from, priority);
    if (turn === null) return;
    const { entry, slot } = turn;
    turns.start(entry);
    const flight: Token = { startedAt: Date.now(), backAt: null };
    flights.add(flight);
    let released = false;
    try {
      await entry.run({
        notSent: () => {
          if (released) return;
          released = true;
          void slot.release().catch(() => undefined);
        },
      });
    } finally {
      flights.delete(flight);
      // A slot not given back expires by itself (two windows): nothing is lost if Redis is briefly unreachable.
      if (!released) {
        timed(flight);
        void slot.settle().catch(() => undefined);
      }
    }
  };

  const schedule = <T>(
    priority: Priority,
    job: (ticket: LimiterTicket) => Promise<T>,
    options: ScheduleOptions = {},
  ): Promise<T> =>
    stopped
      ? Promise.reject(new Bottleneck.BottleneckError(LIMITER_STOPPED_MESSAGE))
      : turns.add(priority, job, options);

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
    queued: () => turns.count(),
  };
  const stop = async () => {
    stopped = true;
    const reason = new Bottleneck.BottleneckError(LIMITER_STOPPED_MESSAGE);
    stopping.abort(reason);
    turns.stop(reason);
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
