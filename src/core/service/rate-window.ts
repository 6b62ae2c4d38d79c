/**
 * The service's rate window of a key: a slot is taken before a request starts and comes back one window (plus the
 * margin) after its request settled, at most two windows after it was taken, so that no window of `windowMs` ever
 * holds more starts than the allowance. Two implementations: in memory (below, one process) and in Redis
 * (redis-window.ts, one window for every replica). Bottleneck's reservoirRefresh refills on a fixed interval, which
 * lets a burst at one interval's end and another at the next one's start reach twice the allowance, so the window
 * is kept here and Bottleneck only bounds the requests in flight (rate-limiter.ts).
 */
import type { Priority } from './types.js';

/** A slot of a key's window, held by one request. */
export interface WindowSlot {
  /** The request settled: the slot comes back `windowMs` (plus the margin) from now. */
  settle(): Promise<void>;
  /** Nothing reached the service: the slot comes back at once. */
  release(): Promise<void>;
}

/** How a slot is waited for. */
export interface SlotRequest {
  /** Read before each try of a shared window: a slot for background work asks as a person's once people wait. */
  priority(): Priority;
  /** Stops waiting. */
  signal: AbortSignal;
  /** Told how long the key is held each time a wait finds it held (a 429 seen by another replica). */
  onHeld(ms: number): void;
}

/** A key's window as it stands, in milliseconds from now. */
export interface WindowGlance {
  /** Left on a hold the window knows of (another replica's); 0 when none. */
  heldMs: number;
  /** When each slot taken comes back; a request in flight at its expected end (`requestMs`) plus a window. */
  slots: number[];
}

/** The rate window of one key. */
export interface RateWindow {
  /** Waits for a slot; rejects with the signal's reason, or when the window cannot be reached. */
  acquire(request: SlotRequest): Promise<WindowSlot>;
  /** Follows the allowance the service reported. */
  resize(allowance: number): void;
  /** Holds the key for `ms` wherever the window is shared (this process holds its own starts itself). */
  hold(ms: number): Promise<void>;
  /** Reads the window, for estimates; `requestMs` is how long a request typically runs. */
  peek(requestMs: number): Promise<WindowGlance>;
  /** Says whether people here are waiting for the key, so that other replicas keep background work behind them. */
  peopleWaiting(waiting: boolean): void;
  /** Stops its timers; waiting acquires are called off by their signals. */
  stop(): void;
}

/** What a key's window is made with. */
export interface WindowSettings {
  allowance: number;
  windowMs: number;
  /** Extra wait before a slot comes back, absorbing clock and network jitter between client and service. */
  marginMs: number;
}

/** Where the windows of every key are kept. */
export interface RateWindows {
  /** The window of `apiKey`. */
  forKey(apiKey: string, settings: WindowSettings): RateWindow;
  /** Whether the store of the windows answers; null when it does, else why not. */
  problem(): Promise<string | null>;
  stop(): Promise<void>;
}

/** When a request in flight is expected to give its slot back, in milliseconds from now. */
export function inFlightBack(settings: WindowSettings, startedAgoMs: number, requestMs: number): number {
  const { windowMs, marginMs } = settings;
  const endsIn = Math.max(0, requestMs - startedAgoMs);
  return Math.min(endsIn + windowMs, 2 * windowMs - startedAgoMs) + marginMs;
}

/** A slot taken in memory: when it was taken, and when it comes back once its request settled. */
interface Token {
  readonly takenAt: number;
  backAt: number;
  settled: boolean;
}

/** The windows of a single process, kept in memory. */
export function memoryWindows(): RateWindows {
  return {
    forKey: (_apiKey, settings) => memoryWindow(settings),
    problem: async () => null,
    stop: async () => undefined,
  };
}

/** The window of one key in this process, timed by the monotonic clock to the fraction of a millisecond. */
function memoryWindow(settings: WindowSettings): RateWindow {
  const { windowMs, marginMs } = settings;
  let allowance = settings.allowance;
  const tokens = new Set<Token>();
  const waiters: Array<{ take(): void }> = [];
  let timer: NodeJS.Timeout | null = null;

  /** Gives slots to waiters, first come first served, and wakes up when the next slot comes back. */
  const pump = () => {
    const now = performance.now();
    for (const token of tokens) if (token.backAt <= now) tokens.delete(token);
    while (waiters.length > 0 && tokens.size < allowance) waiters.shift()?.take();
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiters.length === 0 || tokens.size === 0) return;
    const next = Math.min(...[...tokens].map((token) => token.backAt));
    timer = setTimeout(pump, Math.max(0, Math.ceil(next - now)));
    timer.unref();
  };
  const slotOf = (token: Token): WindowSlot => ({
    settle: async () => {
      if (token.settled) return;
      token.settled = true;
      token.backAt = Math.min(performance.now() + windowMs, token.takenAt + 2 * windowMs) + marginMs;
      pump();
    },
    release: async () => {
      token.settled = true;
      tokens.delete(token);
      pump();
    },
  });

  return {
    acquire: ({ signal, priority }) =>
      new Promise<WindowSlot>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const onAbort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal.reason);
        };
        let waited = false;
        const waiter = {
          take: () => {
            signal.removeEventListener('abort', onAbort);
            // A slot that had to wait serves whoever waits first now, as the shared window asks it to.
            if (waited) priority();
            const now = performance.now();
            // A request that runs longer than a window reached the service long ago: its slot is kept at most this.
            const token: Token = { takenAt: now, backAt: now + 2 * windowMs + marginMs, settled: false };
            tokens.add(token);
            resolve(slotOf(token));
          },
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
        pump();
        waited = true;
      }),
    resize(next) {
      allowance = next;
      pump();
    },
    hold: async () => undefined,
    async peek(requestMs) {
      const now = performance.now();
      const slots = [...tokens]
        .filter((token) => token.backAt > now)
        .map((token) =>
          token.settled ? token.backAt - now : inFlightBack(settings, now - token.takenAt, requestMs),
        );
      return { heldMs: 0, slots };
    },
    peopleWaiting: () => undefined,
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
