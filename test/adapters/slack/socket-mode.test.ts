/** The same flow over Socket Mode: apps.connections.open, hello, a slash-command envelope, its ack, the reply. */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { blockActionPayload, slashCommandBody } from '../../fakes/slack-api.js';
import { type Block, buttonIds, startWorld, type World } from './helpers.js';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld();
  adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-test',
      oauth: null,
      signingSecret: null,
      appToken: 'xapp-test',
      apiUrl: world.slack.apiUrl,
      port: 0,
    },
    app: world.app,
    logger: createLogger({ level: 'silent' }),
  });
  await adapter.start();
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

describe('Slack Socket Mode', () => {
  it('connects with the app token and answers /healthz', async () => {
    const open = world.slack.calls.find((c) => c.method === 'apps.connections.open');
    expect(open?.token).toBe('xapp-test');
    expect(world.slack.sockets).toBe(1);
    const res = await request(`http://127.0.0.1:${adapter.port}/healthz`);
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });

  it('acks a slash-command envelope, posts cards, and pages in place', async () => {
    const url = world.slack.responseUrl('socket-search');
    const ack = await world.slack.sendEnvelope(
      'slash_commands',
      slashCommandBody({ text: 'creators followers:10k-100k niche:yoga', responseUrl: url }),
    );
    expect(ack).toEqual({});
    const first = await world.slack.waitFor(() =>
      world.slack.responses.find((r) => r.id === 'socket-search'),
    );
    const blocks = first.body.blocks as Block[];
    expect(buttonIds(blocks, 'Add to list')).toHaveLength(5);
    const [next] = buttonIds(blocks, 'Next');

    const pageUrl = world.slack.responseUrl('socket-page');
    await world.slack.sendEnvelope(
      'interactive',
      blockActionPayload({ actionId: next as string, responseUrl: pageUrl }),
    );
    const second = await world.slack.waitFor(() => world.slack.responses.find((r) => r.id === 'socket-page'));
    expect(second.body.replace_original).toBe(true);
    expect(JSON.stringify(second.body.blocks)).toContain('Page 2');
  });
});
