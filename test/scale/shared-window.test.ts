/**
 * A key's rate window shared through Redis by the limiters of several replicas (two registries here, each with its
 * own Redis connection, as two processes have): together they start at most the allowance in any window, a hold set
 * by one holds the other, and background work of one waits while the other has people waiting.
 * Needs Redis: SCOUT_TEST_REDIS_URL (redis://127.0.0.1:6379 by default).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/service/errors.js';
import { createServiceClient } from '../../src/core/service/index.js';
import { createRateLimiterRegistry, type RateLimiterRegistry } from '../../src/core/service/rate-limiter.js';
import { redisWindows } from '../../src/core/service/redis-window.js';
import type { QueuePlace } from '../../src/core/service/types.js';
import { createSandbox } from '../../src/sandbox/index.js';

const REDIS_URL = process.env.SCOUT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY = 'tk_shared_window_test_key';
const WINDOW_MS = 1_000;
const ALLOWANCE = 5;

let registries: RateLimiterRegistry[] = [];

afterEach(async () => {
  await Promise.all(registries.map((r) => r.stop()));
  registries = [];
});

/** Two replicas' limiters of one key, on one fresh set of Redis keys. */
function replicas(count = 2) {
  const prefix = `scout-test-${randomBytes(6).toString('hex')}`;
  registries = Array.from({ length: count }, () =>
    createRateLimiterRegistry(
      { perWindow: ALLOWANCE, windowMs: WINDOW_MS, marginMs: 10, maxConcurrent: 4, queueReportMs: 200 },
      undefined,
      redisWindows(REDIS_URL, { prefix }),
    ),
  );
  return registries.map((registry) => registry.forKey(KEY));
}

/** The most starts within any WINDOW_MS after a start. */
function busiestWindow(starts: number[]): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let most = 0;
  for (const [i, from] of sorted.entries()) {
    most = Math.max(most, sorted.slice(i).filter((at) => at < from + WINDOW_MS).length);
  }
  return most;
}

describe('a rate window shared by replicas through Redis', () => {
  it('starts at most the allowance in any window, whichever replica starts them', async () => {
    const [a, b] = replicas();
    const starts: number[] = [];
    const job = async () => {
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await Promise.all(
      Array.from({ length: 3 * ALLOWANCE }, (_, i) => (i % 2 === 0 ? a : b)?.schedule('user', job)),
    );
    expect(starts).toHaveLength(3 * ALLOWANCE);
    expect(busiestWindow(starts)).toBe(ALLOWANCE);
    // Three windows' worth took at least two windows: the second and third waited for slots to come back.
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(2 * WINDOW_MS);
  });

  it('gives a slot back at once when nothing was sent', async () => {
    const [a, b] = replicas();
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 2 * ALLOWANCE }, (_, i) =>
        (i % 2 === 0 ? a : b)?.schedule('user', async (ticket) => ticket.notSent()),
      ),
    );
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
  });

  it('holds every replica after a 429 seen by one', async () => {
    const [a, b] = replicas();
    a?.hold(600);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    let heard = 0;
    b?.onHold(() => {
      heard += 1;
    });
    await b?.schedule('user', async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    // The other replica learnt of the hold while waiting, and says so to whoever waits on it.
    expect(heard).toBeGreaterThan(0);
    expect(b?.heldFor()).toBe(0);
  });

  it('keeps background work of every replica behind people waiting on any', async () => {
    const [a, b] = replicas();
    // Fill the window.
    await Promise.all(Array.from({ length: ALLOWANCE }, () => a?.schedule('user', async () => undefined)));
    const order: string[] = [];
    const background = b?.schedule('background', async () => {
      order.push('background');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const person = a?.schedule('user', async () => {
      order.push('person');
    });
    await Promise.all([background, person]);
    expect(order).toEqual(['person', 'background']);
  });

  it('serves each replica’s people turn by turn', async () => {
    const [a, b] = replicas();
    await Promise.all(Array.from({ length: ALLOWANCE }, () => a?.schedule('user', async () => undefined)));
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
    };
    const jobs = Array.from({ length: 6 }, (_, i) => b?.schedule('user', job(`a${i + 1}`), { person: 'A' }));
    jobs.push(b?.schedule('user', job('b1'), { person: 'B' }));
    await Promise.all(jobs);
    expect(order.indexOf('b1')).toBeLessThanOrEqual(1);
  });

  it('starts a person’s job before background jobs already waiting for the window on the same replica', async () => {
    const [a] = replicas(1);
    await Promise.all(Array.from({ length: ALLOWANCE }, () => a?.schedule('user', async () => undefined)));
    const order: string[] = [];
    // More background jobs than the replica runs at once: every place to run waits for the window.
    const background = Array.from({ length: 6 }, (_, i) =>
      a?.schedule('background', async () => {
        order.push(`g${i + 1}`);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const person = a?.schedule(
      'user',
      async () => {
        order.push('person');
      },
      { person: 'A' },
    );
    await Promise.all([...background, person]);
    expect(order[0]).toBe('person');
  });

  it('takes a cancelled job out of the queue, leaving no slot of the window taken', async () => {
    const [a, b] = replicas();
    await Promise.all(Array.from({ length: ALLOWANCE }, () => a?.schedule('user', async () => undefined)));
    const cancel = new AbortController();
    const cancelled = b
      ?.schedule('user', async () => 'ran', { signal: cancel.signal })
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cancel.abort(new Error('gave up'));
    expect(b?.queued()).toBe(0);
    expect(await cancelled).toEqual(new Error('gave up'));
    // Once the window has freed, a whole allowance starts at once: the cancelled job kept no slot.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 200));
    const asked = Date.now();
    await Promise.all(Array.from({ length: ALLOWANCE }, () => b?.schedule('user', async () => undefined)));
    expect(Date.now() - asked).toBeLessThan(300);
  });

  it('estimates a waiting job’s start from the shared window, whichever replica filled it', async () => {
    const [a, b] = replicas();
    await Promise.all(Array.from({ length: ALLOWANCE }, () => a?.schedule('user', async () => undefined)));
    const places: QueuePlace[] = [];
    await b?.schedule('user', async () => undefined, { onQueue: (place) => places.push(place) });
    // b started nothing itself, yet knows the window is full until a's slots come back, about a second on.
    expect(places[0]).toEqual({ ahead: 0, etaSeconds: 1 });
  });

  it('fails soon and sends nothing when Redis cannot be reached, saying so', async () => {
    const sandbox = createSandbox({ keys: [{ key: KEY, teamId: 'team_window', credits: 100 }] });
    await sandbox.start();
    // Nothing listens on port 1.
    const registry = createRateLimiterRegistry({}, undefined, redisWindows('redis://127.0.0.1:1'));
    registries.push(registry);
    const client = createServiceClient({
      apiKey: KEY,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      limiters: registry,
    });
    try {
      const started = Date.now();
      const failure = await client.creators.search({ perPage: 1 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ServiceError);
      expect((failure as ServiceError).code).toBe('LIMITER_UNAVAILABLE');
      expect((failure as ServiceError).sent).toBe(false);
      expect((failure as ServiceError).message).toContain('Scout cannot reach Redis');
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(sandbox.requests(KEY)).toEqual([]);
    } finally {
      await client.stop();
      await sandbox.stop();
    }
  });
});
