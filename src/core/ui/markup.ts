/**
 * The inline text subset of the reply model. Text is a flat list of spans, never a markup string, so
 * user content can never turn into formatting and each renderer escapes span text for its platform:
 * - `plain`: literal text; the only span that may contain newlines (`\n`).
 * - `bold`, `italic`, `code`: literal single-line text shown with that one style. Spans do not nest, so
 *   bold italic does not exist (Slack mrkdwn cannot nest styles reliably, and escaping stays trivial).
 * - `link`: a single-line label and an absolute http(s) URL.
 * - `mention`: a chat user named by their platform user id; each renderer shows a real mention only for an id of
 *   its platform's shape (anything else reads as literal `@id` text), so an id can never become a broadcast.
 * Characters such as `*`, `_`, `` ` ``, `<`, `>`, `|` have no meaning inside any span: renderers escape them.
 * Builders clean the text (control and bidi-override characters removed, line breaks normalized).
 */
import { cleanText, safeUrl, singleLine, truncate } from './format.js';
import { MENTION_ID_MAX } from './limits.js';

/** Literal text, newlines allowed. */
export interface PlainSpan {
  readonly kind: 'plain';
  readonly text: string;
}

/** Single-line text shown bold, italic or as inline code. */
export interface StyledSpan {
  readonly kind: 'bold' | 'italic' | 'code';
  readonly text: string;
}

/** A link with a single-line label and an absolute http(s) URL. */
export interface LinkSpan {
  readonly kind: 'link';
  readonly label: string;
  readonly url: string;
}

/** A chat user, by their platform user id (Slack `U123`, a Discord snowflake, a terminal name). */
export interface MentionSpan {
  readonly kind: 'mention';
  readonly userId: string;
}

/** One span of text. */
export type Span = PlainSpan | StyledSpan | LinkSpan | MentionSpan;

/** What text builders accept: a string is a plain span. */
export type Inline = string | Span;

/** A plain span (newlines kept). */
export function plain(text: string): PlainSpan {
  return { kind: 'plain', text: cleanText(text) };
}

/** A bold span. */
export function bold(text: string): StyledSpan {
  return { kind: 'bold', text: singleLine(text) };
}

/** An italic span. */
export function italic(text: string): StyledSpan {
  return { kind: 'italic', text: singleLine(text) };
}

/** An inline code span. */
export function code(text: string): StyledSpan {
  return { kind: 'code', text: singleLine(text) };
}

/** A link; a URL that is not absolute http(s) degrades to the plain label so nothing unsafe is linked. */
export function link(label: string, url: string): LinkSpan | PlainSpan {
  const safe = safeUrl(url);
  const text = singleLine(label);
  if (safe === null) return plain(text);
  // A label that is the URL itself reads as the bare URL, not "url (url)".
  return { kind: 'link', label: text === '' || safeUrl(text) === safe ? safe : text, url: safe };
}

/** A mention of a chat user by id: the id cleaned to one line and cut to MENTION_ID_MAX (no platform id is longer). */
export function mention(userId: string): MentionSpan {
  return { kind: 'mention', userId: truncate(singleLine(userId), MENTION_ID_MAX) };
}

/** Whether a span holds nothing to show. */
function isEmpty(span: Span): boolean {
  switch (span.kind) {
    case 'link':
      return span.url === '';
    case 'mention':
      return span.userId === '';
    case 'plain':
    case 'bold':
    case 'italic':
    case 'code':
      return span.text === '';
  }
}

/** Normalizes inline parts: strings become plain spans, empty spans go, adjacent plain spans merge. */
export function toSpans(parts: readonly Inline[]): Span[] {
  const out: Span[] = [];
  for (const part of parts) {
    const span = typeof part === 'string' ? plain(part) : normalizeSpan(part);
    if (isEmpty(span)) continue;
    const last = out[out.length - 1];
    if (span.kind === 'plain' && last?.kind === 'plain') {
      out[out.length - 1] = { kind: 'plain', text: last.text + span.text };
    } else {
      out.push(span);
    }
  }
  return out;
}

/** Re-applies the span rules to a span built by hand rather than by the helpers. */
function normalizeSpan(span: Span): Span {
  switch (span.kind) {
    case 'plain':
      return plain(span.text);
    case 'bold':
    case 'italic':
    case 'code':
      return { kind: span.kind, text: singleLine(span.text) };
    case 'link':
      return link(span.label, span.url);
    case 'mention':
      return mention(span.userId);
  }
}

/** The plain text of one span. */
function spanText(span: Span): string {
  switch (span.kind) {
    case 'link':
      return span.label === span.url ? span.url : `${span.label} (${span.url})`;
    case 'mention':
      return `@${span.userId}`;
    case 'plain':
    case 'bold':
    case 'italic':
    case 'code':
      return span.text;
  }
}

/**
 * Plain text of spans (or of one string): styles dropped, a link reads "label (url)" or just its URL, a mention
 * "@id".
 */
export function plainText(content: string | readonly Inline[]): string {
  return toSpans(typeof content === 'string' ? [content] : content)
    .map(spanText)
    .join('');
}
