/**
 * Mentions in the Block Kit renderer: a Slack user id becomes `<@U…>` in the blocks and in the notification text;
 * any other id, and text that looks like a mention, stays literal, and no cut leaves half of a mention.
 */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import { clipMrkdwn, mentionMrkdwn } from '../../../src/adapters/slack/mrkdwn.js';
import { renderSlackMessages, type SlackMessage } from '../../../src/adapters/slack/render.js';
import { mention, notice, reply, text } from '../../../src/core/ui/index.js';
import { MENTIONS } from '../../core/ui/fixtures.js';

type Obj = Record<string, unknown>;

/** Every mrkdwn and plain text of the messages' blocks. */
const blockTexts = (messages: readonly SlackMessage[]): string[] => {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value as Obj)) {
        if (key === 'text' && typeof inner === 'string') out.push(inner);
        else walk(inner);
      }
    }
  };
  walk(messages.map((m) => m.blocks));
  return out;
};

/** Every `<…>` token of Slack markup in a string. */
const tokens = (mrkdwn: string) => mrkdwn.match(/<[^<>]*>/g) ?? [];

/** Whether every `<` of a string opens a whole `<@U…>` mention. */
const onlyWholeMentions = (mrkdwn: string) =>
  (mrkdwn.match(/</g) ?? []).length === (mrkdwn.match(/<@[UW][A-Z0-9]+>/g) ?? []).length;

describe('mentions in Block Kit', () => {
  it('renders a Slack user id as a mention in the section and in the notification text', () => {
    const [message] = renderSlackMessages(
      reply([notice('success', ['The daily cap of ', mention('U0BOB'), ' is now 6 credits.'])], {
        visibility: 'channel',
      }),
    );
    expect(blockTexts(message ? [message] : [])).toEqual([
      ':white_check_mark: The daily cap of <@U0BOB> is now 6 credits.',
    ]);
    expect(message?.text).toBe(':white_check_mark: The daily cap of <@U0BOB> is now 6 credits.');
    expect(mentionMrkdwn('W0GRID1')).toBe('<@W0GRID1>');
  });

  it('keeps ids that are not Slack user ids as literal text: no mention, broadcast or link', () => {
    for (const hostile of ['U1>|<!channel>', '@everyone', '<!here>', 'u0bob', 'U0BOB|x', 'C0CHANNEL']) {
      const messages = renderSlackMessages(reply([text('Cap of ', mention(hostile), '.')]));
      for (const piece of [...blockTexts(messages), ...messages.map((m) => m.text)]) {
        expect(tokens(piece)).toEqual([]);
      }
    }
    const rendered = JSON.stringify(renderSlackMessages(reply([text(mention('U1>|<!channel>'))])));
    expect(rendered).toContain('@U1&gt;|&lt;!channel&gt;');
    expect(rendered).not.toContain('<!channel>');
    expect(rendered).not.toContain('<@U1');
  });

  it('never turns text that looks like a mention into one, in the blocks or the notification text', () => {
    const messages = renderSlackMessages(
      reply([text('typed <@U0EVE> and ', mention('U0BOB')), notice('info', '<@U0EVE|eve> <!channel>')]),
    );
    const all = [...blockTexts(messages), ...messages.map((m) => m.text)];
    expect(all.flatMap(tokens)).toEqual(['<@U0BOB>', '<@U0BOB>']);
    expect(messages[0]?.text).toContain('&lt;@U0EVE&gt;');
  });

  it('renders the worst-case mentions with only the real ones as mentions', () => {
    const messages = renderSlackMessages(reply([text(...MENTIONS)]));
    const found = [...blockTexts(messages), ...messages.map((m) => m.text)].flatMap(tokens);
    expect(new Set(found)).toEqual(new Set(['<@U0123ABCD>', '<@W0123ABCD>']));
  });

  it('cuts long text and notification text between mentions, never inside one', () => {
    const many = Array.from({ length: 400 }, (_, i) => [mention(`U0PERSON${i}`), ', ']).flat();
    const messages = renderSlackMessages(reply([notice('warning', many), text(...many)]));
    for (const message of messages) {
      expect(message.text.length).toBeLessThanOrEqual(3000);
      expect(onlyWholeMentions(message.text)).toBe(true);
      for (const piece of blockTexts([message])) {
        expect(piece.length).toBeLessThanOrEqual(SLACK.SECTION_TEXT_MAX);
        expect(onlyWholeMentions(piece)).toBe(true);
      }
    }
    expect(blockTexts(messages).join('')).toContain('<@U0PERSON399>');
    expect(clipMrkdwn('ab <@U0BOB> &amp; c', 6)).toBe('ab …');
    expect(clipMrkdwn('ab <@U0BOB> &amp; c', 15)).toBe('ab <@U0BOB> …');
    expect(clipMrkdwn('short', 10)).toBe('short');
  });
});
