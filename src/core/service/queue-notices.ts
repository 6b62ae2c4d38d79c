/**
 * What a job waiting for a key's turn is told (QueuePlace): first when it is still waiting QUEUE_NOTICE_DELAY_MS
 * after it was queued (it could not start at once), then whenever its place or estimate changed, at most once every
 * report interval, and once more when the wait is over. One timer per key serves every waiting job.
 *
 * Estimates replay the rules of the key's rate window (rate-window.ts): every start takes a slot of the allowance,
 * which comes back one window (plus the margin) after its request ended, at most two windows after it started; no
 * more requests than `maxConcurrent` run at once; nothing starts during a hold (a 429's Retry-After, or the service
 * reporting none left).
 */
import type { QueuePlace } from './types.js';

/** A key's window at one moment; every time is in milliseconds from that moment. */
export interface WindowState {
  /** Starts allowed in any window. */
  allowance: number;
  windowMs: number;
  /** Extra wait before a token comes back. */
  marginMs: number;
  /** Requests of this process allowed in flight at once. */
  maxConcurrent: number;
  /** Left on the hold; 0 when none. */
  holdMs: number;
  /** When each token still out comes back (a request in flight: at its expected end, plus a window). */
  tokens: readonly number[];
  /** When each request of this process still in flight is expected to end. */
  busy: readonly number[];
  /** How long a request typically runs. */
  requestMs: number;
}

/** Most starts replayed at once: a longer queue is told the estimate of this place (its real wait is longer). */
const MAX_REPLAYED = 10_000;

/** Inserts `value` into the ascending `sorted`. */
function insert(sorted: number[], value: number): void {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) <= value) low = middle + 1;
    else high = middle;
  }
  sorted.splice(low, 0, value);
}

/** When each of `size` places comes free, given when the ones taken come free (those over `size` are debt). */
function freeAt(taken: readonly number[], size: number): number[] {
  const sorted = taken.map((at) => Math.max(0, at)).sort((a, b) => a - b);
  if (sorted.length >= size) return sorted.slice(sorted.length - size);
  return [...Array.from({ length: size - sorted.length }, () => 0), ...sorted];
}

/** When the next `count` calls will start, in milliseconds from now, if no call ahead of them leaves or joins. */
export function estimateStarts(state: WindowState, count: number): number[] {
  const allowance = Math.max(1, Math.floor(state.allowance));
  const tokens = freeAt(state.tokens, allowance);
  const slots = freeAt(state.busy, Math.max(1, Math.floor(state.maxConcurrent)));
  const requestMs = Math.max(0, state.requestMs);
  const starts: number[] = [];
  for (let i = 0; i < Math.min(count, MAX_REPLAYED); i++) {
    const at = Math.max(tokens.shift() as number, slots.shift() as number, state.holdMs, 0);
    starts.push(at);
    insert(tokens, Math.min(at + requestMs + state.windowMs, at + 2 * state.windowMs) + state.marginMs);
    insert(slots, at + requestMs);
  }
  return starts;
}

/** The place of a call with `ahead` calls starting before it, given the starts estimated for the queue. */
export function placeOf(ahead: number, starts: readonly number[]): QueuePlace {
  const at = starts[Math.min(ahead, starts.length - 1)] ?? 0;
  return { ahead, etaSeconds: Math.ceil(at / 1000) };
}

/** Where a call with `ahead` calls before it stands in the window described by `state`. */
export function estimatePlace(state: WindowState, ahead: number): QueuePlace {
  return placeOf(ahead, estimateStarts(state, ahead + 1));
}

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
    if (timer !== null) clearTimeout(timer);
    timer = null;
    timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(
      () => {
        timer = null;
        timerAt = Number.POSITIVE_INFINITY;
        void report();
      },
      Math.max(0, next - Date.now()),
    );
    timer.unref();
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
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
