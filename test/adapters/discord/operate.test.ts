/**
 * The operator endpoints with Discord (no Slack server: the operator server on PORT): /readyz says 503 until the
 * client is ready on the gateway and after it stops, 200 in between; /metrics counts the slash command and the time
 * to its deferral.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../../../src/adapters/discord/index.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createOpsServer, type OpsServer } from '../../../src/core/ops-server.js';
import { readiness, scrape } from '../../core/ops/scrape.js';
import { APP_ID, answered, createWorld, GUILD, KEY, slash, type World } from './harness.js';

let world: World | undefined;
let app: App | undefined;
let adapter: DiscordAdapter | undefined;
let ops: OpsServer | undefined;
afterEach(async () => {
  await adapter?.stop();
  await ops?.stop();
  await app?.stop();
  await world?.stop();
  adapter = undefined;
  ops = undefined;
  app = undefined;
  world = undefined;
});

describe('Discord readiness and metrics', () => {
  it('is ready only while the client is connected, and counts commands and deferrals', async () => {
    world = await createWorld();
    const { sandbox, fake, logger } = world;
    app = await createApp({
      service: {
        apiKey: KEY,
        baseUrl: sandbox.url,
        mediaUrl: sandbox.mediaUrl,
        retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      },
      databasePath: ':memory:',
      logger,
      families: FAMILIES,
    });
    adapter = createDiscordAdapter({
      config: { token: 'fake-token', applicationId: APP_ID, apiUrl: fake.apiUrl, guildIds: [GUILD] },
      chat: app.chat,
      logger,
    });
    ops = createOpsServer({ app, port: 0, logger });
    await ops.start();

    expect(await readiness(ops.port)).toEqual({
      status: 503,
      ready: false,
      checks: { database: 'ok', storage: 'ok', discord: 'not connected' },
    });
    await adapter.start();
    expect(await readiness(ops.port)).toEqual({
      status: 200,
      ready: true,
      checks: { database: 'ok', storage: 'ok', discord: 'ok' },
    });

    const help = slash(fake, 'help', 'show', []);
    await fake.waitFor(answered(help.token), 'help answer');
    const songs = slash(fake, 'songs', 'countries', []);
    await fake.waitFor(answered(songs.token), 'songs answer');
    const metrics = await scrape(ops.port);
    expect(metrics.value('scout_commands_total', { family: 'help', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'songs', outcome: 'ok' })).toBe(1);
    expect(metrics.observations('scout_ack_duration_seconds', { platform: 'discord', kind: 'command' })).toBe(
      2,
    );
    expect(metrics.value('scout_upstream_requests_total', { operation: 'songs.query', status: '200' })).toBe(
      1,
    );
    expect(
      metrics.value('scout_credits_charged_total', { operation: 'songs.query', state: 'confirmed' }),
    ).toBe(10);

    await adapter.stop();
    adapter = undefined;
    const stopped = await readiness(ops.port);
    expect(stopped.status).toBe(503);
    expect(stopped.checks.discord).toBe('not connected');
  });
});
