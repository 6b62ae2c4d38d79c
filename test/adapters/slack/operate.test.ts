/**
 * The operator endpoints of the Slack adapter: /readyz says 503 until Slack confirmed the bot token (auth.test) and
 * 200 after, on the operator server and on Slack's own HTTP server (before Bolt); /metrics there counts the slash
 * command and its ack. In Socket Mode the health server on PORT serves both, and /readyz follows the socket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter, SlackStartError } from '../../../src/adapters/slack/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createOpsServer, type OpsServer } from '../../../src/core/ops-server.js';
import { readiness, scrape } from '../../core/ops/scrape.js';
import { slashCommandBody } from '../../fakes/slack-api.js';
import {
  type Block,
  botConfig,
  buttonIds,
  responseTo,
  sendForm,
  sendPayload,
  startWorld,
  type World,
} from './helpers.js';
import { blockActionPayload } from './payloads.js';

const logger = createLogger({ level: 'silent' });

let world: World | undefined;
let adapter: SlackAdapter | undefined;
let ops: OpsServer | undefined;
afterEach(async () => {
  await adapter?.stop();
  await ops?.stop();
  await world?.stop();
  adapter = undefined;
  ops = undefined;
  world = undefined;
});

describe('Slack HTTP mode', () => {
  it('is not ready until auth.test confirmed the token, then serves /readyz and /metrics before Bolt', async () => {
    world = await startWorld();
    const { slack, app } = world;
    adapter = createSlackAdapter({ config: botConfig(slack), chat: app.chat, logger });
    ops = createOpsServer({ app, port: 0, logger });
    await ops.start();

    const before = await readiness(ops.port);
    expect(before).toEqual({
      status: 503,
      ready: false,
      checks: { database: 'ok', storage: 'ok', slack: 'not connected' },
    });
    // Slack refuses the token: start fails, and Scout stays not ready.
    slack.failNext('auth.test', 'invalid_auth');
    await expect(adapter.start()).rejects.toBeInstanceOf(SlackStartError);
    expect((await readiness(ops.port)).checks.slack).toBe('not connected');

    await adapter.start();
    expect(await readiness(ops.port)).toMatchObject({ status: 200, ready: true });
    // The same answer on Slack's own server, which Bolt never sees (no request reaches Bolt for it).
    const onSlack = await readiness(adapter.port);
    expect(onSlack).toEqual({
      status: 200,
      ready: true,
      checks: { database: 'ok', storage: 'ok', slack: 'ok' },
    });

    const url = slack.responseUrl('help');
    expect((await sendForm(adapter.port, slashCommandBody({ text: 'help', responseUrl: url }))).status).toBe(
      200,
    );
    await responseTo(slack, 'help');
    const search = slack.responseUrl('search');
    await sendForm(
      adapter.port,
      slashCommandBody({ text: 'creators followers:10k-100k niche:yoga', responseUrl: search }),
    );
    const [next] = buttonIds(((await responseTo(slack, 'search')).body.blocks ?? []) as Block[], 'Next');
    const page = slack.responseUrl('page');
    await sendPayload(adapter.port, blockActionPayload({ actionId: next as string, responseUrl: page }));
    await responseTo(slack, 'page');

    const metrics = await scrape(adapter.port);
    expect(metrics.value('scout_commands_total', { family: 'help', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'creators', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_actions_total', { family: 'creators', outcome: 'ok' })).toBe(1);
    // Every ack is timed from the request's arrival at Scout's server.
    expect(metrics.observations('scout_ack_duration_seconds', { platform: 'slack', kind: 'command' })).toBe(
      2,
    );
    expect(metrics.observations('scout_ack_duration_seconds', { platform: 'slack', kind: 'action' })).toBe(1);
    expect(
      metrics.value('scout_upstream_requests_total', { operation: 'creators.search', status: '200' }),
    ).toBeGreaterThan(0);
    expect(
      metrics.value('scout_upstream_requests_total', { operation: 'creators.get', status: '200' }),
    ).toBeGreaterThan(0);
    expect((await scrape(ops.port)).value('scout_commands_total', { family: 'help', outcome: 'ok' })).toBe(1);

    await adapter.stop();
    expect((await readiness(ops.port)).checks.slack).toBe('not connected');
  });
});

describe('Slack Socket Mode', () => {
  it('serves /readyz and /metrics on the health server, ready once the socket is connected', async () => {
    world = await startWorld();
    const { slack, app } = world;
    adapter = createSlackAdapter({
      config: { ...botConfig(slack), signingSecret: null, appToken: 'xapp-test' },
      chat: app.chat,
      logger,
    });
    await adapter.start();
    expect(await readiness(adapter.port)).toMatchObject({ status: 200, checks: { slack: 'ok' } });

    const ack = await slack.sendEnvelope(
      'slash_commands',
      slashCommandBody({ text: 'help', responseUrl: slack.responseUrl('socket-help') }),
    );
    // Help needs nothing but its line: the ack itself answers it.
    expect(ack).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('Scout') });
    await responseTo(slack, 'socket-help');
    const metrics = await scrape(adapter.port);
    expect(metrics.value('scout_commands_total', { family: 'help', outcome: 'ok' })).toBe(1);
    expect(metrics.observations('scout_ack_duration_seconds', { platform: 'slack', kind: 'command' })).toBe(
      1,
    );

    await adapter.stop();
    adapter = undefined;
    expect(await world.app.readiness.report()).toMatchObject({
      ready: false,
      checks: { slack: 'not connected' },
    });
  });
});
