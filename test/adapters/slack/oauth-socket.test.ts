/**
 * Many-team mode over Socket Mode: Bolt's receiver serves the install pages and /healthz on PORT, and events
 * of an installed workspace are authorized with its stored installation; a workspace without one gets nothing.
 * A PORT already taken fails start() instead of leaving an uncaught error behind a start that seemed to succeed.
 */
import { createServer } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSlackAdapter,
  INSTALL_PATH,
  REDIRECT_PATH,
  type SlackAdapter,
} from '../../../src/adapters/slack/index.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { type FakeSlack, OAUTH_CLIENT, slashCommandBody, startFakeSlack } from '../../fakes/slack-api.js';

const ENCRYPTION_KEY = 'socket-oauth-encryption-key-0123456789abcd';

let sandbox: Sandbox;
let app: App;
let slack: FakeSlack;
let adapter: SlackAdapter;
let port: number;

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

beforeAll(async () => {
  sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    keys: [{ key: 'socket-oauth-key-0001', teamId: 'team_socket', credits: 1000 }],
  });
  await sandbox.start();
  app = await createApp({
    service: { baseUrl: sandbox.url, mediaUrl: sandbox.mediaUrl },
    tenancy: { kind: 'multi', encryptionKey: ENCRYPTION_KEY },
    databasePath: ':memory:',
    logger: createLogger({ level: 'silent' }),
    families: FAMILIES,
  });
  slack = await startFakeSlack();
  port = await freePort();
  adapter = createSlackAdapter({
    config: {
      botToken: null,
      oauth: { ...OAUTH_CLIENT, stateSecret: 'socket-oauth-state-secret-01' },
      signingSecret: null,
      appToken: 'xapp-socket',
      apiUrl: slack.apiUrl,
      port,
    },
    chat: app.chat,
    logger: createLogger({ level: 'silent' }),
  });
  await adapter.start();
});

afterAll(async () => {
  await adapter.stop();
  await slack.stop();
  await app.stop();
  await sandbox.stop();
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await request(`http://127.0.0.1:${port}${path}`, { headers });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
};

describe('many-team Slack over Socket Mode', () => {
  it('serves /healthz, /readyz, /metrics and the install pages on PORT, and installs a workspace', async () => {
    expect(adapter.port).toBe(port);
    expect((await get('/healthz')).status).toBe(200);
    // The operator endpoints beside them, on the server Bolt's receiver keeps.
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ ready: true, checks: { slack: 'ok' } });
    const metrics = await get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE scout_commands_total counter');
    const started = await get(INSTALL_PATH);
    expect(started.status).toBe(302);
    const state = new URL(String(started.headers.location)).searchParams.get('state') ?? '';
    const cookie = String([started.headers['set-cookie']].flat()[0]).split(';')[0] ?? '';
    const query = new URLSearchParams({ code: slack.grant({ id: 'TS1' }), state }).toString();
    expect((await get(`${REDIRECT_PATH}?${query}`, { cookie })).status).toBe(200);
    expect(await app.store.tenants.slackInstallation('TS1')).toMatch(/^v1:/);
  });

  it('answers an installed workspace with its own token, and nobody else', async () => {
    await slack.sendEnvelope(
      'slash_commands',
      slashCommandBody({ text: 'connect', responseUrl: slack.responseUrl('installed'), teamId: 'TS1' }),
    );
    const answer = await slack.waitFor(() => slack.responses.find((r) => r.id === 'installed'));
    expect(String(answer.body.text)).toContain('No service account is connected here yet');

    await slack.sendEnvelope(
      'slash_commands',
      slashCommandBody({ text: 'connect', responseUrl: slack.responseUrl('stranger'), teamId: 'TS2' }),
    );
    await slack.sendEnvelope(
      'slash_commands',
      slashCommandBody({ text: 'help', responseUrl: slack.responseUrl('after'), teamId: 'TS1' }),
    );
    await slack.waitFor(() => slack.responses.find((r) => r.id === 'after'));
    expect(slack.responses.filter((r) => r.id === 'stranger')).toHaveLength(0);
  });
});

describe('many-team Slack over Socket Mode: a busy PORT', () => {
  it('fails start() with a clear error, and leaves nothing running', async () => {
    const busy = await freePort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(busy, resolve));
    const failing = createSlackAdapter({
      config: {
        botToken: null,
        oauth: { ...OAUTH_CLIENT, stateSecret: 'socket-oauth-state-secret-01' },
        signingSecret: null,
        appToken: 'xapp-socket',
        apiUrl: slack.apiUrl,
        port: busy,
      },
      chat: app.chat,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const sockets = slack.sockets;
      await expect(failing.start()).rejects.toThrow(
        /install pages could not listen on PORT \d+ \(EADDRINUSE\)/,
      );
      expect(failing.port).toBeNull();
      // The Socket Mode connection it opened is closed again.
      await slack.waitFor(() => slack.sockets === sockets);
      await failing.stop();
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
