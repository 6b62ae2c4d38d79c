/**
 * When waiting calls will start, from the rules of a key's rate window (rate-limiter.ts): every start takes a token
 * of the allowance, which comes back one window (plus the margin) after its request ended, at most two windows after
 * it started; no more requests than `maxConcurrent` run at once; nothing starts during a hold (a 429's Retry-After,
 * or the service reporting none left). Pure: the limiter gathers the state, this replays it.
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
