/**
 * Slack text in both directions: escaping model spans into mrkdwn (so user content never turns into markup,
 * mentions or links) and decoding the markup Slack puts into slash-command text and values.
 * https://docs.slack.dev/messaging/formatting-message-text#escaping
 */
import type { Span } from '../../core/ui/index.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// A zero-width space after a formatting character keeps Slack from pairing it into bold, italic, strike or code.
const ZWSP = '\u200B';

/** Escapes literal text for mrkdwn: the three entities, and formatting characters neutralized. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => ENTITIES[c] ?? c).replace(/[*_~`]/g, (c) => `${c}${ZWSP}`);
}

/** Escapes text for a plain_text object: Slack shows it literally, only `&<>` are entities there too. */
export function escapePlain(text: string): string {
  return text.replace(/[&<>]/g, (c) => ENTITIES[c] ?? c);
}

/** A URL safe inside `<url|label>`: the characters that end the link are percent-encoded. */
export function linkUrl(url: string): string {
  return url.replace(/[|<> ]/g, (c) => encodeURIComponent(c));
}

/** A Slack user id (`U…`, or `W…` in Enterprise Grid): the only thing a mention may carry. */
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

/**
 * A mention of a user as mrkdwn: `<@U123>` for a Slack user id, and literal `@id` text for anything else, so no
 * id can close the angle brackets and smuggle in `<!channel>` or a link.
 * https://docs.slack.dev/messaging/formatting-message-text#mentioning-users
 */
export function mentionMrkdwn(userId: string): string {
  return USER_ID.test(userId) ? `<@${userId}>` : escapeMrkdwn(`@${userId}`);
}

/** One span as mrkdwn. */
export function spanMrkdwn(span: Span): string {
  switch (span.kind) {
    case 'plain':
      return escapeMrkdwn(span.text);
    case 'bold':
      return `*${escapeMrkdwn(span.text)}*`;
    case 'italic':
      return `_${escapeMrkdwn(span.text)}_`;
    case 'code':
      return `\`${escapeMrkdwn(span.text)}\``;
    case 'link':
      return span.label === span.url
        ? `<${linkUrl(span.url)}>`
        : `<${linkUrl(span.url)}|${escapeMrkdwn(span.label)}>`;
    case 'mention':
      return mentionMrkdwn(span.userId);
  }
}

/** Spans as one mrkdwn string. */
export function spansMrkdwn(spans: readonly Span[]): string {
  return spans.map(spanMrkdwn).join('');
}

/**
 * Reverses Slack's markup in text a person typed: a mention `<@U1|name>` keeps its user id as `<@U1>` (what
 * `/scout admins add` and `/scout credits cap` read), `<#C1|general>` becomes `#general`, `<https://x|label>` the
 * URL, `<!here>` `@here`, then the entities `&lt; &gt; &amp;`.
 */
export function decodeSlackText(text: string): string {
  const links = text.replace(/<([^<>]*)>/g, (_match, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    if (target.startsWith('@')) return `<${target}>`;
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    if (target.startsWith('!')) {
      const name = target.slice(1).split('^')[0] ?? '';
      return label ?? `@${name.replace(/^subteam$/, 'group')}`;
    }
    if (/^(https?|mailto):/i.test(target)) return target.replace(/^mailto:/i, '');
    return label ?? target;
  });
  return links.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Cuts `text` to at most `max` UTF-16 units, ending with "…" when cut and never splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const unit = text.charCodeAt(end - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * Cuts mrkdwn (or escaped plain text) to at most `max` UTF-16 units like `clip`, never leaving half of a `<…>`
 * mention or link, or of an entity, before the "…".
 */
export function clipMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = clip(text, max).slice(0, -1);
  const open = kept.lastIndexOf('<');
  if (open > kept.lastIndexOf('>')) kept = kept.slice(0, open);
  return `${kept.replace(/&[a-z]*$/, '')}…`;
}

/**
 * Splits literal text into pieces whose escaped mrkdwn is at most `max` long, preferring line breaks, never
 * cutting an entity or a surrogate pair.
 */
export function splitEscaped(
  text: string,
  max: number,
  escaper: (s: string) => string = escapeMrkdwn,
): string[] {
  const pieces: string[] = [];
  let current = '';
  let size = 0;
  const flush = () => {
    if (current !== '') pieces.push(current);
    current = '';
    size = 0;
  };
  for (const line of text.split(/(?<=\n)/)) {
    const lineSize = escaper(line).length;
    if (size + lineSize <= max) {
      current += line;
      size += lineSize;
      continue;
    }
    flush();
    if (lineSize <= max) {
      current = line;
      size = lineSize;
      continue;
    }
    for (const char of line) {
      const charSize = escaper(char).length;
      if (size + charSize > max) flush();
      current += char;
      size += charSize;
    }
  }
  flush();
  return pieces;
}
