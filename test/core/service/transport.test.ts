import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClientOptions } from '../../../src/core/service/client.js';
import type { ServiceError } from '../../../src/core/service/errors.js';
import { type FakeService, startFakeService } from './helpers/fake-service.js';
import { FAST_RETRY, type Harness, KEY, recordingLogger, startHarness } from './helpers/setup.js';

const SEARCH_OK = { message: 'OK', response: { data: ['tiktok_1'], page: 1, next_page: 0, total_pages: 1 } };
const LIST_OK = { message: 'OK', response: { id: 'l1', name: 'Launch' } };

describe('transport against a fake service', () => {
  let fake: FakeService;
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const clients: Array<{ stop(): Promise<void> }> = [];
  const client = (extra: Partial<ServiceClientOptions> = {}) => {
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

  it('sends the key, Accept on every request and Content-Type only with a body', async () => {
    fake.handle((req) => ({ body: req.method === 'GET' ? SEARCH_OK : LIST_OK }));
    const c = client();
    await c.creators.search({ perPage: 5 });
    await c.crm.createList({ name: 'Launch' });
    const [get, post] = fake.requests;
    expect(get?.headers['x-ty-api-key']).toBe('secret-key-123');
    expect(get?.headers.accept).toBe('application/json');
    expect(get?.headers['content-type']).toBeUndefined();
    expect(post?.headers['x-ty-api-key']).toBe('secret-key-123');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post?.body ?? '')).toEqual({ name: 'Launch' });
  });

  it('reads the accounting headers into meta, null when missing', async () => {
    fake.handle(() => ({
      body: SEARCH_OK,
      headers: { 'x-ty-credits': '987', 'x-ty-rate-limit-remaining': '59', 'x-ty-rate-limit-total': '60' },
    }));
    const { meta } = await client().creators.search({});
    expect(meta).toEqual({
      operation: 'creators.search',
      status: 200,
      attempts: 1,
      creditsRemaining: 987,
      rateLimitRemaining: 59,
      rateLimitTotal: 60,
      cost: 0,
    });
    fake.handle(() => ({ body: SEARCH_OK }));
    const bare = await client().creators.search({});
    expect(bare.meta.creditsRemaining).toBeNull();
    expect(bare.meta.rateLimitRemaining).toBeNull();
    expect(bare.meta.rateLimitTotal).toBeNull();
  });

  it('raises BAD_RESPONSE for a body of the wrong shape, keeping it', async () => {
    fake.handle(() => ({ body: { message: 'OK', response: { data: 'not a list' } } }));
    const error = (await client()
      .creators.search({})
      .catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.rawBody).toContain('not a list');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a GET whose connection drops, but not a CRM write', async () => {
    fake.handle(() => ({ destroy: true }));
    const c = client();
    const read = (await c.crm.listLists().catch((e: unknown) => e)) as ServiceError;
    expect(read.code).toBe('NETWORK_ERROR');
    expect(fake.requests).toHaveLength(FAST_RETRY.maxAttempts);
    fake.requests.length = 0;
    const write = (await c.crm.createList({ name: 'x' }).catch((e: unknown) => e)) as ServiceError;
    expect(write.code).toBe('NETWORK_ERROR');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries even a CRM write when the connection is refused (nothing was sent)', async () => {
    const closed = await startFakeService();
    const url = closed.url;
    await closed.stop();
    const logger = recordingLogger();
    const c = client({ baseUrl: url, logger });
    const error = (await c.crm.createList({ name: 'x' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toContain('ECONNREFUSED');
    const retries = logger.lines.filter((l) => l.msg === 'service call failed, retrying');
    expect(retries).toHaveLength(FAST_RETRY.maxAttempts - 1);
  });

  it('fails at once when Retry-After asks for longer than allowed', async () => {
    fake.handle(() => ({
      status: 429,
      headers: { 'retry-after': '500' },
      body: { error: 'Too many requests' },
    }));
    const error = (await client()
      .creators.search({})
      .catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfter).toBe(500);
    expect(fake.requests).toHaveLength(1);
  });

  it('cancels a call in flight, and sends nothing for a call cancelled before it starts', async () => {
    fake.handle(() => ({ hang: true }));
    const c = client();
    const controller = new AbortController();
    const pending = c.creators.search({}, { signal: controller.signal }).catch((e: unknown) => e);
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(((await pending) as ServiceError).code).toBe('ABORTED');
    const early = (await c.creators
      .search({}, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e)) as ServiceError;
    expect(early.code).toBe('ABORTED');
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up on a call after the per-operation time limit', async () => {
    fake.handle(() => ({ hang: true }));
    const c = client({ timeouts: { 'crm.createList': 100 } });
    const error = (await c.crm.createList({ name: 'x' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('0.1 s');
    // A write that may have been processed is not repeated.
    expect(fake.requests).toHaveLength(1);
  });

  it('lets a slow answer through when the time limit allows it', async () => {
    fake.handle(() => ({
      delayMs: 150,
      body: { metadata: { tool_time: 0.15 }, data: { url: 'https://out/v.mp4' } },
    }));
    const c = client({ timeouts: { 'media.remixVideo': 2_000 } });
    const { data } = await c.media.remixVideo({ video_url: 'https://example.com/a.mp4' });
    expect(data).toEqual({ url: 'https://out/v.mp4', applied_params: {}, tool_time: 0.15 });
    expect(fake.requests[0]?.path).toBe('/media/api/v1/remix');
  });

  it('never logs the API key', async () => {
    const logger = recordingLogger();
    fake.handle(() => ({ status: 503, body: { error: 'down' } }));
    await client({ logger })
      .creators.search({})
      .catch(() => undefined);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(logger.lines)).not.toContain('secret-key-123');
  });
});

describe('transport against the sandbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    // Generates the sandbox's data once, so later time limits measure only the faults.
    await h.client.creators.search({});
  });
  afterAll(async () => {
    await h.stop();
  });
  const logged = () => h.sandbox.requests(KEY).length;

  it('retries server errors of a safe operation until it succeeds', async () => {
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'server-error', status: 503 }, 2);
    const { meta } = await h.client.creators.search({ perPage: 3 });
    expect(meta.attempts).toBe(3);
    expect(logged() - before).toBe(3);
  });

  it('stops after maxAttempts', async () => {
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'server-error' }, FAST_RETRY.maxAttempts);
    const error = (await h.client.creators.search({}).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.status).toBe(500);
    expect(logged() - before).toBe(FAST_RETRY.maxAttempts);
  });

  it('does not repeat a CRM write after a server error', async () => {
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'server-error' });
    const error = (await h.client.crm.createList({ name: 'Once' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(logged() - before).toBe(1);
  });

  it('repeats a CRM write after a 429, once Retry-After has passed', async () => {
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'rate-limit', retryAfterSeconds: 1 });
    const { data, meta } = await h.client.crm.createList({ name: 'After 429' });
    expect(data.name).toBe('After 429');
    expect(meta.attempts).toBe(2);
    const [first, second] = h.sandbox.requests(KEY).slice(before);
    expect(first?.status).toBe(429);
    expect(second?.status).toBe(200);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('retries a timed-out search, but not a timed-out CRM write', async () => {
    const hasty = h.clientWith({ timeouts: { 'creators.search': 300, 'crm.createList': 300 } });
    h.sandbox.injectFaults(KEY, { kind: 'timeout' });
    const { meta } = await hasty.creators.search({});
    expect(meta.attempts).toBe(2);
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'timeout' });
    const error = (await hasty.crm.createList({ name: 'Slow' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('TIMEOUT');
    expect(logged() - before).toBe(1);
  });

  it('does not repeat a timed-out paid read, which may have been charged', async () => {
    const hasty = h.clientWith({ timeouts: { 'viral.search': 300 } });
    const before = logged();
    h.sandbox.injectFaults(KEY, { kind: 'timeout' });
    const error = (await hasty.viral.search({ pageSize: 3 }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('TIMEOUT');
    expect(logged() - before).toBe(1);
  });

  it('raises BAD_RESPONSE for malformed JSON without repeating a paid call', async () => {
    const before = logged();
    const credits = h.sandbox.credits(KEY);
    h.sandbox.injectFaults(KEY, { kind: 'malformed-json' });
    const error = (await h.client.creators.list({ perPage: 2 }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.status).toBe(200);
    expect(error.rawBody).toMatch(/^\{"message":"OK"/);
    expect(logged() - before).toBe(1);
    expect(h.sandbox.credits(KEY)).toBe(credits);
  });
});
