/**
 * The rate window of each key in Redis (REDIS_URL), one for every Scout replica (see rate-window.ts): no 60 seconds
 * anywhere hold more requests of a key than its allowance, whichever replicas sent them. A 429's hold and the
 * priority of people over background jobs hold across replicas too.
 *
 * Each key's window is a Redis sorted set of slots scored by when they come back, changed only by the Lua scripts
 * below (one atomic step each, timed by the Redis server's clock, the one clock every replica shares). Rate limiters
 * with a Redis store such as rate-limiter-flexible count fixed windows, and Bottleneck's own Redis clustering counts
 * a reservoir refreshed on a fixed interval and fails on Redis 7: neither can keep a slot until its request settles.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SharedWindowUnavailableError } from './errors.js';
import { inFlightBack, type RateWindow, type RateWindows, type WindowSettings } from './rate-window.js';
import { sleep } from './retry.js';

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

/** Connects to the Redis at `url` (redis://...); `prefix` names this deployment's keys. */
export function redisWindows(url: string, options: { prefix?: string } = {}): RateWindows {
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
  const unavailable = (error: unknown) => {
    throw new SharedWindowUnavailableError(error);
  };
  const marks = new Set<NodeJS.Timeout>();

  /** The window of one key; its Redis keys are named by a hash of the API key, which never leaves the process. */
  const forKey = (apiKey: string, settings: WindowSettings): RateWindow => {
    const id = createHash('sha256').update(apiKey).digest('base64url').slice(0, 22);
    const keys = {
      window: `${prefix}:window:{${id}}`,
      hold: `${prefix}:hold:{${id}}`,
      waiting: `${prefix}:people-waiting:{${id}}`,
    };
    const { windowMs, marginMs } = settings;
    let allowance = settings.allowance;
    let marking: NodeJS.Timeout | null = null;
    const mark = () =>
      void scripts.scoutMarkWaiting(keys.waiting, replica, WAITING_TTL_MS).catch(() => undefined);
    return {
      async acquire(request) {
        const slot = `${replica}:${randomBytes(6).toString('base64url')}`;
        // A request that runs longer than a window reached the service long ago: its slot is kept at most this long.
        const keepMs = 2 * windowMs + marginMs;
        for (;;) {
          if (request.signal.aborted) throw request.signal.reason;
          const [taken, waitMs, held] = await scripts
            .scoutAcquire(keys.window, keys.hold, keys.waiting, allowance, keepMs, slot, request.priority())
            .catch(unavailable);
          if (taken === 1) {
            return {
              settle: async () => void (await scripts.scoutSettle(keys.window, windowMs + marginMs, slot)),
              release: async () => void (await redis.zrem(keys.window, slot)),
            };
          }
          if (held === 1) request.onHeld(waitMs);
          await sleep(Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, waitMs)), request.signal);
        }
      },
      resize(next) {
        allowance = next;
      },
      async hold(ms) {
        if (ms > 0) await scripts.scoutHold(keys.hold, Math.ceil(ms));
      },
      async peek(requestMs) {
        const [heldMs = 0, ...slots] = await scripts.scoutPeek(keys.window, keys.hold).catch(unavailable);
        // A slot's score is when it comes back, two windows after it was taken while its request runs.
        const inFlight = inFlightBack(settings, 0, requestMs);
        return { heldMs, slots: slots.map((ms) => (ms > windowMs + marginMs ? Math.min(ms, inFlight) : ms)) };
      },
      peopleWaiting(waiting) {
        if (waiting && marking === null) {
          mark();
          marking = setInterval(mark, WAITING_TTL_MS / 3);
          marking.unref();
          marks.add(marking);
        } else if (!waiting && marking !== null) {
          clearInterval(marking);
          marks.delete(marking);
          marking = null;
          void redis.zrem(keys.waiting, replica).catch(() => undefined);
        }
      },
      stop() {
        if (marking !== null) clearInterval(marking);
      },
    };
  };

  return {
    forKey,
    async problem() {
      try {
        await redis.ping();
        return null;
      } catch (error) {
        return `not reachable: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    async stop() {
      for (const timer of marks) clearInterval(timer);
      marks.clear();
      redis.disconnect();
    },
  };
}
