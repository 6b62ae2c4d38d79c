/** Shared helpers of the sandbox tests: a fixed clock and a small undici client. */
import { request } from 'undici';
import { createSandbox, DEMO_KEY, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/** The clock of the tests: 2026-03-15T12:00:00Z. */
export const FIXED_NOW = Date.UTC(2026, 2, 15, 12);

/** An answer as the tests inspect it. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON; `text` holds the raw body. */
  json: T;
  text: string;
}

/** Starts a sandbox on the fixed clock. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = createSandbox({ now: () => FIXED_NOW, ...options });
  await sandbox.start();
  return sandbox;
}

/** Sends one request with undici; `body` is sent as JSON. */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; query?: Record<string, string | number | boolean> } = {},
): Promise<Answer<T>> {
  const url = new URL(`${base.replace(/\/$/, '')}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = options.key === undefined ? DEMO_KEY : options.key;
  if (key !== null) headers['x-ty-api-key'] = key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, {
    method: method as 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: res.statusCode, headers: flat, json: json as T, text };
}

/** A client bound to a sandbox and a key. */
export function clientFor(sandbox: Sandbox, key: string | null = DEMO_KEY, base: 'api' | 'media' = 'api') {
  const root = () => (base === 'api' ? sandbox.url : sandbox.mediaUrl);
  return {
    get: <T = Record<string, unknown>>(path: string, query?: Record<string, string | number | boolean>) =>
      call<T>(root(), 'GET', path, query ? { key, query } : { key }),
    post: <T = Record<string, unknown>>(path: string, body?: unknown) =>
      call<T>(root(), 'POST', path, body === undefined ? { key } : { key, body }),
    patch: <T = Record<string, unknown>>(path: string, body?: unknown) =>
      call<T>(root(), 'PATCH', path, body === undefined ? { key } : { key, body }),
    delete: <T = Record<string, unknown>>(path: string) => call<T>(root(), 'DELETE', path, { key }),
  };
}
