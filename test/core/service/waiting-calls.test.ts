/**
 * Calls waiting for their turn, through the real client and transport against the sandbox: people take turns,
 * a waiting call is told its place and when it is over, a given-up wait leaves the queue at once, and `onStart`
 * comes right before each attempt is sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceError } from '../../../src/core/service/errors.js';
import {
  createRateLimiterRegistry,
  type RateLimiterRegistry,
} from '../../../src/core/service/rate-limiter.js';
import type { QueuePlace } from '../../../src/core/service/types.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('waiting calls', () => {
  let h: Harness;
  let limiters: RateLimiterRegistry;
  beforeAll(async () => {
    h = await startHarness();
    // Generates the sandbox's data once.
    await h.client.creators.search({});
  });
  afterEach(async () => {
    await limiters.stop();
  });
  afterAll(async () => {
    await h.stop();
  });
  /** A client on its own limiters, reporting places every 300 ms. */
  const client = () => {
    limiters = createRateLimiterRegistry({ queueReportMs: 300 });
    return h.clientWith({ limiters });
  };
  const logged = () => h.sandbox.requests(KEY).length;

  it('serves waiting people turn by turn, telling each its place, then that the wait is over, then sending it', async () => {
    const c = client();
    const events: string[] = [];
    const places = new Map<number, QueuePlace>();
    const search = (perPage: number, person: string) =>
      c.creators.search(
        { perPage },
        {
          person,
          onQueue: (place) => {
            if (!places.has(perPage)) places.set(perPage, place);
          },
          onQueueOver: () => events.push(`over ${perPage}`),
          onStart: () => events.push(`start ${perPage}`),
        },
      );
    // The key is held (a 429's Retry-After): every call waits for its turn.
    limiters.forKey(KEY).hold(1_500);
    const before = logged();
    const calls = [search(1, 'slack|T1|UA'), search(2, 'slack|T1|UA'), search(3, 'slack|T1|UB')];
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(places.get(1)).toEqual({ ahead: 0, etaSeconds: 2 });
    expect(places.get(3)).toEqual({ ahead: 1, etaSeconds: 2 });
    expect(places.get(2)).toEqual({ ahead: 2, etaSeconds: 2 });
    expect(logged()).toBe(before);
    await Promise.all(calls);
    // B's single call went between A's two.
    const sent = h.sandbox
      .requests(KEY)
      .slice(before)
      .map((r) => Number(r.query.perPage));
    expect(sent).toEqual([1, 3, 2]);
    expect(events.filter((e) => e.startsWith('start'))).toEqual(['start 1', 'start 3', 'start 2']);
    for (const n of [1, 2, 3]) expect(events.indexOf(`over ${n}`)).toBeLessThan(events.indexOf(`start ${n}`));
  });

  it('takes a call out of the queue as soon as its wait is cancelled', async () => {
    const c = client();
    const limiter = limiters.forKey(KEY);
    limiter.hold(10_000);
    const cancel = new AbortController();
    const told: string[] = [];
    const call = c.creators
      .search(
        {},
        {
          waitSignal: cancel.signal,
          onQueue: () => told.push('place'),
          onQueueOver: () => told.push('over'),
        },
      )
      .then(
        () => null,
        (e: unknown) => e as ServiceError,
      );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(limiter.queued()).toBe(1);
    const before = logged();
    cancel.abort();
    // Out of the queue at once, not when its turn comes after the hold.
    expect(limiter.queued()).toBe(0);
    expect(told).toEqual(['place', 'over']);
    const error = await call;
    expect(error?.code).toBe('ABORTED');
    expect(error?.sent).toBe(false);
    expect(logged()).toBe(before);
  });

  it('says right before each attempt is sent', async () => {
    const c = client();
    const seen: number[] = [];
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'server-error', status: 503 }, 2);
    const { meta } = await c.creators.search({}, { onStart: () => seen.push(logged() - before) });
    expect(meta.attempts).toBe(3);
    // Each time, the attempts before it had reached the service and this one had not yet.
    expect(seen).toEqual([0, 1, 2]);
  });
});
