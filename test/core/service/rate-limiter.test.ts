import { afterEach, describe, expect, it } from 'vitest';
import {
  createRateLimiterRegistry,
  isLimiterStopped,
  type RateLimiterRegistry,
} from '../../../src/core/service/rate-limiter.js';
import type { QueuePlace } from '../../../src/core/service/types.js';
import { maxInWindow } from './helpers/fake-service.js';

const registries: RateLimiterRegistry[] = [];
const registry = (...args: Parameters<typeof createRateLimiterRegistry>) => {
  const created = createRateLimiterRegistry(...args);
  registries.push(created);
  return created;
};

afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.stop()));
});

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('rate limiter', () => {
  it('never starts more jobs than the allowance in any sliding window', async () => {
    const limiter = registry().forKey('k', { perWindow: 3, windowMs: 150, marginMs: 0 });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 9 }, () =>
        limiter.schedule('user', async () => {
          starts.push(performance.now());
        }),
      ),
    );
    expect(starts).toHaveLength(9);
    expect(maxInWindow(starts, 150)).toBeLessThanOrEqual(3);
  });

  it('runs user jobs queued after background jobs first when saturated', async () => {
    const limiter = registry().forKey('k', { perWindow: 2, windowMs: 120, maxConcurrent: 1, marginMs: 0 });
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
    };
    const all = [
      ...['b1', 'b2', 'b3', 'b4', 'b5'].map((name) => limiter.schedule('background', job(name))),
      ...['u1', 'u2'].map((name) => limiter.schedule('user', job(name))),
    ];
    await Promise.all(all);
    expect(order.slice(0, 2)).toEqual(['b1', 'b2']);
    expect(order.slice(2, 4)).toEqual(['u1', 'u2']);
    expect(order.slice(4)).toEqual(['b3', 'b4', 'b5']);
  });

  it('bounds the jobs in flight per key', async () => {
    const limiter = registry().forKey('k', { perWindow: 10, maxConcurrent: 2 });
    const gate = deferred();
    let running = 0;
    let peak = 0;
    const jobs = Array.from({ length: 5 }, () =>
      limiter.schedule('user', async () => {
        running++;
        peak = Math.max(peak, running);
        await gate.promise;
        running--;
      }),
    );
    await until(() => running === 2 && limiter.queued() === 3);
    gate.resolve();
    await Promise.all(jobs);
    expect(peak).toBe(2);
  });

  it('lets as many requests run at once as the allowance, following a new allowance', async () => {
    const limiter = registry().forKey('k', { perWindow: 6, windowMs: 60_000 });
    const gate = deferred();
    let running = 0;
    const jobs = Array.from({ length: 9 }, () =>
      limiter.schedule('user', async () => {
        running++;
        await gate.promise;
      }),
    );
    await until(() => running === 6 && limiter.queued() === 3);
    limiter.observe({ total: 8, remaining: null });
    await until(() => running === 8 && limiter.queued() === 1);
    // The ninth waits for a token (the window), not for a place to run.
    gate.resolve();
    jobs[8]?.catch(() => undefined);
    await Promise.all(jobs.slice(0, 8));
    expect(running).toBe(8);
  });

  it('keeps an explicit bound on requests in flight when the allowance grows', async () => {
    const limiter = registry().forKey('k', { perWindow: 6, windowMs: 60_000, maxConcurrent: 2 });
    limiter.observe({ total: 10, remaining: null });
    const gate = deferred();
    let running = 0;
    const jobs = Array.from({ length: 4 }, () =>
      limiter.schedule('user', async () => {
        running++;
        await gate.promise;
      }),
    );
    await until(() => running === 2 && limiter.queued() === 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(running).toBe(2);
    gate.resolve();
    await Promise.all(jobs);
  });

  it('follows a larger allowance reported by the service', async () => {
    const limiter = registry().forKey('k', { perWindow: 2, windowMs: 60_000 });
    limiter.observe({ total: 4, remaining: null });
    expect(limiter.allowance).toBe(4);
    let started = 0;
    const jobs = Array.from({ length: 5 }, () =>
      limiter.schedule('user', async () => {
        started++;
      }),
    );
    // The fifth job stays queued until the registry stops and drops it.
    jobs[4]?.catch(() => undefined);
    await Promise.all(jobs.slice(0, 4));
    await until(() => limiter.queued() === 1);
    expect(started).toBe(4);
  });

  it('follows a smaller allowance reported by the service', async () => {
    const limiter = registry().forKey('k', { perWindow: 5, windowMs: 60_000 });
    limiter.observe({ total: 2, remaining: null });
    let started = 0;
    const jobs = Array.from({ length: 3 }, () =>
      limiter.schedule('user', async () => {
        started++;
      }),
    );
    jobs[2]?.catch(() => undefined);
    await Promise.all(jobs.slice(0, 2));
    await until(() => limiter.queued() === 1);
    expect(started).toBe(2);
  });

  it('holds new starts when the service reports no requests left, until the window frees', async () => {
    const limiter = registry().forKey('k', { perWindow: 10, windowMs: 200, marginMs: 0 });
    const before = performance.now();
    limiter.observe({ total: null, remaining: 0 });
    let startedAt = 0;
    await limiter.schedule('user', async () => {
      startedAt = performance.now();
    });
    expect(startedAt - before).toBeGreaterThanOrEqual(190);
  });

  it('holds every start for a Retry-After', async () => {
    const limiter = registry().forKey('k', { perWindow: 10, windowMs: 60_000 });
    const before = performance.now();
    limiter.hold(150);
    const starts: number[] = [];
    await Promise.all(
      [0, 1].map(() =>
        limiter.schedule('background', async () => {
          starts.push(performance.now());
        }),
      ),
    );
    for (const at of starts) expect(at - before).toBeGreaterThanOrEqual(140);
  });

  it('gives the token back at once when nothing was sent', async () => {
    const limiter = registry().forKey('k', { perWindow: 1, windowMs: 60_000 });
    await limiter.schedule('user', async (ticket) => ticket.notSent());
    let ran = false;
    await limiter.schedule('user', async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it('shares one limiter per key and keeps keys apart', () => {
    const shared = registry();
    expect(shared.forKey('a')).toBe(shared.forKey('a', { perWindow: 1 }));
    expect(shared.forKey('a')).not.toBe(shared.forKey('b'));
  });

  it('rejects bad settings', () => {
    expect(() => registry().forKey('k', { perWindow: 0 })).toThrow(RangeError);
    expect(() => registry().forKey('k', { windowMs: 1.5 })).toThrow(RangeError);
  });

  it('drops waiting jobs on stop and refuses new ones', async () => {
    const own = createRateLimiterRegistry();
    const limiter = own.forKey('k', { perWindow: 1, windowMs: 60_000 });
    await limiter.schedule('user', async () => undefined);
    const waiting = limiter.schedule('user', async () => 'never').catch((e: unknown) => e);
    await until(() => limiter.queued() === 1);
    await own.stop();
    const error = await waiting;
    expect(isLimiterStopped(error)).toBe(true);
    const refused = await limiter.schedule('user', async () => 'never').catch((e: unknown) => e);
    expect(isLimiterStopped(refused)).toBe(true);
    expect(() => own.forKey('other')).toThrow();
  });
});

describe('rate limiter turns', () => {
  it('serves people round robin: one person’s long run does not hold up another’s single call', async () => {
    const limiter = registry().forKey('k', { perWindow: 100, maxConcurrent: 1 });
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
    };
    const all = Array.from({ length: 20 }, (_, i) =>
      limiter.schedule('user', job(`a${i + 1}`), { person: 'slack|T1|UA' }),
    );
    all.push(limiter.schedule('user', job('b1'), { person: 'slack|T1|UB' }));
    await Promise.all(all);
    expect(order.indexOf('b1')).toBeLessThanOrEqual(2);
    expect(order.filter((name) => name.startsWith('a'))).toEqual(
      Array.from({ length: 20 }, (_, i) => `a${i + 1}`),
    );
  });

  it('keeps background jobs behind every person’s', async () => {
    const limiter = registry().forKey('k', { perWindow: 1, windowMs: 40, marginMs: 0 });
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
    };
    const all = [
      limiter.schedule('background', job('g1')),
      limiter.schedule('user', job('a1'), { person: 'A' }),
      limiter.schedule('user', job('a2'), { person: 'A' }),
      limiter.schedule('background', job('g2'), { person: 'B' }),
      limiter.schedule('user', job('b1'), { person: 'B' }),
    ];
    await Promise.all(all);
    // g1 started before anyone waited; then people, turn by turn; background last.
    expect(order).toEqual(['g1', 'a1', 'b1', 'a2', 'g2']);
  });

  it('takes a cancelled job out of the queue, and its slot serves the next job with no token lost', async () => {
    const limiter = registry().forKey('k', { perWindow: 1, windowMs: 150, marginMs: 0 });
    const ran: string[] = [];
    const job = (name: string) => async () => {
      ran.push(name);
    };
    const before = performance.now();
    await limiter.schedule('user', job('first'), { person: 'A' });
    const cancel = new AbortController();
    const cancelled = limiter
      .schedule('user', job('cancelled'), { person: 'A', signal: cancel.signal })
      .catch((e: unknown) => e);
    const next = limiter.schedule('user', job('next'), { person: 'B' });
    expect(limiter.queued()).toBe(2);
    const reason = new Error('gave up');
    cancel.abort(reason);
    expect(limiter.queued()).toBe(1);
    expect(await cancelled).toBe(reason);
    await next;
    const later = limiter.schedule('user', job('later'), { person: 'A' });
    await later;
    // One start per window throughout: the cancelled job's slot neither ran it nor kept a token.
    expect(ran).toEqual(['first', 'next', 'later']);
    expect(performance.now() - before).toBeGreaterThanOrEqual(290);
    expect(performance.now() - before).toBeLessThan(1_500);
    const refused = new AbortController();
    refused.abort(reason);
    expect(await limiter.schedule('user', job('never'), { signal: refused.signal }).catch((e) => e)).toBe(
      reason,
    );
    expect(limiter.queued()).toBe(0);
  });

  it('gives the token back when a slot finds its job gone', async () => {
    const limiter = registry().forKey('k', { perWindow: 1, windowMs: 150, marginMs: 0 });
    await limiter.schedule('user', async () => undefined);
    const cancel = new AbortController();
    const cancelled = limiter
      .schedule('user', async () => 'ran', { signal: cancel.signal })
      .catch(() => 'cancelled');
    cancel.abort();
    expect(await cancelled).toBe('cancelled');
    // The cancelled job's slot took the token that came back at 150 ms, found nothing to run and gave it back.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const asked = performance.now();
    await limiter.schedule('user', async () => undefined);
    expect(performance.now() - asked).toBeLessThan(100);
    const again = performance.now();
    await limiter.schedule('user', async () => undefined);
    expect(performance.now() - again).toBeGreaterThanOrEqual(100);
  });

  it('tells a waiting job its place and estimate, at most once per interval, then that the wait is over', async () => {
    const limiter = registry({ queueReportMs: 400 }).forKey('k', {
      perWindow: 2,
      windowMs: 2_000,
      marginMs: 0,
    });
    /** What a job was told, in order: its places, that the wait is over, that it runs. */
    const told = new Map<string, Array<{ at: number; what: QueuePlace | 'over' | 'ran' }>>();
    const start = performance.now();
    const run = (name: string, person: string) => {
      const log: Array<{ at: number; what: QueuePlace | 'over' | 'ran' }> = [];
      const note = (what: QueuePlace | 'over' | 'ran') => log.push({ at: performance.now() - start, what });
      told.set(name, log);
      return limiter.schedule('user', async () => void note('ran'), {
        person,
        onQueue: note,
        onQueueOver: () => note('over'),
      });
    };
    const jobs = [run('a1', 'A'), run('a2', 'A'), run('a3', 'A'), run('b1', 'B'), run('c1', 'C')];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Two starts a window: a1 and b1 (the first turn of A and of B) started at once and were told nothing.
    expect(told.get('a1')?.map((t) => t.what)).toEqual(['ran']);
    expect(told.get('b1')?.map((t) => t.what)).toEqual(['ran']);
    const first = (name: string) => told.get(name)?.[0];
    expect(first('c1')?.what).toEqual({ ahead: 0, etaSeconds: 2 });
    expect(first('a2')?.what).toEqual({ ahead: 1, etaSeconds: 2 });
    // a3 waits for the next window: a token comes back a window after c1 or a2 starts.
    expect(first('a3')?.what).toEqual({ ahead: 2, etaSeconds: 4 });
    for (const name of ['c1', 'a2', 'a3']) expect(first(name)?.at).toBeLessThan(400);
    await Promise.all(jobs);
    for (const name of ['c1', 'a2', 'a3']) {
      const log = told.get(name) ?? [];
      const places = log.flatMap(({ at, what }) => (typeof what === 'string' ? [] : [{ at, ...what }]));
      // Reports come at least an interval apart, each with a smaller estimate; then the wait is over, then it runs.
      for (const [i, place] of places.entries()) {
        const previous = places[i - 1];
        if (previous === undefined) continue;
        expect(place.at - previous.at).toBeGreaterThanOrEqual(390);
        expect(place.etaSeconds).toBeLessThan(previous.etaSeconds + (place.ahead < previous.ahead ? 1 : 0));
      }
      expect(places.length).toBeGreaterThanOrEqual(name === 'a3' ? 3 : 2);
      expect(log.slice(places.length).map((t) => t.what)).toEqual(['over', 'ran']);
    }
  }, 10_000);
});
