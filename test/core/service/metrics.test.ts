/**
 * What the service client reports to its metrics: every HTTP attempt by operation and status (or why no status
 * came), and each call's time in its rate limiter's queue, by priority.
 */
import { createServer } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClientOptions } from '../../../src/core/service/client.js';
import type { Priority } from '../../../src/core/service/types.js';
import { type FakeService, startFakeService } from './helpers/fake-service.js';
import { FAST_RETRY } from './helpers/setup.js';

const SEARCH_OK = { message: 'OK', response: { data: ['tiktok_1'], page: 1, next_page: 0, total_pages: 1 } };

/** Metrics hooks that record what they are told. */
function recorder() {
  const requests: Array<{ operation: string; status: string }> = [];
  const waits: Array<{ priority: Priority; seconds: number }> = [];
  const queue = new Map<Priority, number>();
  let peak = 0;
  return {
    requests,
    waits,
    queued: (priority: Priority) => queue.get(priority) ?? 0,
    peak: () => peak,
    metrics: {
      request: (operation: string, status: string, seconds: number) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        requests.push({ operation, status });
      },
      waited: (priority: Priority, seconds: number) => waits.push({ priority, seconds }),
      queued: (priority: Priority, delta: number) => {
        queue.set(priority, (queue.get(priority) ?? 0) + delta);
        peak = Math.max(peak, queue.get(priority) ?? 0);
      },
    },
  };
}

describe('service client metrics', () => {
  let fake: FakeService;
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const clients: Array<{ stop(): Promise<void> }> = [];
  const client = (extra: Partial<ServiceClientOptions>) => {
    const created = createServiceClient({
      apiKey: 'secret-key-123',
      baseUrl: fake.url,
      mediaUrl: `${fake.url}/media`,
      dispatcher,
      retry: FAST_RETRY,
      ...extra,
    });
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    fake = await startFakeService();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    fake.requests.length = 0;
  });
  afterAll(async () => {
    await fake.stop();
    await dispatcher.close();
  });

  it('counts each attempt with its status: a 500 retried, then the 200', async () => {
    let calls = 0;
    fake.handle(() => {
      calls += 1;
      return calls === 1 ? { status: 500, body: { message: 'boom' } } : { body: SEARCH_OK };
    });
    const seen = recorder();
    await client({ metrics: seen.metrics }).creators.search({ perPage: 1 });
    expect(seen.requests).toEqual([
      { operation: 'creators.search', status: '500' },
      { operation: 'creators.search', status: '200' },
    ]);
  });

  it('says why no status came: a time-out, or nothing sent at all', async () => {
    fake.handle(() => ({ hang: true }));
    const seen = recorder();
    await client({ metrics: seen.metrics, timeouts: { 'crm.createList': 100 } })
      .crm.createList({ name: 'x' })
      .catch(() => undefined);
    expect(seen.requests).toEqual([{ operation: 'crm.createList', status: 'timeout' }]);

    // A port nobody listens on: the connection is refused before anything is sent.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = recorder();
    await client({ metrics: refused.metrics, baseUrl: `http://127.0.0.1:${port}`, retry: { maxAttempts: 1 } })
      .creators.search({})
      .catch(() => undefined);
    expect(refused.requests).toEqual([{ operation: 'creators.search', status: 'not_sent' }]);
  });

  it('reports the queue and the wait of each call by priority', async () => {
    fake.handle(() => ({ body: SEARCH_OK }));
    const seen = recorder();
    // One request per 200 ms window: the second call waits its turn in the queue.
    const c = client({ metrics: seen.metrics, rateLimit: { perWindow: 1, windowMs: 200 } });
    await Promise.all([c.creators.search({}), c.creators.search({}, { priority: 'background' })]);
    expect(seen.waits.map((w) => w.priority).sort()).toEqual(['background', 'user']);
    const background = seen.waits.find((w) => w.priority === 'background');
    expect(background?.seconds).toBeGreaterThan(0.1);
    expect(seen.peak()).toBe(1);
    expect(seen.queued('user')).toBe(0);
    expect(seen.queued('background')).toBe(0);
  });
});
