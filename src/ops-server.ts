/**
 * The operator server, for a Scout with no Slack server of its own (Discord only, or the terminal): `GET /healthz`
 * (200 while the process serves), `GET /readyz` and `GET /metrics` on PORT. Slack's servers serve the same routes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';
import type { Logger } from './core/logger.js';
import { createOpsRoutes } from './core/ops-routes.js';

/** A whole request must arrive within this time: probes and scrapes send no body. */
const REQUEST_TIMEOUT_MS = 10_000;
/** An idle keep-alive socket is closed after this long (a scraper reconnects at its next scrape). */
const IDLE_TIMEOUT_MS = 15_000;
/** Connections open at once; probes and scrapers need a few. */
const MAX_CONNECTIONS = 64;

/** What the server is built from. */
export interface OpsServerOptions {
  app: App;
  /** The port to listen on; 0 for any free one (tests). */
  port: number;
  logger: Logger;
}

/** The running (or startable) operator server. */
export interface OpsServer {
  /** Listens on the port; rejects when it cannot (a port in use). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The port listened on once started; null before. */
  readonly port: number | null;
}

/** Creates the operator server; it listens at start(). */
export function createOpsServer(options: OpsServerOptions): OpsServer {
  const { app, logger } = options;
  const routes = createOpsRoutes({ readiness: app.readiness, metrics: app.metrics, logger });
  const server: Server = createServer(
    { headersTimeout: REQUEST_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    (req, res) => {
      if (routes(req, res)) return;
      if (req.method === 'GET' && req.url?.split('?')[0] === '/healthz') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: true }));
        return;
      }
      res.writeHead(404, { 'Content-Length': '0' });
      res.end();
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  server.setTimeout(IDLE_TIMEOUT_MS);
  return {
    get port() {
      const bound = server.address();
      return bound !== null && typeof bound === 'object' ? (bound as AddressInfo).port : null;
    },
    start: () =>
      new Promise<void>((resolve, reject) => {
        const fail = (error: NodeJS.ErrnoException) =>
          reject(
            new Error(
              `The operator endpoints could not listen on PORT ${options.port} (${error.code ?? error.message}).`,
              {
                cause: error,
              },
            ),
          );
        server.once('error', fail);
        server.listen(options.port, () => {
          server.off('error', fail);
          // Once listening, an error (an accept that failed) is logged rather than left uncaught.
          server.on('error', (error) => logger.error({ err: error }, 'The operator server failed.'));
          resolve();
        });
      }),
    async stop() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
