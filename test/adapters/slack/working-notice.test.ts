/**
 * The working message is due a set time after the request arrived, not after Scout got round to it: a request that
 * waited behind other work (here the event loop is held for a while right after its ack, as a burst of requests
 * would hold it) shows its working message as soon as its work starts, before the answer.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { slashCommandBody } from '../../fakes/slack-api.js';
import { sendForm, startBotAdapter, startWorld, type World } from './helpers.js';

const WORKING_AFTER_MS = 800;
const HELD_MS = 1_200;

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld({}, 10_000, { workingNoticeMs: WORKING_AFTER_MS });
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

/** Holds the event loop, as other requests' work would. */
const hold = () => {
  const until = performance.now() + HELD_MS;
  while (performance.now() < until) {
    // busy: nothing else runs meanwhile
  }
};

describe('the working message of a request that waited', () => {
  it('is shown before the answer when the request arrived longer ago than the delay', async () => {
    const channel = 'http.server.response.finish';
    let held = false;
    const onAcked = () => {
      if (held) return;
      held = true;
      hold();
    };
    subscribe(channel, onAcked);
    try {
      await sendForm(
        adapter.port,
        slashCommandBody({
          text: 'creators category:Fitness followers:10k-2m',
          userId: 'U0201',
          responseUrl: world.slack.responseUrl('late'),
        }),
      );
      const answers = await world.slack.waitFor(() => {
        const seen = world.slack.responses.filter((r) => r.id === 'late');
        return seen.some((r) => JSON.stringify(r.body).includes('Add to list')) ? seen : null;
      });
      expect(held).toBe(true);
      const texts = answers.map((r) => JSON.stringify(r.body));
      expect(texts[0]).toContain('Searching creators…');
      expect(texts.at(-1)).toContain('Add to list');
    } finally {
      unsubscribe(channel, onAcked);
    }
  });
});
