/**
 * The operator server, for a Scout with no Slack server of its own (Discord only, or the terminal), and the health
 * server of Slack's single-team Socket Mode: `/healthz` (200 while the process serves), `/readyz` and `/metrics` on
 * PORT, within OPS_SERVER_LIMITS (one client cannot take every connection, half-sent requests are dropped within
 * seconds). Slack's servers serve the same routes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListenError } from './errors.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import {
  createOpsRoutes,
  limitServer,
  notFound,
  OPS_SERVER_LIMITS,
  type ServerLimits,
} from './ops-routes.js';
import type { Readiness } from './readiness.js';

/** What the server is built from. */
export interface OpsServerOptions {
  /** What it serves: the app's readiness checks and metrics. */
  app: { readonly readiness: Readiness; readonly metrics: Metrics };
  /** The port to listen on; 0 for any free one (tests). */
  port: number;
  logger: Logger;
  /** Whether the process serves (`/healthz` answers 503 while it does not); always, when not given. */
  live?: () => boolean;
  /** Limits over OPS_SERVER_LIMITS (tests). */
  limits?: Partial<ServerLimits>;
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
  const routes = createOpsRoutes({
    readiness: app.readiness,
    metrics: app.metrics,
    logger,
    ...(options.live === undefined ? {} : { live: options.live }),
  });
  const server: Server = createServer((req, res) => {
    if (!routes(req, res)) notFound(res);
  });
  limitServer(server, { ...OPS_SERVER_LIMITS, ...options.limits });
  return {
    get port() {
      const bound = server.address();
      return bound !== null && typeof bound === 'object' ? (bound as AddressInfo).port : null;
    },
    start: () =>
      new Promise<void>((resolve, reject) => {
        const fail = (error: NodeJS.ErrnoException) =>
          reject(
            new ListenError(
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
