/**
 * The operator server's endpoints over real HTTP: each path served exactly as written (a query string aside), HEAD
 * like GET without a body, 405 for other methods, 404 for every other spelling; and /healthz still answered while
 * one client holds connections open with half-sent requests, which are cut off within seconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { clientOf, OPS_SERVER_LIMITS } from '../../../src/core/ops-routes.js';
import { createOpsServer, type OpsServer } from '../../../src/core/ops-server.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import {
  CHECK_INTERVAL_MS,
  closeAll,
  expectMethods,
  expectOnlyExactPaths,
  type HalfSent,
  HEADERS_TIMEOUT_MS,
  halfSent,
  halfSentMany,
  MAX_CONNECTIONS,
  MAX_CONNECTIONS_PER_CLIENT,
  send,
  until,
} from './probe.js';

const logger = createLogger({ level: 'silent' });

let h: Harness | undefined;
let ops: OpsServer | undefined;
const clients: HalfSent[] = [];
afterEach(async () => {
  closeAll(clients.splice(0));
  await ops?.stop();
  await h?.stop();
  ops = undefined;
  h = undefined;
});

async function start(limits: Parameters<typeof createOpsServer>[0]['limits'] = {}) {
  h = await startHarness({});
  ops = createOpsServer({ app: h.app, port: 0, logger, limits });
  await ops.start();
  return ops.port;
}

describe('operator server', () => {
  it('serves /healthz, /readyz and /metrics to GET and HEAD, and 405 to other methods', async () => {
    const port = await start();
    await expectMethods(port);
    const health = await send(port, 'GET', '/healthz');
    expect(health.headers['content-type']).toContain('application/json');
    expect(JSON.parse(health.body)).toEqual({ ok: true });
  });

  it('serves each path only as written: every other spelling is 404', async () => {
    await expectOnlyExactPaths(await start());
  });

  it('runs with the limits the tests assume', () => {
    expect(OPS_SERVER_LIMITS).toMatchObject({
      maxConnections: MAX_CONNECTIONS,
      maxConnectionsPerClient: MAX_CONNECTIONS_PER_CLIENT,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      checkIntervalMs: CHECK_INTERVAL_MS,
    });
  });

  it('keeps /healthz answered while one client holds every connection it can with half-sent requests', async () => {
    const port = await start();
    const maxConnections = MAX_CONNECTIONS;
    const maxConnectionsPerClient = MAX_CONNECTIONS_PER_CLIENT;
    // One client (127.0.0.2) opens as many connections as the server takes in all.
    const attack = await halfSentMany(port, maxConnections, '127.0.0.2');
    clients.push(...attack);
    // Those over its share are closed at once; its share stays open (until the header timeout).
    await until(
      () => attack.filter((c) => c.isClosed()).length === maxConnections - maxConnectionsPerClient,
      2000,
      'connections over the per-client cap closed',
    );
    expect(attack.filter((c) => !c.isClosed())).toHaveLength(maxConnectionsPerClient);
    // Another client (the health check) is served.
    const health = await send(port, 'GET', '/healthz');
    expect(health.status).toBe(200);
    // So is a second attacker's share, and the health check still.
    const second = await halfSentMany(port, maxConnectionsPerClient + 4, '127.0.0.3');
    clients.push(...second);
    await until(() => second.filter((c) => c.isClosed()).length === 4, 2000, 'second client capped');
    expect((await send(port, 'GET', '/healthz')).status).toBe(200);
  });

  it('drops a half-sent request after the header timeout', async () => {
    const port = await start({ headersTimeoutMs: 300, requestTimeoutMs: 300, checkIntervalMs: 50 });
    const slow = await halfSent(port);
    clients.push(slow);
    const started = Date.now();
    await until(() => slow.isClosed(), 2000, 'half-sent request dropped');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('counts a client by its IPv4 address, or the /64 of its IPv6 address', () => {
    expect(clientOf('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientOf('10.0.0.7')).toBe('10.0.0.7');
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe(clientOf('2001:DB8:1:2::ffff'));
    expect(clientOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:3::1')).not.toBe(clientOf('2001:db8:1:2::1'));
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
