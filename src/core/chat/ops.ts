/**
 * The operator endpoints (`/healthz`, `/readyz`, `/metrics`, see core/ops-routes.ts) as an adapter serves them on
 * the servers it listens with (Slack's HTTP server, the install pages of Bolt's Socket Mode receiver), or on a
 * server of their own it starts (Slack's single-team Socket Mode health server).
 */
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { createOpsRoutes, type OpsRoutes } from '../ops-routes.js';
import { createOpsServer, type OpsServer } from '../ops-server.js';
import type { Readiness } from '../readiness.js';

/** The operator endpoints of the app, for an adapter's servers. */
export interface OperatorEndpoints {
  /** The endpoints' handler; `/healthz` answers 503 while `live` says false. */
  routes(live: () => boolean): OpsRoutes;
  /** A server of the endpoints alone on `port` (0: any free one), listening at start(). */
  server(port: number, live: () => boolean): OpsServer;
}

/** Creates the endpoints over the app's readiness checks and metrics. */
export function createOperatorEndpoints(parts: {
  readiness: Readiness;
  metrics: Metrics;
  logger: Logger;
}): OperatorEndpoints {
  const { readiness, metrics, logger } = parts;
  return {
    routes: (live) => createOpsRoutes({ readiness, metrics, logger, live }),
    server: (port, live) => createOpsServer({ app: { readiness, metrics }, port, logger, live }),
  };
}
