import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY, isRetryable, sleep } from '../../../src/core/service/retry.js';

describe('retry policy', () => {
  it('repeats reads on server errors, timeouts and network failures', () => {
    for (const code of ['SERVICE_UNAVAILABLE', 'TIMEOUT', 'NETWORK_ERROR', 'RATE_LIMITED'] as const) {
      expect(isRetryable({ code, sent: true }, true)).toBe(true);
    }
    for (const code of [
      'BAD_REQUEST',
      'NOT_FOUND',
      'INVALID_API_KEY',
      'PAYMENT_REQUIRED',
      'BAD_RESPONSE',
    ] as const) {
      expect(isRetryable({ code, sent: true }, true)).toBe(false);
    }
  });

  it('repeats writes only when they provably were not processed', () => {
    expect(isRetryable({ code: 'RATE_LIMITED', sent: true }, false)).toBe(true);
    expect(isRetryable({ code: 'NETWORK_ERROR', sent: false }, false)).toBe(true);
    expect(isRetryable({ code: 'NETWORK_ERROR', sent: true }, false)).toBe(false);
    expect(isRetryable({ code: 'SERVICE_UNAVAILABLE', sent: true }, false)).toBe(false);
    expect(isRetryable({ code: 'TIMEOUT', sent: true }, false)).toBe(false);
  });

  it('backs off exponentially with jitter, capped', () => {
    const settings = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffDelay(1, settings, () => 0)).toBe(50);
    expect(backoffDelay(1, settings, () => 1)).toBe(100);
    expect(backoffDelay(3, settings, () => 0)).toBe(200);
    expect(backoffDelay(3, settings, () => 1)).toBe(400);
    expect(backoffDelay(10, settings, () => 1)).toBe(1_000);
  });

  it('sleeps until aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal).catch((e: unknown) => e);
    controller.abort(new Error('stop'));
    expect(((await pending) as Error).message).toBe('stop');
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});
