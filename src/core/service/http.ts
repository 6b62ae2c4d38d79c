/** Wire details shared by every operation: query encoding, URLs and the accounting headers. */

/** A value the query encoder accepts. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

/** Encodes a query as public clients do: unset values omitted, booleans `true`/`false`, arrays comma-joined. */
export function encodeQuery(params: Readonly<Record<string, QueryValue>>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query.set(name, value.join(','));
    } else {
      query.set(name, String(value));
    }
  }
  return query;
}

/** Joins a base URL (which may carry a path prefix) with an operation path and a query. */
export function buildUrl(base: string, path: string, query?: URLSearchParams): URL {
  const url = new URL(base.replace(/\/+$/, '') + path);
  if (query) url.search = query.toString();
  return url;
}

/** Encodes one path segment (ids come from users and other services). */
export const segment = (value: string): string => encodeURIComponent(value);

/** Response headers as undici gives them. */
export type RawHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The accounting headers of an answer; missing or unreadable values are null. */
export interface AccountingHeaders {
  creditsRemaining: number | null;
  rateLimitRemaining: number | null;
  rateLimitTotal: number | null;
}

function header(headers: RawHeaders, name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? null : first.trim();
}

function numberHeader(headers: RawHeaders, name: string): number | null {
  const text = header(headers, name);
  if (text === null) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Reads `x-ty-credits`, `x-ty-rate-limit-remaining` and `x-ty-rate-limit-total`. */
export function readAccounting(headers: RawHeaders): AccountingHeaders {
  return {
    creditsRemaining: numberHeader(headers, 'x-ty-credits'),
    rateLimitRemaining: numberHeader(headers, 'x-ty-rate-limit-remaining'),
    rateLimitTotal: numberHeader(headers, 'x-ty-rate-limit-total'),
  };
}

/** Reads `Retry-After` in seconds: either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function readRetryAfter(headers: RawHeaders, now: number = Date.now()): number | null {
  const text = header(headers, 'retry-after');
  if (text === null) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}
