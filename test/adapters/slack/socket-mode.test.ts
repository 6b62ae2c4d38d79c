/**
 * The same flow over Socket Mode: apps.connections.open, hello, a slash-command envelope, its ack, the reply; and
 * a key typed in the private form, which Socket Mode's frame logging must not write out.
 */
import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { SECRET_MODAL } from '../../../src/adapters/slack/modals.js';
import { createLogger } from '../../../src/core/logger.js';
import { blockActionPayload, slashCommandBody, viewSubmissionPayload } from '../../fakes/slack-api.js';
import { type Block, buttonIds, startWorld, type World } from './helpers.js';

let world: World;
let adapter: SlackAdapter;
/** Everything logged, at the most detailed level. */
const logged: string[] = [];

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
    chat: world.app.chat,
    logger: createLogger({
      level: 'trace',
      destination: new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    }),
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

  it('logs no frame of a form submission: a key typed in the private form is never written out', async () => {
    const typed = 'typed-in-socket-mode-0001';
    const ack = await world.slack.sendEnvelope(
      'interactive',
      viewSubmissionPayload({
        callbackId: SECRET_MODAL,
        privateMetadata: JSON.stringify({
          id: 'scout.secret:AAAAAAAAAAAAAAAA',
          channelId: 'C0001',
          responseUrl: world.slack.responseUrl('socket-key'),
        }),
        values: { 'secret.key': { value: { type: 'plain_text_input', value: typed } } },
      }),
    );
    expect(ack).toEqual({});
    const answer = await world.slack.waitFor(() => world.slack.responses.find((r) => r.id === 'socket-key'));
    // Single-team mode opens no key form: this one opens nothing, so the answer says so, privately, and the typed
    // key is dropped unused.
    expect(answer.body.response_type).toBe('ephemeral');
    expect(logged.join('')).toContain('Received a message on the WebSocket (payload not logged)');
    expect(logged.join('')).not.toContain(typed);
  });
});
