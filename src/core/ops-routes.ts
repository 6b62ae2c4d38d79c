/**
 * The operator endpoints, served wherever Scout listens: `/healthz` (liveness), `/readyz` (200 when every readiness
 * check passes, else 503, with each check's result) and `/metrics` (the metrics registry in the Prometheus text
 * format); and the limits every server that serves them runs with.
 *
 * A path is matched on the raw request target, exactly: a query string is allowed, but no other spelling of the
 * path (`/metrics/`, `//host/metrics`, `/x/../metrics`, `/%2e/metrics`, absolute-form `http://host/metrics`), so
 * that a proxy rule on `/metrics` cannot be bypassed. `GET` and `HEAD` are served; any other method gets 405.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { Readiness } from './readiness.js';

/** The liveness path. */
export const HEALTH_PATH = '/healthz';
/** The readiness path. */
export const READY_PATH = '/readyz';
/** The metrics path. */
export const METRICS_PATH = '/metrics';
/** Every path of the operator endpoints. */
export const OPS_PATHS: readonly string[] = [HEALTH_PATH, READY_PATH, METRICS_PATH];

/** What the endpoints serve. */
export interface OpsRoutesOptions {
  readiness: Readiness;
  metrics: Metrics;
  logger: Logger;
  /** Whether the process serves: `/healthz` answers 200 while it does, else 503. Always, when not given. */
  live?: () => boolean;
}

/** Serves a request when it is one of the endpoints (returns true); returns false for any other request. */
export type OpsRoutes = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The path of the raw request target, without its query: nothing decoded, resolved or stripped. */
export function targetPath(req: IncomingMessage): string {
  const target = req.url ?? '';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** Answers 404 with no body, unless an answer was started already. */
export function notFound(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(404, { 'Content-Length': '0' });
  res.end();
}

/** Creates the handler of `/healthz`, `/readyz` and `/metrics`. */
export function createOpsRoutes(options: OpsRoutesOptions): OpsRoutes {
  const { readiness, metrics } = options;
  const live = options.live ?? (() => true);
  const logger = options.logger.child({ component: 'ops' });
  const json = (res: ServerResponse, status: number, value: unknown) => {
    const body = JSON.stringify(value);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(body),
    });
    // A HEAD request gets the headers only: Node leaves the body out.
    res.end(body);
  };
  const health = (res: ServerResponse) => {
    const ok = live();
    json(res, ok ? 200 : 503, { ok });
  };
  const ready = (res: ServerResponse) => {
    readiness.report().then(
      (report) => json(res, report.ready ? 200 : 503, report),
      (error: unknown) => {
        logger.error({ err: error }, 'The readiness checks could not be run.');
        if (!res.headersSent) res.writeHead(500, { 'Content-Length': '0' });
        res.end();
      },
    );
  };
  const scrape = (res: ServerResponse) => {
    metrics.exposition().then(
      (text) => {
        res.writeHead(200, {
          'Content-Type': metrics.contentType,
          'Cache-Control': 'no-store',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'The metrics could not be collected.');
        if (!res.headersSent) res.writeHead(500, { 'Content-Length': '0' });
        res.end();
      },
    );
  };
  return (req, res) => {
    const path = targetPath(req);
    if (!OPS_PATHS.includes(path)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Length': '0' });
      res.end();
      return true;
    }
    if (path === HEALTH_PATH) health(res);
    else if (path === READY_PATH) ready(res);
    else scrape(res);
    return true;
  };
}

/**
 * The endpoints as the handler of a router that matched the request already, loosely (Bolt's custom routes take
 * `/metrics/` and `//host/metrics` for `/metrics`): every request is answered, 404 when it is not exactly one of
 * the endpoints. A router's handler that answered nothing would leave the request open forever.
 */
export function answerEvery(routes: OpsRoutes): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!routes(req, res)) notFound(res);
  };
}

/** What one connection may cost a server. */
export interface ServerLimits {
  /** Time for a request's headers to arrive. */
  headersTimeoutMs: number;
  /** Time for a whole request to arrive. */
  requestTimeoutMs: number;
  /** Time a socket may stay idle. */
  idleTimeoutMs: number;
  /** How often the header and request timeouts are checked (Node's default, 30 s, would let them run over). */
  checkIntervalMs: number;
  /** Connections open at once; more are closed as they arrive, so a flood cannot exhaust file descriptors. */
  maxConnections: number;
  /**
   * Connections one client (a remote address; an IPv6 /64) may hold open at once; more are closed as they arrive,
   * so that one client cannot take every connection. No such cap when not given.
   */
  maxConnectionsPerClient?: number;
}

/**
 * The limits of a server of the operator endpoints alone (the operator server, the Socket Mode health server and
 * install pages): probes and scrapers send no body and need a few connections, so one client may hold a quarter of
 * them, and a half-sent request is dropped within seconds. A health check is answered whoever else is connected.
 */
export const OPS_SERVER_LIMITS: Readonly<ServerLimits> = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  idleTimeoutMs: 15_000,
  checkIntervalMs: 1_000,
  maxConnections: 64,
  maxConnectionsPerClient: 16,
};

/** Expands an IPv6 address (no zone) into its eight groups. */
function ipv6Groups(address: string): string[] {
  const expand = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [group];
          // An embedded IPv4 address, the last 32 bits.
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const [head = '', tail] = address.split('::');
  const left = expand(head);
  const right = tail === undefined ? [] : expand(tail);
  const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0');
  return [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, '').toLowerCase());
}

/**
 * The client a connection counts against: its IPv4 address (an IPv4-mapped IPv6 address counts as the IPv4 one),
 * or the /64 network of its IPv6 address, which one host typically holds whole.
 */
export function clientOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const bare = address.split('%')[0] ?? address;
  if (!bare.includes(':')) return bare;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1] !== undefined) return mapped[1];
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/**
 * Applies `limits` to `server`, before it listens (the timeout checks start when it does). Scout's servers and the
 * one Bolt's Socket Mode receiver keeps for the install pages all run with their limits set here.
 */
export function limitServer(server: Server, limits: ServerLimits): Server {
  // Node refuses a headers timeout longer than the request timeout.
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.requestTimeout = limits.requestTimeoutMs;
  // A constructor option in Node's types; the server reads the property when it starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    limits.checkIntervalMs;
  server.maxConnections = limits.maxConnections;
  server.setTimeout(limits.idleTimeoutMs);
  const perClient = limits.maxConnectionsPerClient;
  if (perClient !== undefined) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const client = clientOf(socket.remoteAddress);
      const held = open.get(client) ?? 0;
      if (held >= perClient) {
        socket.destroy();
        return;
      }
      open.set(client, held + 1);
      socket.once('close', () => {
        const left = (open.get(client) ?? 1) - 1;
        if (left > 0) open.set(client, left);
        else open.delete(client);
      });
    });
  }
  return server;
}
