/**
 * Help of one command on Slack: a compact card in the slash command's acknowledgement (a section with the title and
 * what it does, its options as fields, its cost as context) with Form and Examples; Examples answers with the
 * command's examples, and Form opens the command's form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { blockActionPayload, slashCommandBody } from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  responseTo,
  sendForm,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
} from './helpers.js';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

describe('help of one command on Slack', () => {
  it('is a card with Form and Examples, in the acknowledgement; Examples shows the examples', async () => {
    const acked = await sendForm(
      adapter.port,
      slashCommandBody({ text: 'help creators search', responseUrl: world.slack.responseUrl('help') }),
    );
    const answer = JSON.parse(acked.text) as { blocks: Block[] };
    const [head] = answer.blocks;
    expect(head).toMatchObject({ type: 'section' });
    expect(JSON.stringify(head)).toContain('*/scout creators search*');
    expect(answer.blocks.some((block) => block.type === 'context')).toBe(true);
    expect(buttonIds(answer.blocks, 'Form')).toEqual(['scout.form-of:creators.search']);
    const [examples] = buttonIds(answer.blocks, 'Examples');
    expect(examples).toBeDefined();

    await sendPayload(
      adapter.port,
      blockActionPayload({ actionId: examples ?? '', responseUrl: world.slack.responseUrl('examples') }),
    );
    const shown = await responseTo(world.slack, 'examples');
    expect(JSON.stringify(shown.body)).toContain('Examples of /scout creators search');
    expect(JSON.stringify(shown.body)).toContain('has-email:yes');

    const before = world.slack.calls.length;
    await sendPayload(
      adapter.port,
      blockActionPayload({
        actionId: 'scout.form-of:creators.search',
        responseUrl: world.slack.responseUrl('form'),
      }),
    );
    const open = await world.slack.waitFor(() =>
      world.slack.calls.slice(before).find((call) => call.method === 'views.open'),
    );
    expect((open.args.view as { title: { text: string } }).title.text).toBe('creators search');
    expect(world.sandbox.requests()).toEqual([]);
  });
});
