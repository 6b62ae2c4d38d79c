/**
 * A command that has to wait for the service's allowance says so at once, with its place and an estimate, and a
 * Cancel button that stops the wait: nothing is sent for it. The service here allows one request a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { blockActionPayload, slashCommandBody } from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  sendForm,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
} from './helpers.js';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld({}, 1);
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const answers = (id: string) => world.slack.responses.filter((r) => r.id === id);

describe('a command waiting for the service', () => {
  it('shows its place in the queue, and Cancel stops the wait with nothing sent', async () => {
    const search = (user: string, id: string) =>
      sendForm(
        adapter.port,
        slashCommandBody({
          text: 'creators category:Fitness followers:10k-2m',
          userId: user,
          responseUrl: world.slack.responseUrl(id),
        }),
      );
    await search('U0101', 'first');
    await world.slack.waitFor(() => world.sandbox.requests().length === 1);
    await search('U0102', 'second');

    const [place] = await world.slack.waitFor(() => {
      const seen = answers('second');
      return seen.length > 0 ? seen : null;
    });
    const text = JSON.stringify(place?.body);
    expect(text).toMatch(/The service is busy: (yours is next|\d+ requests? ahead of yours), about \d+/);
    const [cancel] = buttonIds((place?.body.blocks ?? []) as Block[], 'Cancel');
    expect(cancel).toBeDefined();

    await sendPayload(
      adapter.port,
      blockActionPayload({
        actionId: cancel as string,
        userId: 'U0102',
        responseUrl: world.slack.responseUrl('cancel'),
      }),
    );
    const ended = await world.slack.waitFor(() =>
      answers('second').find((r) => JSON.stringify(r.body).includes('nothing more was sent')),
    );
    expect(JSON.stringify(ended.body)).toContain('Cancelled while waiting');
    // Only the first person's search reached the service.
    expect(world.sandbox.requests().map((r) => r.path)).toEqual(['/api/v2/creators/search']);
  });
});
