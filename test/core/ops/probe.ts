/**
 * Raw HTTP/1.1 clients of the operator endpoints, for what an HTTP client would not send as written: request
 * targets no client normalises away (`/x/../metrics`, absolute-form), half-sent requests, connections from another
 * loopback address (127.0.0.2, another client as far as the server can tell).
 */
import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';

/** What the server answered, or `hung` when nothing came back in time. */
export interface RawAnswer {
  status: number | 'hung';
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `method target` on a connection of its own (closed after the answer) and reads the answer; `hung` when none
 * came within `ms`.
 */
export function send(port: number | null, method: string, target: string, ms = 3000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: port ?? 0 });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ status: 'hung', headers: {}, body: text });
    }, ms);
    socket.once('close', () => {
      clearTimeout(timer);
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? Number.NaN);
      resolve({ status, headers, body: split === -1 ? '' : text.slice(split + 4) });
    });
    socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

/** The spellings of `path` that are not `path`: each must be refused (404), never served nor left unanswered. */
export const otherSpellings = (path: string): string[] => [
  `${path}/`,
  `${path}/?x=1`,
  `//evil.com${path}`,
  `/x/..${path}`,
  `/x/%2e%2e${path}`,
  `/%2e${path}`,
  `/.${path}`,
  `${path}%2F`,
  `/%${path.charCodeAt(1).toString(16)}${path.slice(2)}`,
  `http://evil${path}`,
  `http://127.0.0.1${path}`,
];

/** The operator paths. */
export const OPS = ['/metrics', '/readyz', '/healthz'] as const;

/** The operator servers' connection caps: in all, and per client. */
export const MAX_CONNECTIONS = 64;
export const MAX_CONNECTIONS_PER_CLIENT = 16;
/** Their header timeout and how often it is checked, production values. */
export const HEADERS_TIMEOUT_MS = 5_000;
export const CHECK_INTERVAL_MS = 1_000;

/**
 * Checks the methods every server of the operator endpoints answers: each path as GET (a query string allowed) and
 * HEAD (the same headers, no body), and 405 with `Allow: GET, HEAD` for any other method.
 */
export async function expectMethods(port: number | null): Promise<void> {
  for (const path of OPS) {
    const get = await send(port, 'GET', `${path}?probe=1`);
    expect(get.status, `GET ${path}?probe=1`).toBe(200);
    expect(get.body.length, `GET ${path}`).toBeGreaterThan(0);
    const head = await send(port, 'HEAD', path);
    expect(head.status, `HEAD ${path}`).toBe(200);
    expect(head.body, `HEAD ${path}`).toBe('');
    expect(head.headers['content-type'], `HEAD ${path}`).toBe(get.headers['content-type']);
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const refused = await send(port, method, path);
      expect(refused.status, `${method} ${path}`).toBe(405);
      expect(refused.headers.allow, `${method} ${path}`).toBe('GET, HEAD');
    }
  }
}

/** Checks that every other spelling of the paths is answered 404: never served, never left unanswered. */
export async function expectOnlyExactPaths(port: number | null): Promise<void> {
  for (const path of OPS) {
    for (const target of otherSpellings(path)) {
      const other = await send(port, 'GET', target);
      expect(other.status, `GET ${target}`).toBe(404);
      expect(other.body, `GET ${target}`).not.toContain('scout_');
    }
  }
}

/** A connection that sent part of a request's headers and nothing more. */
export interface HalfSent {
  readonly socket: Socket;
  isClosed(): boolean;
  readonly closed: Promise<void>;
  /** What the server sent. */
  received(): string;
}

/** Opens a connection from `localAddress` to 127.0.0.1:`port` and sends a request's first header lines only. */
export function halfSent(port: number | null, localAddress = '127.0.0.1'): Promise<HalfSent> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: port ?? 0, localAddress });
    let closed = false;
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    const onClose = new Promise<void>((done) =>
      socket.once('close', () => {
        closed = true;
        done();
      }),
    );
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', () =>
        resolve({ socket, isClosed: () => closed, closed: onClose, received: () => text }),
      );
    });
    socket.once('error', reject);
  });
}

/** Opens `count` half-sent connections from `localAddress`. */
export const halfSentMany = (port: number | null, count: number, localAddress: string) =>
  Promise.all(Array.from({ length: count }, () => halfSent(port, localAddress)));

/** Waits until `check` holds, polling; fails after `ms`. */
export async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not in ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Closes every connection of `clients`. */
export const closeAll = (clients: readonly HalfSent[]) => {
  for (const client of clients) client.socket.destroy();
};
