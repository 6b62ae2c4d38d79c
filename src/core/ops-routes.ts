/**
 * The operator endpoints, served wherever Scout listens: `GET /readyz` (200 when every readiness check passes, else
 * 503, with each check's result) and `GET /metrics` (the metrics registry in the Prometheus text format).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { Readiness } from './readiness.js';

/** The readiness path. */
export const READY_PATH = '/readyz';
/** The metrics path. */
export const METRICS_PATH = '/metrics';

/** What the endpoints serve. */
export interface OpsRoutesOptions {
  readiness: Readiness;
  metrics: Metrics;
  logger: Logger;
}

/** Serves a request when it is one of the endpoints (returns true); returns false for any other request. */
export type OpsRoutes = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The path of a request target, without its query; null when it cannot be read. */
function pathOf(req: IncomingMessage): string | null {
  try {
    return new URL(req.url ?? '', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

/** Creates the handler of `/readyz` and `/metrics`. */
export function createOpsRoutes(options: OpsRoutesOptions): OpsRoutes {
  const { readiness, metrics } = options;
  const logger = options.logger.child({ component: 'ops' });
  const ready = (res: ServerResponse) => {
    void readiness.report().then((report) => {
      const body = JSON.stringify(report);
      res.writeHead(report.ready ? 200 : 503, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    });
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
    const path = pathOf(req);
    if (path !== READY_PATH && path !== METRICS_PATH) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Length': '0' });
      res.end();
      return true;
    }
    if (path === READY_PATH) ready(res);
    else scrape(res);
    return true;
  };
}
