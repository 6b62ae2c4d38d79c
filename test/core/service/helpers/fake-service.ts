/** A small node:http stand-in for the service at the network edge: scripted answers and a precise arrival log. */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake received it. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** performance.now() when the request arrived. */
  at: number;
}

/** An answer of the fake. */
export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the client must give up). */
  hang?: boolean;
  /** Destroy the socket without answering. */
  destroy?: boolean;
}

/** Decides the answer to a request. */
export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** A running fake service. */
export interface FakeService {
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Replaces the handler. */
  handle(handler: FakeHandler): void;
  stop(): Promise<void>;
}

/** Starts a fake service on 127.0.0.1 with an ephemeral port. */
export async function startFakeService(
  handler: FakeHandler = () => ({ body: { message: 'OK' } }),
): Promise<FakeService> {
  let current = handler;
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const respond = (res: ServerResponse, answer: FakeAnswer) => {
    if (answer.destroy) {
      res.socket?.destroy();
      return;
    }
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const record: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      requests.push(record);
      void Promise.resolve(current(record)).then((answer) => {
        if (answer.hang) return;
        if (answer.delayMs) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            respond(res, answer);
          }, answer.delayMs);
          timers.add(timer);
        } else {
          respond(res, answer);
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Largest number of arrivals inside any window of `windowMs`. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
