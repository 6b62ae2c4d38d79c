/** Discord markdown from the neutral spans: escaping, inline styles and links, all on cleaned text. */
import { cleanText, ELLIPSIS, type Span, singleLine, truncate } from '../../core/ui/index.js';

// Every character Discord markdown reacts to, so service data never renders as formatting or a mention.
const MARKDOWN = /[\\*_~`|>#\-[\]()<:@]/g;

/** Escapes text for Discord markdown (embeds and message content). */
export function escapeMarkdown(text: string): string {
  return cleanText(text).replace(MARKDOWN, (c) => `\\${c}`);
}

/** Escaped, single-line text cut to `max` characters. */
export function escapeLine(text: string, max: number): string {
  return truncate(escapeMarkdown(singleLine(text)), max);
}

/** Plain single-line text cut to `max`, for places Discord shows literally (labels, placeholders). */
export function plainLine(text: string, max: number): string {
  return truncate(singleLine(text), max);
}

// Inside inline code nothing is escaped; a backtick would close it, so it becomes a look-alike.
const codeText = (text: string) => singleLine(text).replace(/`/g, 'ˋ');

// Parentheses and spaces would end a masked link early.
const linkUrl = (url: string) => url.replace(/[()\s]/g, (c) => encodeURIComponent(c));

/** A Discord user id: a snowflake, the only thing a mention may carry. */
const SNOWFLAKE = /^\d{17,20}$/;

/**
 * A mention of a user as Discord markdown: `<@id>` for a snowflake, and escaped `@id` text for anything else, so
 * no id can become `@everyone`, a role or a link. Replies are sent with no allowed mentions, so it names the person
 * without pinging them. https://discord.com/developers/docs/reference#message-formatting
 */
export function mentionMarkdown(userId: string): string {
  return SNOWFLAKE.test(userId) ? `<@${userId}>` : escapeMarkdown(`@${userId}`);
}

/** Renders spans as Discord markdown. */
export function spansToMarkdown(spans: readonly Span[]): string {
  let out = '';
  for (const span of spans) {
    switch (span.kind) {
      case 'plain':
        out += escapeMarkdown(span.text);
        break;
      case 'bold':
        out += `**${escapeMarkdown(span.text)}**`;
        break;
      case 'italic':
        out += `*${escapeMarkdown(span.text)}*`;
        break;
      case 'code':
        out += span.text === '' ? '' : `\`${codeText(span.text)}\``;
        break;
      case 'link':
        out +=
          span.label === span.url
            ? `<${linkUrl(span.url)}>`
            : `[${escapeMarkdown(span.label)}](${linkUrl(span.url)})`;
        break;
      case 'mention':
        out += mentionMarkdown(span.userId);
        break;
    }
  }
  return out;
}

/** Where a cut at `end` of markdown splits a mention `<@id>`, the start of that mention; otherwise `end`. */
function mentionSafeEnd(text: string, end: number): number {
  const open = /<@!?\d*$/.exec(text.slice(Math.max(0, end - 24), end));
  return open === null ? end : end - open[0].length;
}

/** Cuts markdown to `max` characters like `truncate`, never leaving half of a mention before the "…". */
export function truncateMarkdown(text: string, max: number): string {
  const cut = truncate(text, max);
  if (cut === text || !cut.endsWith(ELLIPSIS)) return cut;
  const kept = cut.slice(0, -ELLIPSIS.length);
  return `${kept.slice(0, mentionSafeEnd(kept, kept.length))}${ELLIPSIS}`;
}

/** Splits long text into chunks of at most `max` characters, at line breaks where possible. */
export function chunkText(text: string, max: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf('\n');
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = mentionSafeEnd(rest, max) || max;
    // Never split a surrogate pair or leave a dangling escape backslash.
    while (cut > 1 && (/[\uD800-\uDBFF]/.test(rest.charAt(cut - 1)) || rest.charAt(cut - 1) === '\\')) cut--;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n/, '');
  }
  if (rest.length > 0 || chunks.length === 0) chunks.push(rest);
  return chunks;
}
