import { describe, expect, it } from 'vitest';
import { buildUrl, encodeQuery, readAccounting, readRetryAfter } from '../../../src/core/service/http.js';

describe('http helpers', () => {
  it('encodes queries as public clients do', () => {
    const query = encodeQuery({
      a: 'x',
      n: 0,
      yes: true,
      no: false,
      list: ['p', 'q r'],
      empty: [],
      blank: '',
      unset: undefined,
      nothing: null,
    });
    expect(query.toString()).toBe('a=x&n=0&yes=true&no=false&list=p%2Cq+r');
  });

  it('joins base URLs with or without a prefix and trailing slash', () => {
    expect(
      buildUrl('https://api.example.com/', '/api/v1/songs', encodeQuery({ action: 'global' })).href,
    ).toBe('https://api.example.com/api/v1/songs?action=global');
    expect(buildUrl('https://example.com/media', '/api/v1/remix').href).toBe(
      'https://example.com/media/api/v1/remix',
    );
  });

  it('reads the accounting headers, null when missing or unreadable', () => {
    expect(
      readAccounting({
        'x-ty-credits': '12.5',
        'x-ty-rate-limit-remaining': '0',
        'x-ty-rate-limit-total': 'x',
      }),
    ).toEqual({
      creditsRemaining: 12.5,
      rateLimitRemaining: 0,
      rateLimitTotal: null,
    });
    expect(readAccounting({})).toEqual({
      creditsRemaining: null,
      rateLimitRemaining: null,
      rateLimitTotal: null,
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(readRetryAfter({ 'retry-after': '45' }, now)).toBe(45);
    expect(readRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30);
    expect(readRetryAfter({ 'retry-after': 'soon' }, now)).toBeNull();
    expect(readRetryAfter({}, now)).toBeNull();
  });
});
