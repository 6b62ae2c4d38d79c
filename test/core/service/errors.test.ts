import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeErrorBody,
  errorFromAnswer,
  RAW_BODY_LIMIT,
  ServiceError,
  SHOWN_MESSAGE_LIMIT,
} from '../../../src/core/service/errors.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('decodeErrorBody', () => {
  it('reads shape A {code, message}', () => {
    expect(decodeErrorBody('{"code":400,"message":"perPage must be at most 100"}')).toEqual({
      message: 'perPage must be at most 100',
      retryAfter: null,
    });
  });

  it('reads shape B {detail} as a string or a FastAPI list', () => {
    expect(decodeErrorBody('{"detail":"List not found"}').message).toBe('List not found');
    const fastapi = JSON.stringify({
      detail: [
        { loc: ['body', 'userIds'], msg: 'field required', type: 'value_error.missing' },
        { loc: ['query', 'page'], msg: 'must be >= 1' },
      ],
    });
    expect(decodeErrorBody(fastapi).message).toBe('userIds: field required; page: must be >= 1');
  });

  it('reads shape C {error, retryAfter}', () => {
    expect(decodeErrorBody('{"error":"Too many requests","retryAfter":45}')).toEqual({
      message: 'Too many requests',
      retryAfter: 45,
    });
  });

  it('yields nulls for bodies that are not JSON or say nothing', () => {
    expect(decodeErrorBody('<html>Bad gateway</html>')).toEqual({ message: null, retryAfter: null });
    expect(decodeErrorBody('{}')).toEqual({ message: null, retryAfter: null });
  });
});

describe('errorFromAnswer', () => {
  const answer = (status: number, body = '{}', retryAfterHeader: number | null = null) =>
    errorFromAnswer({ operation: 'crm.getList', status, body, retryAfterHeader });

  it('maps each status to a stable code with an actionable message', () => {
    expect(answer(401).code).toBe('INVALID_API_KEY');
    expect(answer(401).message).toContain('SCOUT_API_KEY');
    expect(answer(402).code).toBe('PAYMENT_REQUIRED');
    expect(answer(402).message).toMatch(/credits|subscription/);
    expect(answer(403).code).toBe('FORBIDDEN');
    expect(answer(404).code).toBe('NOT_FOUND');
    expect(answer(400).code).toBe('BAD_REQUEST');
    expect(answer(422).code).toBe('BAD_REQUEST');
    expect(answer(429).code).toBe('RATE_LIMITED');
    expect(answer(500).code).toBe('SERVICE_UNAVAILABLE');
    expect(answer(503).code).toBe('SERVICE_UNAVAILABLE');
  });

  it("repeats the service's own message on a bad request", () => {
    const error = answer(422, '{"detail":"status must be one of TO_OUTREACH, DONE"}');
    expect(error.message).toBe('The service rejected the request: status must be one of TO_OUTREACH, DONE.');
    expect(error.serviceMessage).toBe('status must be one of TO_OUTREACH, DONE');
    expect(error.status).toBe(422);
    expect(error.operation).toBe('crm.getList');
  });

  it("shows the service's own message after Scout's explanation of a refused key or payment", () => {
    expect(answer(401, '{"detail":"API key revoked on 2026-05-01"}').message).toBe(
      'The service rejected the API key: it is wrong or revoked. Ask an admin to connect a valid one (/scout connect), or to set SCOUT_API_KEY where one key serves every team. The service said: “API key revoked on 2026-05-01”',
    );
    expect(answer(402, '{"error":"Insufficient credits: 3 left"}').message).toBe(
      'The service needs payment: the key is out of credits or has no active subscription. Top up credits or renew the subscription, then try again. The service said: “Insufficient credits: 3 left”',
    );
    expect(answer(401, '').message).toBe(
      'The service rejected the API key: it is wrong or revoked. Ask an admin to connect a valid one (/scout connect), or to set SCOUT_API_KEY where one key serves every team.',
    );
    expect(answer(402, '{"code":402}').message).not.toContain('The service said');
  });

  it("shows the service's message on one line, without control characters, cut short", () => {
    const hostile = `key\r\nrevoked \u001b[31mred\u202e ${'x'.repeat(10_000)}`;
    for (const status of [401, 402, 403, 500]) {
      const error = answer(status, JSON.stringify({ message: hostile }));
      const shown = /The service said: “(.*)”$/s.exec(error.message)?.[1] ?? '';
      expect(shown.startsWith('key revoked [31mred x')).toBe(true);
      expect(shown.length).toBeLessThanOrEqual(SHOWN_MESSAGE_LIMIT);
      expect(shown.endsWith('…')).toBe(true);
      for (const unsafe of ['\n', '\r', '\u001b', '\u202e']) expect(error.message).not.toContain(unsafe);
      // The whole message stays kept for the log.
      expect(error.serviceMessage?.length).toBeGreaterThan(10_000);
    }
  });

  it('prefers the Retry-After header over the body', () => {
    expect(answer(429, '{"error":"slow down","retryAfter":45}', 3).retryAfter).toBe(3);
    expect(answer(429, '{"error":"slow down","retryAfter":45}').retryAfter).toBe(45);
    expect(answer(429, '{"code":429,"message":"Too many"}').retryAfter).toBeNull();
  });

  it('keeps a truncated raw body for the log', () => {
    const long = `"${'x'.repeat(RAW_BODY_LIMIT * 2)}"`;
    const error = answer(500, long);
    expect(error.rawBody?.length).toBe(RAW_BODY_LIMIT + 1);
  });
});

describe('error shapes over HTTP (sandbox)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ client: { retry: { maxAttempts: 1 } } });
  });
  afterAll(async () => {
    await h.stop();
  });

  const cases = [
    { status: 400, body: { code: 400, message: 'perPage must be between 1 and 100' }, code: 'BAD_REQUEST' },
    { status: 401, body: { detail: 'Invalid API key' }, code: 'INVALID_API_KEY' },
    { status: 402, body: { error: 'Insufficient credits' }, code: 'PAYMENT_REQUIRED' },
    { status: 403, body: { detail: 'Subscription inactive' }, code: 'FORBIDDEN' },
    { status: 404, body: { detail: 'List x not found' }, code: 'NOT_FOUND' },
    {
      status: 422,
      body: { detail: [{ loc: ['body', 'name'], msg: 'field required' }] },
      code: 'BAD_REQUEST',
    },
    { status: 500, body: { error: 'Internal server error' }, code: 'SERVICE_UNAVAILABLE' },
    { status: 502, body: '<html>bad gateway</html>', code: 'SERVICE_UNAVAILABLE' },
  ] as const;

  for (const c of cases) {
    it(`answers ${c.status} ${JSON.stringify(c.body).slice(0, 40)} with ${c.code}`, async () => {
      h.sandbox.injectFaults(KEY, { kind: 'error-shape', status: c.status, body: c.body });
      const error = await h.client.crm.listLists().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      const e = error as ServiceError;
      expect(e.code).toBe(c.code);
      expect(e.status).toBe(c.status);
      expect(e.operation).toBe('crm.listLists');
      expect(e.rawBody).toBe(typeof c.body === 'string' ? c.body : JSON.stringify(c.body));
    });
  }

  it('reads a FastAPI detail list into the message', async () => {
    h.sandbox.injectFaults(KEY, {
      kind: 'error-shape',
      status: 422,
      body: { detail: [{ loc: ['body', 'name'], msg: 'field required' }] },
    });
    const error = (await h.client.crm.createList({ name: 'x' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.message).toBe('The service rejected the request: name: field required.');
  });

  it('decodes the real 401 of a wrong key and the real 402 of an empty balance', async () => {
    const wrong = h.clientWith({ apiKey: 'not-a-key' });
    const error = (await wrong.creators.search({}).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('INVALID_API_KEY');
    await wrong.stop();

    h.sandbox.setCredits(KEY, 0);
    const broke = (await h.client.creators.list({ perPage: 5 }).catch((e: unknown) => e)) as ServiceError;
    expect(broke.code).toBe('PAYMENT_REQUIRED');
    expect(broke.serviceMessage).toMatch(/credits/i);
    h.sandbox.setCredits(KEY, 1000);
  });

  it('decodes the real 404 of an unknown list with its shape B message', async () => {
    const error = (await h.client.crm.getList({ listId: 'nope' }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('List nope not found');
  });
});
