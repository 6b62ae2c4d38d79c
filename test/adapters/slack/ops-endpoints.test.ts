/**
 * The operator endpoints on each server the Slack adapter listens with (HTTP mode; Socket Mode's health server with
 * one team; the install pages server Bolt's receiver keeps with many teams): each path served exactly as written,
 * HEAD like GET, 405 for other methods, 404 (never silence) for every other spelling, Bolt's loose matches
 * (`/metrics/`) included; and, in Socket Mode, the operator servers' limits: one client cannot take every
 * connection, and a half-sent request is dropped within seconds.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import {
  CHECK_INTERVAL_MS,
  closeAll,
  expectMethods,
  expectOnlyExactPaths,
  type HalfSent,
  HEADERS_TIMEOUT_MS,
  halfSent,
  halfSentMany,
  MAX_CONNECTIONS_PER_CLIENT,
  OPS,
  send,
  until,
} from '../../core/ops/probe.js';
import { type FakeSlack, OAUTH_CLIENT, startFakeSlack } from '../../fakes/slack-api.js';
import { botConfig, startWorld, type World } from './helpers.js';

const logger = createLogger({ level: 'silent' });

/** A port free a moment ago: Bolt's Socket Mode receiver takes a fixed port for its install pages. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });

/**
 * One client (127.0.0.2) opens more connections than its share, with half-sent requests: those over the share are
 * closed at once, /healthz is still answered to another client, and the rest are dropped by the header timeout.
 */
async function expectOperatorLimits(port: number | null): Promise<void> {
  const share = MAX_CONNECTIONS_PER_CLIENT;
  const attack: HalfSent[] = await halfSentMany(port, share + 4, '127.0.0.2');
  try {
    await until(
      () => attack.filter((c) => c.isClosed()).length === 4,
      2000,
      'connections over the cap closed',
    );
    const health = await send(port, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const slow = await halfSent(port, '127.0.0.3');
    attack.push(slow);
    // The header timeout, checked every second.
    const limit = HEADERS_TIMEOUT_MS + 2 * CHECK_INTERVAL_MS + 1000;
    await until(() => attack.every((c) => c.isClosed()), limit, 'half-sent requests dropped');
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  } finally {
    closeAll(attack);
  }
}

describe('Slack HTTP mode', () => {
  let world: World;
  let adapter: SlackAdapter;
  beforeAll(async () => {
    world = await startWorld();
    adapter = createSlackAdapter({ config: botConfig(world.slack), chat: world.app.chat, logger });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await world.stop();
  });

  it('serves the endpoints to GET and HEAD, and 405 to other methods, before Bolt', async () => {
    await expectMethods(adapter.port);
  });

  it('serves each path only as written: every other spelling is 404', async () => {
    await expectOnlyExactPaths(adapter.port);
  });
});

describe('Slack Socket Mode, one team: the health server', () => {
  let world: World;
  let adapter: SlackAdapter;
  beforeAll(async () => {
    world = await startWorld();
    adapter = createSlackAdapter({
      config: { ...botConfig(world.slack), signingSecret: null, appToken: 'xapp-test' },
      chat: world.app.chat,
      logger,
    });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await world.stop();
  });

  it('serves the endpoints to GET and HEAD, and 405 to other methods', async () => {
    await expectMethods(adapter.port);
  });

  it('serves each path only as written: every other spelling is 404', async () => {
    await expectOnlyExactPaths(adapter.port);
  });

  it('runs within the operator servers limits', { timeout: 20_000 }, async () => {
    await expectOperatorLimits(adapter.port);
  });
});

describe('Slack Socket Mode, many teams: the install pages server', () => {
  const KEY = 'ops-socket-encryption-key-0123456789abcdefg';
  let sandbox: Sandbox;
  let app: App;
  let slack: FakeSlack;
  let adapter: SlackAdapter;
  let port: number;
  beforeAll(async () => {
    sandbox = createSandbox({ replyIntervalMs: 0, remixDelayMs: 0 });
    await sandbox.start();
    app = await createApp({
      service: { baseUrl: sandbox.url, mediaUrl: sandbox.mediaUrl },
      tenancy: { kind: 'multi', encryptionKey: KEY },
      databasePath: ':memory:',
      logger,
      families: FAMILIES,
    });
    slack = await startFakeSlack();
    port = await freePort();
    adapter = createSlackAdapter({
      config: {
        botToken: null,
        oauth: { ...OAUTH_CLIENT, stateSecret: 'ops-socket-state-secret-0001' },
        signingSecret: null,
        appToken: 'xapp-socket',
        apiUrl: slack.apiUrl,
        port,
      },
      chat: app.chat,
      logger,
    });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await slack.stop();
    await app.stop();
    await sandbox.stop();
  });

  it('answers the paths Bolt matches loosely (a trailing slash) with 404, instead of holding them open', async () => {
    for (const path of OPS) {
      for (const method of ['GET', 'HEAD']) {
        expect((await send(port, method, `${path}/`)).status, `${method} ${path}/`).toBe(404);
      }
    }
    // Many of them leave no connection behind: each was answered and closed.
    const answers = await Promise.all(Array.from({ length: 200 }, () => send(port, 'GET', '/metrics/')));
    expect(answers.every((a) => a.status === 404)).toBe(true);
  });

  it('serves the endpoints to GET and HEAD, and 405 to other methods, and still the install pages', async () => {
    await expectMethods(port);
    expect((await send(port, 'GET', '/slack/install')).status).toBe(302);
  });

  it('serves each path only as written: every other spelling is 404', async () => {
    await expectOnlyExactPaths(port);
  });

  it('answers a request target Bolt cannot read, instead of holding it open', async () => {
    expect((await send(port, 'GET', '//')).status).toBe(400);
    expect((await send(port, 'GET', '/healthz')).status).toBe(200);
  });

  it('runs within the operator servers limits', { timeout: 20_000 }, async () => {
    await expectOperatorLimits(port);
  });
});
