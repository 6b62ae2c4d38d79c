/**
 * The service's rate window of each key, shared by every Scout replica through Redis (REDIS_URL): a slot is taken
 * before a request starts and given back one window after it settled, exactly as the in-process limiter does
 * (rate-limiter.ts), so that no 60 seconds anywhere hold more requests of a key than its allowance, whichever
 * replicas sent them. A 429's hold and the priority of people over background jobs hold across replicas too.
 *
 * Each key's window is a Redis sorted set of slots scored by when they come back, changed only by the Lua scripts
 * below (one atomic step each, timed by the Redis server's clock, the one clock every replica shares). Rate limiters
 * with a Redis store such as rate-limiter-flexible count fixed windows, which let a burst at a window's end and
 * another at the next one's start reach twice the allowance within seconds, and cannot keep a slot until its request
 * settles; Bottleneck's own Redis clustering fails on Redis 7. Bottleneck still queues and orders each replica's
 * jobs (rate-limiter.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SharedWindowUnavailableError } from './errors.js';
import type { Priority } from './types.js';

/** A slot of a key's window, held by one request. */
export interface SharedSlot {
  /** The request settled: the slot comes back `windowMs` (plus the margin) from now. */
  settle(): Promise<void>;
  /** Nothing reached the service: the slot comes back at once. */
  release(): Promise<void>;
}

/** What a slot is taken with. */
export interface SlotRequest {
  /** The key's allowance per window, as the service last reported it. */
  allowance: number;
  windowMs: number;
  /** Extra wait before a slot comes back (clock and network jitter). */
  marginMs: number;
  /** Read before each try: a slot waiting for a background job is asked for as a person's once people wait here. */
  priority: Priority | (() => Priority);
  /** Stops waiting (the limiter stopped). */
  signal?: AbortSignal;
  /** Told how long the key is held each time a wait finds it held (a 429 somewhere). */
  onHeld?: (ms: number) => void;
}

/** A key's window as it stands, in milliseconds from now. */
export interface WindowGlance {
  /** Left on the hold; 0 when none. */
  heldMs: number;
  /** When each slot taken comes back (a request in flight: two windows after it was taken, unless it settles). */
  slots: number[];
}

/** The windows of every key, in one Redis. */
export interface SharedWindows {
  /** Waits for a slot of the key's window; background work waits while any replica has people waiting. */
  acquire(apiKey: string, request: SlotRequest): Promise<SharedSlot>;
  /** Reads the key's window: its hold and its slots taken (for estimates; the window may change at once). */
  peek(apiKey: string): Promise<WindowGlance>;
  /** Holds every replica's new requests of the key for `ms` (never shortening a longer hold). */
  hold(apiKey: string, ms: number): Promise<void>;
  /** Says whether people of this replica are waiting for the key (kept fresh while they are). */
  peopleWaiting(apiKey: string, waiting: boolean): void;
  /** Whether Redis answers; null when it does, else why not. */
  problem(): Promise<string | null>;
  stop(): Promise<void>;
}

/** How long a replica's "people waiting" mark lasts without being renewed. */
const WAITING_TTL_MS = 3_000;
/** How long one Redis command may go unanswered. */
const COMMAND_TIMEOUT_MS = 2_000;
/** Longest pause between two tries of a full window. */
const MAX_PAUSE_MS = 1_000;
const MIN_PAUSE_MS = 20;

// KEYS: window, hold, people waiting. ARGV: allowance, hold-the-slot-until (ms from now), slot id, priority.
// Returns {1, 0} with the slot taken, or {0, ms to wait, held}: held is 1 when the key is held.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = redis.call('PTTL', KEYS[2])
if held > 0 then return {0, held, 1} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[4] == 'background' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) > 0 then return {0, 250, 0} end
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
  return {1, 0, 0}
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, math.max(1, tonumber(first[2]) - now), 0}
`;

// KEYS: window. ARGV: comes back after (ms from now), slot id. Moves a held slot's return to now + ARGV[1].
const SETTLE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
return 1
`;

// KEYS: window, hold. Returns {ms left on the hold, then ms until each slot taken comes back}.
const PEEK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {math.max(0, redis.call('PTTL', KEYS[2]))}
local slots = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES')
for i = 2, #slots, 2 do out[#out + 1] = tonumber(slots[i]) - now end
return out
`;

// KEYS: hold. ARGV: ms. Holds for ARGV[1] ms unless a longer hold is on.
const HOLD = `
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', tonumber(ARGV[1])) end
return 1
`;

// KEYS: people waiting. ARGV: replica id, ms. Marks the replica's people waiting until ARGV[2] ms from now.
const MARK_WAITING = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`;

interface Scripts {
  scoutAcquire(
    window: string,
    hold: string,
    waiting: string,
    allowance: number,
    keepMs: number,
    id: string,
    priority: string,
  ): Promise<[number, number, number]>;
  scoutSettle(window: string, backAfterMs: number, id: string): Promise<number>;
  scoutPeek(window: string, hold: string): Promise<number[]>;
  scoutHold(hold: string, ms: number): Promise<number>;
  scoutMarkWaiting(waiting: string, replica: string, ms: number): Promise<number>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

/** Connects to the Redis at `url` (redis://...); `prefix` names this deployment's keys. */
export function createSharedWindows(url: string, options: { prefix?: string } = {}): SharedWindows {
  const redis = new Redis(url, {
    // A command waits for a lost connection for a while, then fails: a request is not sent blind. One that gets no
    // answer (a Redis that froze) fails after COMMAND_TIMEOUT_MS.
    maxRetriesPerRequest: 3,
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  // Connection problems are reported by problem() (GET /readyz) and by the requests that fail meanwhile.
  redis.on('error', () => undefined);
  redis.defineCommand('scoutAcquire', { numberOfKeys: 3, lua: ACQUIRE });
  redis.defineCommand('scoutSettle', { numberOfKeys: 1, lua: SETTLE });
  redis.defineCommand('scoutPeek', { numberOfKeys: 2, lua: PEEK });
  redis.defineCommand('scoutHold', { numberOfKeys: 1, lua: HOLD });
  redis.defineCommand('scoutMarkWaiting', { numberOfKeys: 1, lua: MARK_WAITING });
  const scripts = redis as unknown as Scripts;
  const prefix = options.prefix ?? 'scout';
  const replica = randomBytes(9).toString('base64url');
  // Keys are named by a hash of the API key: the key itself never leaves the process.
  const names = (apiKey: string) => {
    const id = createHash('sha256').update(apiKey).digest('base64url').slice(0, 22);
    return {
      window: `${prefix}:window:{${id}}`,
      hold: `${prefix}:hold:{${id}}`,
      waiting: `${prefix}:people-waiting:{${id}}`,
    };
  };
  const marks = new Map<string, NodeJS.Timeout>();
  const mark = (apiKey: string) =>
    void scripts.scoutMarkWaiting(names(apiKey).waiting, replica, WAITING_TTL_MS).catch(() => undefined);

  return {
    async acquire(apiKey, request) {
      const keys = names(apiKey);
      const id = `${replica}:${randomBytes(6).toString('base64url')}`;
      // A request that runs longer than a window reached the service long ago: its slot is kept at most this long.
      const keepMs = 2 * request.windowMs + request.marginMs;
      for (;;) {
        if (request.signal?.aborted === true) throw request.signal.reason;
        const priority = typeof request.priority === 'function' ? request.priority() : request.priority;
        const [taken, waitMs, held] = await scripts
          .scoutAcquire(keys.window, keys.hold, keys.waiting, request.allowance, keepMs, id, priority)
          .catch((error: unknown) => {
            throw new SharedWindowUnavailableError(error);
          });
        if (taken === 1) {
          return {
            settle: async () => {
              await scripts.scoutSettle(keys.window, request.windowMs + request.marginMs, id);
            },
            release: async () => {
              await redis.zrem(keys.window, id);
            },
          };
        }
        if (held === 1) request.onHeld?.(waitMs);
        await sleep(Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, waitMs)), request.signal);
      }
    },
    async peek(apiKey) {
      const keys = names(apiKey);
      const [heldMs = 0, ...slots] = await scripts
        .scoutPeek(keys.window, keys.hold)
        .catch((error: unknown) => {
          throw new SharedWindowUnavailableError(error);
        });
      return { heldMs, slots };
    },
    async hold(apiKey, ms) {
      if (!(ms > 0)) return;
      await scripts.scoutHold(names(apiKey).hold, Math.ceil(ms));
    },
    peopleWaiting(apiKey, waiting) {
      const renewing = marks.get(apiKey);
      if (waiting && renewing === undefined) {
        mark(apiKey);
        const timer = setInterval(() => mark(apiKey), WAITING_TTL_MS / 3);
        timer.unref();
        marks.set(apiKey, timer);
      } else if (!waiting && renewing !== undefined) {
        clearInterval(renewing);
        marks.delete(apiKey);
        void redis.zrem(names(apiKey).waiting, replica).catch(() => undefined);
      }
    },
    async problem() {
      try {
        await redis.ping();
        return null;
      } catch (error) {
        return `not reachable: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    async stop() {
      for (const timer of marks.values()) clearInterval(timer);
      marks.clear();
      redis.disconnect();
    },
  };
}
