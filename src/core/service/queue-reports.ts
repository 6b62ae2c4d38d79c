/**
 * Tells the calls waiting for a key's turn where they stand (QueuePlace): first when a call is still waiting
 * QUEUE_NOTICE_DELAY_MS after it was queued (it could not start at once), then whenever its place or estimate
 * changed, at most once every report interval, and once more when the wait is over. One timer per key serves every
 * waiting call; places come from the queue's turn order and the start estimate of the window (queue-estimate.ts).
 */
import { estimateStarts, placeOf, type WindowState } from './queue-estimate.js';
import type { QueuePlace } from './types.js';

/** A waiting call is told its place at most this often. */
export const QUEUE_REPORT_MS = 3_000;

/** A call still waiting this long after it was queued could not start at once: it is told its place. */
export const QUEUE_NOTICE_DELAY_MS = 250;

/** Who is told a waiting call's place. */
export interface QueueListener {
  onQueue(place: QueuePlace): void;
  onQueueOver?(): void;
}

/** Reports the places of one key's waiting calls. */
export interface QueueReporter<E> {
  /** Tells `listener` where `entry` stands while it waits. */
  watch(entry: E, listener: QueueListener): void;
  /** `entry` left the queue (it started, was taken out or dropped): a wait it was told of is over. */
  over(entry: E): void;
  /** Clears the timer; nobody is told anything any more. */
  stop(): void;
}

/** What a reporter reads and how it keeps time. */
export interface QueueReporterOptions<E> {
  /** Shortest time between two reports to one call. */
  intervalMs: number;
  /** How many calls start before each waiting call. */
  places(): Map<E, number>;
  /** The key's window now (shared by replicas: read from Redis). */
  window(): WindowState | Promise<WindowState>;
  /** Runs `fn` after `ms` on a timer the limiter owns; null once it stopped. */
  later(ms: number, fn: () => void): NodeJS.Timeout | null;
  cancel(timer: NodeJS.Timeout | null): void;
}

interface Watch {
  readonly listener: QueueListener;
  dueAt: number;
  last: QueuePlace | null;
}

/** A timer's callback may run a millisecond early by the wall clock. */
const EARLY_MS = 2;

/** Callbacks are the caller's: a failing one must not stop the limiter or the other calls' reports. */
function tell(fn: () => void): void {
  try {
    fn();
  } catch {
    // Nothing to do: the call itself goes on.
  }
}

/** Creates the reporter of one key. */
export function createQueueReporter<E>(options: QueueReporterOptions<E>): QueueReporter<E> {
  const { intervalMs } = options;
  const watched = new Map<E, Watch>();
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let reporting = false;
  let stopped = false;

  const plan = () => {
    if (stopped || reporting) return;
    let next = Number.POSITIVE_INFINITY;
    for (const watch of watched.values()) next = Math.min(next, watch.dueAt);
    if (timer !== null && timerAt <= next && next !== Number.POSITIVE_INFINITY) return;
    options.cancel(timer);
    timer = null;
    timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    timer = options.later(next - Date.now(), () => {
      timer = null;
      timerAt = Number.POSITIVE_INFINITY;
      void report();
    });
  };

  const report = async () => {
    reporting = true;
    const due = [...watched].filter(([, watch]) => watch.dueAt <= Date.now() + EARLY_MS);
    try {
      if (due.length === 0) return;
      const state = await options.window();
      const now = Date.now();
      const places = options.places();
      let most = 0;
      for (const [entry] of due) most = Math.max(most, places.get(entry) ?? 0);
      const starts = estimateStarts(state, most + 1);
      for (const [entry, watch] of due) {
        const ahead = places.get(entry);
        // Left the queue while the window was read.
        if (ahead === undefined || watched.get(entry) !== watch) continue;
        watch.dueAt = now + intervalMs;
        const place = placeOf(ahead, starts);
        if (watch.last?.ahead === place.ahead && watch.last.etaSeconds === place.etaSeconds) continue;
        watch.last = place;
        tell(() => watch.listener.onQueue(place));
      }
    } catch {
      // The window could not be read (Redis): the next report tries again.
      for (const [, watch] of due) watch.dueAt = Date.now() + intervalMs;
    } finally {
      reporting = false;
      plan();
    }
  };

  return {
    watch(entry, listener) {
      if (stopped) return;
      watched.set(entry, { listener, dueAt: Date.now() + QUEUE_NOTICE_DELAY_MS, last: null });
      plan();
    },
    over(entry) {
      const watch = watched.get(entry);
      if (watch === undefined) return;
      watched.delete(entry);
      if (watch.last !== null) tell(() => watch.listener.onQueueOver?.());
      if (watched.size === 0) plan();
    },
    stop() {
      stopped = true;
      watched.clear();
      options.cancel(timer);
      timer = null;
    },
  };
}
