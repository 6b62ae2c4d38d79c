/**
 * The inline text subset of the reply model. Text is a flat list of spans, never a markup string, so
 * user content can never turn into formatting and each renderer escapes span text for its platform:
 * - `plain`: literal text; the only span that may contain newlines (`\n`).
 * - `bold`, `italic`, `code`: literal single-line text shown with that one style. Spans do not nest, so
 *   bold italic does not exist (Slack mrkdwn cannot nest styles reliably, and escaping stays trivial).
 * - `link`: a single-line label and an absolute http(s) URL.
 * Characters such as `*`, `_`, `` ` ``, `<`, `>`, `|` have no meaning inside any span: renderers escape them.
 * Builders clean the text (control and bidi-override characters removed, line breaks normalized).
 */
import { cleanText, safeUrl, singleLine } from './format.js';

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

/** One span of text. */
export type Span = PlainSpan | StyledSpan | LinkSpan;

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

/** Normalizes inline parts: strings become plain spans, empty spans go, adjacent plain spans merge. */
export function toSpans(parts: readonly Inline[]): Span[] {
  const out: Span[] = [];
  for (const part of parts) {
    const span = typeof part === 'string' ? plain(part) : normalizeSpan(part);
    if (span.kind === 'link' ? span.url === '' : span.text === '') continue;
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
  }
}

/** Plain text of spans (or of one string): styles dropped, a link reads "label (url)" or just its URL. */
export function plainText(content: string | readonly Inline[]): string {
  const spans = toSpans(typeof content === 'string' ? [content] : content);
  let out = '';
  for (const span of spans) {
    if (span.kind === 'link') {
      out += span.label === span.url ? span.url : `${span.label} (${span.url})`;
    } else {
      out += span.text;
    }
  }
  return out;
}
