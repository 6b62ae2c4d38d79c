import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { call, clientFor, FIXED_NOW, startSandbox } from '../fixture.js';

const KEY = 'key-a';
let sandbox: Sandbox;
let clock = FIXED_NOW;

async function start(rateLimitPerMinute = 60, credits = 1000): Promise<void> {
  clock = FIXED_NOW;
  sandbox = await startSandbox({
    now: () => clock,
    rateLimitPerMinute,
    keys: [{ key: KEY, teamId: 'team-a', credits }],
  });
}

afterEach(async () => {
  await sandbox.stop();
});

const api = () => clientFor(sandbox, KEY);
const search = '/api/v2/creators/search';

describe('authentication and accounting headers', () => {
  it('refuses a missing or unknown key with 401 in the family shape, without accounting headers', async () => {
    await start();
    const missing = await clientFor(sandbox, null).get(search);
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ code: 401, message: expect.any(String) });
    expect(missing.headers['x-ty-credits']).toBeUndefined();
    const unknown = await clientFor(sandbox, 'nope').get('/api/v2/crm/lists');
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({ detail: expect.any(String) });
    const viral = await clientFor(sandbox, 'nope').post('/api/v1/viral-content', {});
    expect(viral.json).toEqual({ error: expect.any(String) });
  });

  it('sends x-ty-credits and the rate-limit headers on successes and errors alike', async () => {
    await start();
    const ok = await api().get('/api/v1/creators', { perPage: 3 });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ty-credits']).toBe('997');
    expect(ok.headers['x-ty-rate-limit-total']).toBe('60');
    expect(ok.headers['x-ty-rate-limit-remaining']).toBe('59');
    const bad = await api().get(search, { page: 0 });
    expect(bad.status).toBe(400);
    expect(bad.headers['x-ty-credits']).toBe('997');
    expect(bad.headers['x-ty-rate-limit-remaining']).toBe('58');
    const missing = await api().get('/api/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-ty-rate-limit-remaining']).toBe('57');
  });
});

describe('credits', () => {
  it('charges per item and answers 402 without charging when the balance is short', async () => {
    await start(60, 5);
    const first = await api().get('/api/v1/creators', { perPage: 4 });
    expect(first.status).toBe(200);
    expect(sandbox.credits(KEY)).toBe(1);
    // Four profiles would cost 4 with a balance of 1: all or nothing.
    const short = await api().get('/api/v1/creators', { perPage: 4 });
    expect(short.status).toBe(402);
    expect(short.json).toEqual({ code: 402, message: expect.stringContaining('Insufficient credits') });
    expect(sandbox.credits(KEY)).toBe(1);
    const songs = await api().get('/api/v1/songs', { action: 'countries' });
    expect(songs.status).toBe(402);
    expect(songs.json).toEqual({ error: expect.stringContaining('Insufficient credits') });
    sandbox.setCredits(KEY, 0);
    const empty = await api().post('/api/v1/viral-content', { hook: 'no post has this hook' });
    expect(empty.status).toBe(402);
    expect(empty.headers['x-ty-credits']).toBe('0');
    // Free operations keep working at zero.
    expect((await api().get(search)).status).toBe(200);
    expect((await api().get('/api/v2/crm/lists')).status).toBe(200);
    expect((await api().get('/api/v1/agent/projects')).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After in the body shape of each family, and recovers after the window', async () => {
    await start(3);
    for (let i = 0; i < 3; i++) expect((await api().get(search)).status).toBe(200);
    clock += 20_000;
    const creators = await api().get(search);
    expect(creators.status).toBe(429);
    expect(creators.headers['retry-after']).toBe('40');
    expect(creators.headers['x-ty-rate-limit-remaining']).toBe('0');
    expect(creators.json).toEqual({ code: 429, message: expect.any(String) });
    const crm = await api().get('/api/v2/crm/lists');
    expect(crm.status).toBe(429);
    expect(crm.json).toEqual({ detail: expect.any(String) });
    const viral = await api().post('/api/v1/viral-content', {});
    expect(viral.status).toBe(429);
    expect(viral.json).toEqual({ error: 'Too many requests', retryAfter: 40 });
    clock += 40_000;
    const again = await api().get(search);
    expect(again.status).toBe(200);
    expect(again.headers['x-ty-rate-limit-remaining']).toBe('2');
  });

  it('honours a per-key limit', async () => {
    await start(60);
    sandbox.addKey({ key: 'slow', teamId: 'team-a', credits: 10, rateLimitPerMinute: 1 });
    const slow = clientFor(sandbox, 'slow');
    expect((await slow.get(search)).headers['x-ty-rate-limit-total']).toBe('1');
    expect((await slow.get(search)).status).toBe(429);
    expect((await api().get(search)).status).toBe(200);
  });
});

describe('injected faults', () => {
  it('answers the next requests with a rate-limit fault, then works again; faults count as requests', async () => {
    await start(60);
    sandbox.injectFaults(KEY, { kind: 'rate-limit', retryAfterSeconds: 7 }, 2);
    const first = await api().get('/api/v2/crm/lists');
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('7');
    expect(first.json).toEqual({ detail: expect.any(String) });
    const second = await api().get('/api/v1/agent/projects');
    expect(second.json).toEqual({ error: 'Too many requests', retryAfter: 7 });
    const third = await api().get(search);
    expect(third.status).toBe(200);
    expect(third.headers['x-ty-rate-limit-remaining']).toBe('57');
  });

  it('answers server errors with the chosen 5xx and charges nothing', async () => {
    await start();
    sandbox.injectFaults(KEY, { kind: 'server-error' });
    sandbox.injectFaults(KEY, { kind: 'server-error', status: 503 });
    const first = await api().get('/api/v1/creators');
    expect(first.status).toBe(500);
    expect(first.json).toEqual({ code: 500, message: expect.any(String) });
    expect((await api().get('/api/v1/creators')).status).toBe(503);
    expect(sandbox.credits(KEY)).toBe(1000);
  });

  it('answers 200 with a body that is not JSON', async () => {
    await start();
    sandbox.injectFaults(KEY, { kind: 'malformed-json' });
    const answer = await api().get(search);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('application/json');
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  it('answers any status, body and headers with an error-shape fault', async () => {
    await start();
    sandbox.injectFaults(KEY, {
      kind: 'error-shape',
      status: 418,
      body: { weird: true },
      headers: { 'x-odd': '1' },
    });
    sandbox.injectFaults(KEY, { kind: 'error-shape', status: 502, body: '<html>Bad gateway</html>' });
    const odd = await api().get(search);
    expect(odd.status).toBe(418);
    expect(odd.json).toEqual({ weird: true });
    expect(odd.headers['x-odd']).toBe('1');
    const html = await api().get(search);
    expect(html.status).toBe(502);
    expect(html.text).toBe('<html>Bad gateway</html>');
  });

  it('holds a timeout request until the client gives up, and stop() closes held requests', async () => {
    await start();
    sandbox.injectFaults(KEY, { kind: 'timeout' }, 2);
    const url = `${sandbox.url}${search}`;
    const headers = { 'x-ty-api-key': KEY };
    await expect(request(url, { headers, headersTimeout: 100 })).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    const held = request(url, { headers });
    await expect.poll(() => sandbox.requests(KEY).length).toBe(2);
    expect(sandbox.requests(KEY).map((r) => r.status)).toEqual([0, 0]);
    await sandbox.stop();
    await expect(held).rejects.toThrow();
  });

  it('accepts faults over HTTP on the admin route, without a key', async () => {
    await start();
    const health = await call(sandbox.url, 'GET', '/__sandbox/health', { key: null });
    expect(health.json).toMatchObject({ status: 'ok', url: sandbox.url, mediaUrl: sandbox.mediaUrl });
    const injected = await call(sandbox.url, 'POST', '/__sandbox/faults', {
      key: null,
      body: { key: KEY, fault: { kind: 'server-error', status: 504 }, count: 1 },
    });
    expect(injected.status).toBe(200);
    expect((await api().get(search)).status).toBe(504);
    const unknown = await call(sandbox.url, 'POST', '/__sandbox/faults', {
      key: null,
      body: { key: 'nobody', fault: { kind: 'timeout' } },
    });
    expect(unknown.status).toBe(404);
    const invalid = await call(sandbox.url, 'POST', '/__sandbox/faults', {
      key: null,
      body: { key: KEY, fault: { kind: 'server-error', status: 200 } },
    });
    expect(invalid.status).toBe(400);
    expect(sandbox.requests().every((r) => !r.path.startsWith('/__sandbox'))).toBe(true);
  });
});

describe('robustness', () => {
  const raw = (method: string, path: string, body: string | Buffer, contentType = 'application/json') =>
    request(`${sandbox.url}${path}`, {
      method: method as 'POST',
      headers: { 'x-ty-api-key': KEY, 'content-type': contentType },
      body,
    });

  it('answers malformed JSON with 400 in the family shape', async () => {
    await start();
    const crm = await raw('POST', '/api/v2/crm/lists', '{"name": ');
    expect(crm.statusCode).toBe(400);
    expect(await crm.body.json()).toEqual({ detail: 'The request body is not valid JSON' });
    const get = await raw('POST', '/api/v2/creators/get', '[1,');
    expect(await get.body.json()).toEqual({ code: 400, message: 'The request body is not valid JSON' });
    const viral = await raw('POST', '/api/v1/viral-content', 'nope');
    expect(await viral.body.json()).toEqual({ error: 'The request body is not valid JSON' });
  });

  it('answers a non-JSON content type with 415', async () => {
    await start();
    const answer = await raw(
      'POST',
      '/api/v1/viral-content',
      'pageSize=1',
      'application/x-www-form-urlencoded',
    );
    expect(answer.statusCode).toBe(415);
    await answer.body.dump();
  });

  it('answers wrong methods with 405 and Allow, unknown paths with 404', async () => {
    await start();
    const wrong = await api().delete('/api/v2/creators/search');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
    expect(wrong.json).toEqual({ code: 405, message: expect.any(String) });
    const unknown = await api().get('/api/v2/crm/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ detail: expect.any(String) });
    const root = await clientFor(sandbox, null).get('/');
    expect(root.status).toBe(404);
    // Media operations live under the media base only.
    expect((await api().post('/api/v1/remix', { video_url: 'https://x.example.com/a.mp4' })).status).toBe(
      404,
    );
  });

  it('caps bodies at 1 MB with 413 and keeps serving', async () => {
    await start();
    const huge = await raw('POST', '/api/v1/viral-content', Buffer.alloc(1024 * 1024 + 10, 0x20));
    expect(huge.statusCode).toBe(413);
    expect(await huge.body.json()).toEqual({ error: expect.stringContaining('exceeds') });
    expect((await api().get(search)).status).toBe(200);
  });

  it('survives hostile paths and bodies', async () => {
    await start();
    expect((await api().get('/api/v2/crm/lists/%E0%A4%A')).status).toBe(404);
    expect((await api().post('/api/v2/creators/get', { userIds: [{ $ne: 1 }] })).status).toBe(400);
    expect((await api().post('/api/v1/viral-content', { categories: 'Food' })).status).toBe(400);
    expect((await api().post('/api/v1/viral-content', [1, 2])).status).toBe(400);
    expect((await api().get(search, { followersMin: 'lots' })).status).toBe(400);
    expect((await api().get(search)).status).toBe(200);
  });

  it('logs every request with its key, body and answered status', async () => {
    await start();
    await api().post('/api/v2/creators/get', { userIds: ['x'] });
    await clientFor(sandbox, null).get(search, { page: 2 });
    const log = sandbox.requests();
    expect(log).toEqual([
      {
        method: 'POST',
        path: '/api/v2/creators/get',
        query: {},
        body: { userIds: ['x'] },
        key: KEY,
        status: 200,
        at: FIXED_NOW,
      },
      {
        method: 'GET',
        path: search,
        query: { page: '2' },
        body: undefined,
        key: null,
        status: 401,
        at: FIXED_NOW,
      },
    ]);
    expect(sandbox.requests(KEY)).toHaveLength(1);
  });
});
