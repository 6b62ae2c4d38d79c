import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/core/service/client.js';
import { ServiceError } from '../../../src/core/service/errors.js';
import { createRateLimiterRegistry } from '../../../src/core/service/rate-limiter.js';
import { maxInWindow, startFakeService } from './helpers/fake-service.js';
import { type Harness, KEY, startHarness, TEAM } from './helpers/setup.js';

/** The sandbox's clock runs this much faster, so its rolling minute lasts 500 ms of real time. */
const SPEED = 120;
const WINDOW_MS = 60_000 / SPEED;
const ALLOWANCE = 5;

describe('rate limiting against the sandbox', () => {
  let h: Harness;
  beforeAll(async () => {
    const t0 = Date.now();
    h = await startHarness({
      sandbox: {
        now: () => t0 + (Date.now() - t0) * SPEED,
        keys: [{ key: KEY, teamId: TEAM, credits: 1000, rateLimitPerMinute: ALLOWANCE }],
      },
      client: { rateLimit: { perWindow: ALLOWANCE, windowMs: WINDOW_MS } },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('keeps a storm of 20 calls from two clients of one key under the allowance, and all succeed', async () => {
    const other = h.clientWith({});
    const calls = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0 ? h.client : other).creators.search({ perPage: 1 }),
    );
    const results = await Promise.all(calls);
    for (const { meta } of results) {
      expect(meta.status).toBe(200);
      expect(meta.rateLimitTotal).toBe(ALLOWANCE);
    }
    const log = h.sandbox.requests(KEY);
    expect(log).toHaveLength(20);
    expect(log.every((entry) => entry.status === 200)).toBe(true);
    // The sandbox's own clock and rolling minute: never more than the allowance in any window.
    expect(
      maxInWindow(
        log.map((entry) => entry.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(ALLOWANCE);
  });

  it('finishes user calls queued after background calls first while the limiter is saturated', async () => {
    const finished: string[] = [];
    const call = (name: string, priority: 'user' | 'background') =>
      h.client.creators.search({ perPage: 1 }, { priority }).then(() => finished.push(name));
    const background = Array.from({ length: 10 }, (_, i) => call(`b${i + 1}`, 'background'));
    const users = Array.from({ length: 3 }, (_, i) => call(`u${i + 1}`, 'user'));
    await Promise.all([...background, ...users]);
    const position = (name: string) => finished.indexOf(name);
    const lastUser = Math.max(...['u1', 'u2', 'u3'].map(position));
    // At most one window's worth of background calls can start before the user calls were queued.
    for (const name of ['b6', 'b7', 'b8', 'b9', 'b10']) expect(position(name)).toBeGreaterThan(lastUser);
    expect(h.sandbox.requests(KEY).every((entry) => entry.status === 200)).toBe(true);
  });
});

describe('a service that allows less than the client was configured for', () => {
  it('learns the allowance from the headers, waits out the 429s and completes every call', async () => {
    const allowance = 3;
    const windowMs = 400;
    const accepted: number[] = [];
    let refused = 0;
    const fake = await startFakeService((req) => {
      const recent = accepted.filter((at) => req.at - at < windowMs);
      const headers = { 'x-ty-rate-limit-total': String(allowance) };
      if (recent.length >= allowance) {
        refused++;
        return {
          status: 429,
          headers: { ...headers, 'retry-after': '1' },
          body: { error: 'Too many requests', retryAfter: 1 },
        };
      }
      accepted.push(req.at);
      const remaining = String(allowance - recent.length - 1);
      // Slow answers: the client starts several calls before it hears the real allowance.
      return {
        delayMs: 30,
        headers: { ...headers, 'x-ty-rate-limit-remaining': remaining },
        body: { message: 'OK', response: { data: [], page: 1, next_page: 0, total_pages: 0 } },
      };
    });
    const dispatcher = new Agent();
    const limiters = createRateLimiterRegistry();
    const client = createServiceClient({
      apiKey: 'k',
      baseUrl: fake.url,
      mediaUrl: fake.url,
      dispatcher,
      limiters,
      rateLimit: { perWindow: 10, windowMs },
      retry: { maxAttempts: 6, baseDelayMs: 5, maxDelayMs: 20 },
    });
    try {
      const results = await Promise.all(Array.from({ length: 8 }, () => client.creators.search({})));
      expect(results.every((r) => r.meta.status === 200)).toBe(true);
      expect(refused).toBeGreaterThan(0);
      expect(limiters.forKey('k').allowance).toBe(allowance);
      expect(maxInWindow(accepted, windowMs)).toBeLessThanOrEqual(allowance);
    } finally {
      await limiters.stop();
      await fake.stop();
      await dispatcher.close();
    }
  });
});

describe('client lifecycle and options', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses unusable options', () => {
    const base = { apiKey: 'k', baseUrl: 'http://127.0.0.1:1', mediaUrl: 'http://127.0.0.1:1' };
    expect(() => createServiceClient({ ...base, apiKey: ' ' })).toThrow(RangeError);
    expect(() => createServiceClient({ ...base, baseUrl: 'api.example.com' })).toThrow(/baseUrl/);
    expect(() => createServiceClient({ ...base, timeouts: { 'crm.getList': 0 } })).toThrow(/crm.getList/);
    expect(() => createServiceClient({ ...base, retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
  });

  it('stops its own limiter: later calls fail with CLIENT_STOPPED and send nothing', async () => {
    const own = createServiceClient({
      apiKey: KEY,
      baseUrl: h.sandbox.url,
      mediaUrl: h.sandbox.mediaUrl,
      dispatcher: h.dispatcher,
    });
    await own.creators.search({});
    const before = h.sandbox.requests(KEY).length;
    await own.stop();
    const error = (await own.creators.search({}).catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('CLIENT_STOPPED');
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });

  it('leaves a shared registry running when one of its clients stops', async () => {
    const first = h.clientWith({});
    await first.stop();
    const { meta } = await h.client.creators.search({});
    expect(meta.status).toBe(200);
  });

  it('works with a base URL that carries a path prefix and a trailing slash', async () => {
    const prefixed = h.clientWith({ mediaUrl: `${h.sandbox.url}/media/` });
    const { data } = await prefixed.media.remixVideo({ video_url: 'https://example.com/v.webm' });
    expect(data.url).toMatch(/^http/);
    expect(h.sandbox.requests(KEY).at(-1)?.path).toBe('/media/api/v1/remix');
  });
});
