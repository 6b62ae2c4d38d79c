/**
 * When the service refuses the key (401) or wants payment (402), the person reads Scout's explanation and then what
 * the service itself said, as literal text: a message written to look like markup, a broadcast or a long page
 * reaches Slack escaped, on one line and cut short.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { SHOWN_MESSAGE_LIMIT } from '../../../src/core/service/errors.js';
import { slashCommandBody } from '../../fakes/slack-api.js';
import { responseTo, sendForm, startBotAdapter, startWorld, type World } from './helpers.js';

const KEY = 'slack-test-key-0001';

let world: World | undefined;
let adapter: SlackAdapter | undefined;
afterEach(async () => {
  await adapter?.stop();
  await world?.stop();
  adapter = undefined;
  world = undefined;
});

/** Runs `text` as a slash command and resolves with the answer's section texts, joined. */
async function answerTo(text: string, id: string): Promise<string> {
  const { slack } = world as World;
  await sendForm(
    (adapter as SlackAdapter).port,
    slashCommandBody({ text, responseUrl: slack.responseUrl(id) }),
  );
  const { body } = await responseTo(slack, id);
  return JSON.stringify(body.blocks ?? body.text);
}

describe('the service refusing a call', () => {
  it('shows Scout’s explanation of a 401, then the service’s message, escaped and cut short', async () => {
    world = await startWorld();
    adapter = await startBotAdapter(world.app, world.slack);
    const said = `<!channel> *Key revoked* by <https://evil.example|support>\n\u001b[2J${'call us '.repeat(800)}`;
    world.sandbox.injectFaults(KEY, { kind: 'error-shape', status: 401, body: { detail: said } });
    const shown = await answerTo('lists', 'refused');
    expect(shown).toContain('The service rejected the API key: it is wrong or revoked.');
    const quoted = /The service said: “(.*?)”/.exec(shown)?.[1] ?? '';
    // Slack's entities and a zero-width space after each formatting character: nothing becomes markup.
    expect(quoted).toMatch(
      /^&lt;!channel&gt; \*\u200BKey revoked\*\u200B by &lt;https:\/\/evil\.example\|support&gt; \[2Jcall us/,
    );
    expect(quoted).not.toMatch(/<|\\n|\\u001b/);
    expect(quoted.endsWith('…')).toBe(true);
    expect(quoted.replace(/&[a-z]+;/g, '_').replace(/\u200B/g, '').length).toBeLessThanOrEqual(
      SHOWN_MESSAGE_LIMIT,
    );
  });

  it('shows the service’s own message after a 402 of an empty balance', async () => {
    world = await startWorld();
    adapter = await startBotAdapter(world.app, world.slack);
    world.sandbox.setCredits(KEY, 0);
    const shown = await answerTo('songs countries', 'broke');
    expect(shown).toContain(
      'The service needs payment: the key is out of credits or has no active subscription. Top up credits or renew the subscription, then try again. The service said: “Insufficient credits: this request needs 10 credits and the balance is 0”',
    );
  });
});
