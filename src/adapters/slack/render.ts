/**
 * The Block Kit renderer: a pure function from the neutral reply model to one or more Slack messages, each
 * within Slack's limits (blocks, text per block, fields, elements, option counts) and with fallback text for
 * notifications. Cards read the same as on other platforms: their builders decide what they show.
 *
 * How cards are laid out, by one rule on the reply's structure: CAROUSEL_RUN_MIN (2) or more cards in a row that
 * each have a picture or buttons (a page of results: creators, posts, lists) become a carousel of card blocks, ten
 * to a carousel (carousel.ts: picture, title, subtitle, a body of the first facts, buttons; text cut to the card
 * block's limits). Any other card, a lone one above all (a profile's details, with every fact), keeps the section
 * layout (blocks.ts). The message's text is the notification fallback either way (renderText).
 */
import { type Button, type CardNode, type Reply, type ReplyNode, renderText } from '../../core/ui/index.js';
import { actionBlocks, type Block, contextBlock, nodeBlocks } from './blocks.js';
import { CAROUSEL_RUN_MIN, carouselBlocks, isCarouselCard } from './carousel.js';
import { SLACK } from './limits.js';
import { clipMrkdwn, escapePlain } from './mrkdwn.js';
import { dataTableSize } from './table.js';

/** One Slack message: blocks plus the notification fallback text. */
export interface SlackMessage {
  readonly text: string;
  readonly blocks: Block[];
}

/** Most messages one reply becomes: a response_url takes 5 posts, and more would flood the channel. */
export const MAX_MESSAGES = 4;

/** Block text per message, under the ~13k where Slack answers msg_blocks_too_long (bolt-js#2509). */
export const MESSAGE_TEXT_BUDGET = 12_000;

/** Fallback text per message: enough for a notification, far below the 40k message text limit. */
export const FALLBACK_TEXT_MAX = 3000;

interface Unit {
  readonly blocks: Block[];
  /** Notification text of the unit, already escaped for Slack. */
  readonly fallback: string;
  readonly pager: boolean;
}
/** Sums the text Slack counts for a message's blocks. */
export function blocksTextSize(blocks: readonly unknown[]): number {
  let size = 0;
  const walk = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'text' && typeof inner === 'string') size += inner.length;
        else walk(inner);
      }
    }
  };
  walk(blocks);
  return size;
}

/** The escaped notification text of some nodes of a reply. */
const fallbackOfNodes = (nodes: readonly ReplyNode[], reply: Reply) =>
  escapePlain(renderText({ nodes, visibility: reply.visibility }, { actions: false }).text);

/** The carousel cards that start at `index` of `nodes`, in a row. */
function carouselRun(nodes: readonly ReplyNode[], index: number): CardNode[] {
  const run: CardNode[] = [];
  for (let i = index; i < nodes.length; i++) {
    const node = nodes[i] as ReplyNode;
    if (!isCarouselCard(node)) break;
    run.push(node);
  }
  return run;
}

/** Splits a reply into units (blocks that belong together), merging runs of button rows into one block. */
function units(reply: Reply): Unit[] {
  const out: Unit[] = [];
  let pendingButtons: Button[] = [];
  const flushButtons = () => {
    if (pendingButtons.length === 0) return;
    const rows = actionBlocks(pendingButtons);
    for (const row of rows) out.push({ blocks: [row], fallback: '', pager: false });
    pendingButtons = [];
  };
  const nodes = reply.nodes;
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index] as ReplyNode;
    if (node.type === 'buttons') {
      pendingButtons.push(...node.buttons);
      continue;
    }
    flushButtons();
    const run = carouselRun(nodes, index);
    if (run.length >= CAROUSEL_RUN_MIN) {
      // Each carousel is a unit of its own: a message holds whole carousels.
      for (const [at, block] of carouselBlocks(run).entries()) {
        const shown = run.slice(at * SLACK.CAROUSEL_CARDS_MAX, (at + 1) * SLACK.CAROUSEL_CARDS_MAX);
        out.push({ blocks: [block], fallback: fallbackOfNodes(shown, reply), pager: false });
      }
      index += run.length - 1;
      continue;
    }
    const fallback = fallbackOfNodes([node], reply);
    if (
      node.type === 'text' ||
      node.type === 'code-block' ||
      node.type === 'fields' ||
      node.type === 'notice'
    ) {
      // Long text becomes several sections; each may go to a different message.
      for (const block of nodeBlocks(node)) {
        out.push({ blocks: [block], fallback: blockFallback(block), pager: false });
      }
      continue;
    }
    out.push({ blocks: nodeBlocks(node), fallback, pager: node.type === 'pager' });
  }
  flushButtons();
  return out;
}

/** A raw `<@U…>` in rendered mrkdwn: only `mentionMrkdwn` writes one, since every `<` of text is escaped. */
const MENTION_TOKEN = /(<@[UW][A-Z0-9]{2,20}>)/;

/**
 * The escaped fallback of a section: its mrkdwn read as plain text (links spelled out, escapes kept) with its real
 * mentions kept, so a notification names the person as the message does.
 */
function blockFallback(block: Block): string {
  if (block.type !== 'section') return '';
  const texts = [block.text?.text ?? '', ...(block.fields ?? []).map((f) => f.text)];
  return texts
    .join('\n')
    .replace(/\u200B/g, '')
    .split(MENTION_TOKEN)
    .map((part, index) => (index % 2 === 1 ? part : escapePlain(decodeEntities(part))))
    .join('');
}

const decodeEntities = (text: string) =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const truncatedUnit = (count: number): Unit => ({
  blocks: [contextBlock(`… ${count} more part${count === 1 ? '' : 's'} not shown: narrow the command.`)],
  fallback: '…',
  pager: false,
});

function fallbackOf(parts: readonly Unit[]): string {
  const text = parts
    .map((unit) => unit.fallback)
    .filter((line) => line !== '')
    .join('\n\n');
  // The fallback is shown in notifications and parsed for mentions: each unit's is escaped so `<!channel>` stays
  // text, and only the model's own mentions remain; a cut never leaves half of one.
  return clipMrkdwn(text === '' ? 'Scout' : text, FALLBACK_TEXT_MAX);
}

/** The most characters of text after a pager that stays after it: a line or two, as the cost line is. */
const CLOSING_TEXT_MAX = 300;

/**
 * Renders a reply as Slack messages: normally one; a reply too long for one message is split, at most
 * MAX_MESSAGES, ending with a "…" marker when cut. The pager always survives and closes the last message, followed only
 * by what follows it in the reply (the cost line).
 */
export function renderSlackMessages(reply: Reply): SlackMessage[] {
  const all = units(reply);
  const pagers = all.filter((unit) => unit.pager);
  // A short line after the last pager (the cost line) stays after it, ending the last message.
  const lastPager = all.lastIndexOf(pagers.at(-1) as Unit);
  const after = lastPager < 0 ? [] : all.slice(lastPager + 1);
  const short = after.every((unit) => !unit.pager && blocksTextSize(unit.blocks) <= CLOSING_TEXT_MAX);
  const closing = [...pagers, ...(short ? after : [])];
  const rest = all.filter((unit) => !closing.includes(unit));
  const reserveBlocks = closing.reduce((n, unit) => n + unit.blocks.length, 0) + 1;
  const reserveText = closing.reduce((n, unit) => n + blocksTextSize(unit.blocks), 0) + 100;
  const blockMax = SLACK.MESSAGE_BLOCKS_MAX - reserveBlocks;
  const textMax = MESSAGE_TEXT_BUDGET - reserveText;
  const messages: Unit[][] = [];
  let current: Unit[] = [];
  let blocks = 0;
  let size = 0;
  let tables = 0;
  let index = 0;
  for (; index < rest.length; index++) {
    const unit = rest[index] as Unit;
    const unitSize = blocksTextSize(unit.blocks);
    const unitTables = unit.blocks.reduce((n, block) => n + dataTableSize(block), 0);
    const full =
      blocks + unit.blocks.length > blockMax ||
      size + unitSize > textMax ||
      tables + unitTables > SLACK.DATA_TABLE_TEXT_MAX;
    if (current.length > 0 && full) {
      if (messages.length === MAX_MESSAGES - 1) break;
      messages.push(current);
      current = [];
      blocks = 0;
      size = 0;
      tables = 0;
    }
    current.push(unit);
    blocks += unit.blocks.length;
    size += unitSize;
    tables += unitTables;
  }
  if (index < rest.length) current.push(truncatedUnit(rest.length - index));
  current.push(...closing);
  messages.push(current);
  return messages.map((parts) => ({ text: fallbackOf(parts), blocks: parts.flatMap((unit) => unit.blocks) }));
}
