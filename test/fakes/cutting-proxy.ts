/**
 * A TCP proxy in front of the sandbox that loses answers the way a flaky network does: the request reaches the
 * service (which processes and charges it), then the proxy cuts the connection instead of passing the answer on,
 * or answers with a gateway's 504. HTTP/1.1 without pipelining (undici's default), so each chunk the client sends
 * that starts with a request line starts the request whose answer comes next.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

/** What to do with the answer of one request. */
export type Fate = 'pass' | 'cut' | 'gateway-timeout' | 'slow';

/** A running proxy. */
export interface CuttingProxy {
  /** The base URL to use instead of the sandbox's. */
  readonly url: string;
  /** Answers cut or replaced so far. */
  readonly lost: number;
  stop(): Promise<void>;
}

/** How long a 'slow' answer is held back. */
export const SLOW_MS = 1_500;

const REQUEST_LINE = /^(GET|POST|PATCH|DELETE|PUT) (\S+) HTTP\/1\.1\r\n/;

const GATEWAY_TIMEOUT =
  'HTTP/1.1 504 Gateway Timeout\r\ncontent-type: text/plain\r\ncontent-length: 15\r\nconnection: close\r\n\r\nGateway Timeout';

/** Starts a proxy to `target` (an http://host:port URL); `decide` picks each request's fate by method and path. */
export async function startCuttingProxy(
  target: string,
  decide: (method: string, path: string) => Fate,
): Promise<CuttingProxy> {
  const upstreamUrl = new URL(target);
  const sockets = new Set<Socket>();
  let lost = 0;
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(Number(upstreamUrl.port), upstreamUrl.hostname);
    sockets.add(upstream);
    let fate: Fate = 'pass';
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      const line = REQUEST_LINE.exec(chunk.toString('latin1', 0, Math.min(chunk.length, 512)));
      if (line !== null) fate = decide(line[1] as string, line[2] as string);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (fate === 'pass') {
        client.write(chunk);
        return;
      }
      if (fate === 'slow') {
        // Answered, but the answer takes a while to come back: the call is in flight all that time.
        setTimeout(() => client.write(chunk), SLOW_MS);
        return;
      }
      // The service has answered, so it processed (and charged) the request: the client never learns how.
      lost += 1;
      if (fate === 'gateway-timeout') client.end(GATEWAY_TIMEOUT, close);
      else close();
      fate = 'pass';
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy did not bind');
  return {
    url: `http://127.0.0.1:${address.port}${upstreamUrl.pathname === '/' ? '' : upstreamUrl.pathname}`,
    get lost() {
      return lost;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
