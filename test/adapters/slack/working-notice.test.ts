/**
 * The working message is due a set time after the request arrived, not after Scout got round to it: a request that
 * waited behind other work (here the event loop is held for a while right after its ack, as a burst of requests
 * would hold it) shows its working message as soon as its work starts, before the answer; a request already late
 * for it when it is acknowledged (here its body comes slowly) carries it in the acknowledgement, and only there.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { signedHeaders, slashCommandBody } from '../../fakes/slack-api.js';
import { SECRET, sendForm, showAckAnswer, startBotAdapter, startWorld, type World } from './helpers.js';

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

describe('the working message of a request late at its acknowledgement', () => {
  it('is sent in the acknowledgement, once, and the answer follows', async () => {
    const body = new URLSearchParams(
      slashCommandBody({
        text: 'creators category:Fitness followers:10k-2m',
        userId: 'U0202',
        responseUrl: world.slack.responseUrl('slow'),
      }),
    ).toString();
    // The request is stamped when its headers arrive; the rest of its body follows later than the working delay.
    async function* slowly() {
      yield Buffer.from(body.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, WORKING_AFTER_MS + 200));
      yield Buffer.from(body.slice(10));
    }
    const res = await request(`http://127.0.0.1:${adapter.port}/slack/events`, {
      method: 'POST',
      headers: signedHeaders(SECRET, body),
      body: Readable.from(slowly()),
    });
    const acked = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(acked).toContain('Searching creators…');
    await showAckAnswer(body, acked);
    const answers = await world.slack.waitFor(() => {
      const seen = world.slack.responses.filter((r) => r.id === 'slow');
      return seen.some((r) => JSON.stringify(r.body).includes('Add to list')) ? seen : null;
    });
    const texts = answers.map((r) => JSON.stringify(r.body));
    expect(texts.filter((t) => t.includes('Searching creators…'))).toHaveLength(1);
    expect(texts.at(-1)).toContain('Add to list');
  });

  it('is not sent for a request acknowledged in time', async () => {
    const { text } = await sendForm(
      adapter.port,
      slashCommandBody({
        text: 'creators category:Fitness followers:10k-2m',
        userId: 'U0203',
        responseUrl: world.slack.responseUrl('prompt'),
      }),
    );
    expect(text).toBe('');
  });
});
