/**
 * Answers in the acknowledgement: a line that needs nothing but itself (help, a mistake in it) is answered in the
 * ack of the slash command, so it is seen at once and leaves no work behind; anything else is acked empty and
 * answered through the response_url, and an outsider is never answered in the ack.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { signedHeaders, slashCommandBody } from '../../fakes/slack-api.js';
import { responseTo, SECRET, startBotAdapter, startWorld, type World } from './helpers.js';

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

/** Sends a slash command; resolves with the ack's body (parsed; null when empty). */
async function command(
  fields: Parameters<typeof slashCommandBody>[0],
): Promise<Record<string, unknown> | null> {
  const body = new URLSearchParams(slashCommandBody(fields)).toString();
  const res = await request(`http://127.0.0.1:${adapter.port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body, { contentType: 'application/x-www-form-urlencoded' }),
    body,
  });
  const text = await res.body.text();
  expect(res.statusCode).toBe(200);
  return text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
}

const searches = () => world.sandbox.requests().filter((r) => r.path.startsWith('/api/v2/creators')).length;

describe('answers in the acknowledgement', () => {
  it('answers help in the ack, privately, the same each time', async () => {
    const ack = await command({ text: 'help creators', responseUrl: world.slack.responseUrl('help') });
    expect(ack).toMatchObject({ response_type: 'ephemeral' });
    expect(String(ack?.text)).toContain('/scout creators');
    const again = await command({ text: 'help creators', responseUrl: world.slack.responseUrl('help-2') });
    expect(again).toEqual(ack);
    // Nothing was left to send afterwards.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(world.slack.responses.filter((r) => r.id.startsWith('help'))).toEqual([]);
  });

  it('answers a mistake in the line in the ack, sending nothing to the service', async () => {
    const before = searches();
    const ack = await command({
      text: 'creators followers:lots',
      responseUrl: world.slack.responseUrl('bad'),
    });
    expect(String(ack?.text)).toContain('followers');
    const unknown = await command({ text: 'creatorz', responseUrl: world.slack.responseUrl('bad-2') });
    expect(String(unknown?.text)).toContain('Unknown command');
    expect(searches()).toBe(before);
  });

  it('acks work that needs the service empty and answers it through the response_url', async () => {
    const ack = await command({
      text: 'creators category:Fitness followers:10k-2m',
      responseUrl: world.slack.responseUrl('search'),
    });
    expect(ack).toBeNull();
    const answer = await responseTo(world.slack, 'search');
    expect(JSON.stringify(answer.body)).toContain('Add to list');
  });

  it('never answers an outsider in the ack', async () => {
    // A person of another workspace in a plain workspace's channel (Slack Connect): not of the tenant.
    const ack = await command({
      text: 'help',
      userTeamId: 'TOTHER',
      responseUrl: world.slack.responseUrl('outsider'),
    });
    expect(ack).toBeNull();
    const refusal = await responseTo(world.slack, 'outsider');
    expect(JSON.stringify(refusal.body)).not.toContain('/scout creators');
  });
});
