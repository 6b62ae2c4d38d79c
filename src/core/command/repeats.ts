/**
 * What a repeat of claimed work is told (the same command or press again within the repeat window, a duplicate
 * delivery, a double click): that it is already done and nothing changed, with the first answer's opening line as
 * a reminder, never a copy of an answer that would now be false ("Added 5" when nothing was added the second time).
 * What is kept of the first answer for it is that line alone.
 */
import { type Inline, notice, type Reply, type ReplyNode, reply, type Span, text } from '../ui/index.js';

/** The longest reminder of a first answer quoted back, in characters of text. */
const HEADLINE_MAX = 160;

/** What a mention counts for toward HEADLINE_MAX: about a name's length. */
const MENTION_SIZE = 12;

/** The spans a node opens an answer with; none for a node that says nothing by itself (buttons, a pager). */
function spansOf(node: ReplyNode): readonly Inline[] {
  switch (node.type) {
    case 'notice':
    case 'text':
      return node.spans;
    case 'card':
      return [node.title];
    case 'table':
      return [node.caption];
    default:
      return [];
  }
}

/** The first line of spans, cut to HEADLINE_MAX characters of text (mentions and links kept whole or left out). */
function firstLine(parts: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  let left = HEADLINE_MAX;
  for (const part of parts) {
    const span: Span = typeof part === 'string' ? { kind: 'plain', text: part } : part;
    if (span.kind === 'mention' || span.kind === 'link') {
      const size = span.kind === 'link' ? span.label.length : MENTION_SIZE;
      if (size > left) return [...out, '…'];
      out.push(span);
      left -= size;
      continue;
    }
    const [line = ''] = span.text.split('\n');
    if (line.length > left) return [...out, { ...span, text: `${line.slice(0, left - 1)}…` }];
    out.push({ ...span, text: line });
    left -= line.length;
    if (line !== span.text) return out;
  }
  return out;
}

/** Whether a part of a line has something to read in it. */
const saysSomething = (part: Inline) =>
  typeof part === 'string'
    ? part.trim() !== ''
    : part.kind === 'mention' || part.kind === 'link' || part.text.trim() !== '';

/** The opening line of an answer (its first notice, text, card or table), cut short; empty when it has none. */
export function headlineOf(answer: Reply): Inline[] {
  for (const node of answer.nodes) {
    const line = firstLine(spansOf(node));
    if (line.some(saysSomething)) return line;
  }
  return [];
}

/** What is kept of a first answer for its repeats: its opening line, as a reply of one text node. */
export function keptForRepeats(answer: Reply): Reply {
  const headline = headlineOf(answer);
  return reply(headline.length === 0 ? [] : [text(...headline)]);
}

/** How long ago, in words: `1 second ago`, `8 seconds ago`, `2 minutes ago`. */
function agoText(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'} ago`;
  return `${Math.round(seconds / 60)} minutes ago`;
}

/**
 * The answer to a repeat: already done, nothing changed (no credits spent, for paid work), and what the first
 * run answered `agoMs` ago, from what was kept of it. Only its author sees it, and it replaces no message.
 */
export function repeatReply(kept: Reply, options: { agoMs: number; paid: boolean }): Reply {
  const headline = headlineOf(kept);
  const said = options.paid
    ? 'Already done (nothing changed). This repeat spent no credits.'
    : 'Already done (nothing changed).';
  return reply([
    notice('info', said),
    headline.length === 0
      ? text(`It ran ${agoText(options.agoMs)}.`)
      : text(`First run, ${agoText(options.agoMs)}: “`, ...headline, '”'),
  ]);
}
