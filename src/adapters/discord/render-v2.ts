/**
 * The Components V2 layout of a reply (https://docs.discord.com/developers/components/overview): cards in a row go
 * in a container (one per page of results), each a section with its picture as the thumbnail; the reply's other
 * text (headings, notices, fields, code, tables) in text displays; its buttons, selects and the pager in action rows
 * below. A message may not pass 40 components, nested ones counted, nor 4,000 characters of text: each card's text
 * gets a share of the characters, and where a row of buttons per card would pass the count, the layout gives way
 * one step at a time (LEVELS): the pager without its page button (the page said in text), the cards' buttons
 * gathered into a select per label ("Details…", "Add to list…"), then one select of every card's button, then one
 * that takes the reply's other buttons too, then sections without pictures. Ten creators with their pictures and
 * buttons, the pager and a page's other nodes fit one message; more goes to further messages, a marker closing the
 * last one kept.
 */
import { type APIMediaGalleryItem, ComponentType } from 'discord.js';
import {
  type Button,
  type CardNode,
  type PagerNode,
  type ReplyNode,
  type SelectNode,
  singleLine,
  truncate,
} from '../../core/ui/index.js';
import { DISCORD } from './limits.js';
import { chunkText, escapeLine, escapeMarkdown, plainLine } from './markdown.js';
import {
  buttonComponent,
  type DiscordComponent,
  pagerButtons,
  pagerLabel,
  selectComponent,
} from './render-components.js';
import { piecesOf } from './render-embeds.js';
import {
  type CardButtons,
  cardButtonSelects,
  cardContainers,
  cardMarkdown,
  type V2Card,
} from './v2-cards.js';

/** A part of a reply as laid out: in the flow of the message (text, a picture, a card) or in its rows below. */
type Item =
  | { kind: 'text'; markdown: string }
  | { kind: 'gallery'; item: APIMediaGalleryItem }
  | { kind: 'card'; card: V2Card }
  | { kind: 'buttons'; buttons: readonly Button[] }
  | { kind: 'select'; select: SelectNode };

/** One way of laying out a message; LEVELS lists them from the fullest to the most compact. */
interface Level {
  readonly cardButtons: CardButtons;
  /** The message's other buttons become options of the cards' select. */
  readonly looseInSelect: boolean;
  /** The pager keeps its button saying where we are; otherwise that goes in text. */
  readonly indicator: boolean;
  readonly thumbnails: boolean;
}

const LEVELS: readonly Level[] = [
  { cardButtons: 'inline', looseInSelect: false, indicator: true, thumbnails: true },
  { cardButtons: 'inline', looseInSelect: false, indicator: false, thumbnails: true },
  { cardButtons: 'by-label', looseInSelect: false, indicator: true, thumbnails: true },
  { cardButtons: 'by-label', looseInSelect: false, indicator: false, thumbnails: true },
  { cardButtons: 'combined', looseInSelect: false, indicator: false, thumbnails: true },
  { cardButtons: 'combined', looseInSelect: true, indicator: false, thumbnails: true },
  { cardButtons: 'combined', looseInSelect: true, indicator: false, thumbnails: false },
];

/** Text of one text display: the text of nodes in a row shares one, as a message's text budget allows. */
const TEXT_DISPLAY_MAX = 3800;
/** Characters kept free in every message for the page said in text and the marker of a cut reply. */
const TEXT_RESERVE = 200;
/** The most of a message's characters the reply's other text may take from its cards when sharing them out. */
const OTHER_TEXT_SHARE = 1500;
/** Bounds of one card's characters: ten cards share a message; a lone card (a profile, help) has most of one. */
const CARD_TEXT_MIN = 200;
const CARD_TEXT_MAX = 3600;
/** Cards one message shows at most: one page. */
const CARDS_PER_MESSAGE = 10;

/** What the layout needs besides the nodes. */
export interface V2Options {
  readonly messagesMax: number;
  /** The marker closing the last message when the reply is cut. */
  readonly truncated: string;
}

/** A file of the reply, attached to the first message: shown in a gallery when a picture, as a file otherwise. */
export interface V2Attachment {
  readonly name: string;
  readonly image: boolean;
}

const isWebUrl = (url: string) => /^https?:\/\/\S+$/i.test(url);

/** The markdown of an embed the embed renderer made of a node: title, description, fields, footer as small text. */
function embedMarkdown(embed: ReturnType<typeof piecesOf>['pieces'][number]): string {
  if (embed.kind !== 'embed') return '';
  const { title, description, fields, footer } = embed.embed;
  return [
    title === undefined ? '' : `**${title}**`,
    description ?? '',
    ...(fields ?? []).map((f) => `**${f.name}**: ${f.value}`),
    footer?.text ? `-# ${escapeMarkdown(footer.text)}` : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

/** A card's characters: the message's text shared among its cards once the reply's other text has its part. */
function cardBudget(cards: number, otherText: number): number {
  if (cards === 0) return CARD_TEXT_MAX;
  const room = DISCORD.V2_TEXT_MAX - TEXT_RESERVE - Math.min(otherText, OTHER_TEXT_SHARE);
  const share = Math.floor(room / Math.min(cards, CARDS_PER_MESSAGE));
  return Math.max(CARD_TEXT_MIN, Math.min(CARD_TEXT_MAX, share));
}

/** The items of a reply's nodes in order, and its last pager. */
function itemsOf(nodes: readonly ReplyNode[]): { items: Item[]; pager: PagerNode | null } {
  const raw: Array<Item | { kind: 'card-node'; card: CardNode; run: number }> = [];
  const pagers: PagerNode[] = [];
  let text: string[] = [];
  let run = 0;
  let inRun = false;
  // Whole pieces share a text display while they fit (a code block keeps its fences); a longer one is split.
  const flush = () => {
    let current = '';
    for (const part of text.flatMap((piece) => chunkText(piece, TEXT_DISPLAY_MAX))) {
      if (current !== '' && current.length + 2 + part.length > TEXT_DISPLAY_MAX) {
        raw.push({ kind: 'text', markdown: current });
        current = '';
      }
      current = current === '' ? part : `${current}\n\n${part}`;
    }
    if (current !== '') raw.push({ kind: 'text', markdown: current });
    text = [];
  };
  for (const node of nodes) {
    if (node.type === 'buttons') raw.push({ kind: 'buttons', buttons: node.buttons });
    else if (node.type === 'select') raw.push({ kind: 'select', select: node });
    else if (node.type === 'pager') pagers.push(node);
    else if (node.type === 'card') {
      flush();
      if (!inRun) run++;
      inRun = true;
      raw.push({ kind: 'card-node', card: node, run });
    } else {
      // Text between cards ends their run; a divider only separates text.
      inRun = false;
      if (node.type === 'divider') {
        flush();
        continue;
      }
      if (node.type === 'image' && isWebUrl(node.url)) {
        flush();
        const description = plainLine(node.title ?? node.alt, DISCORD.MEDIA_DESCRIPTION_MAX);
        raw.push({
          kind: 'gallery',
          item: { media: { url: node.url }, ...(description ? { description } : {}) },
        });
        continue;
      }
      // Text of nodes in a row shares text displays: each costs a component.
      for (const piece of piecesOf([node]).pieces) text.push(embedMarkdown(piece));
    }
  }
  flush();
  return { items: withCards(raw), pager: pagers.at(-1) ?? null };
}

/**
 * The cards of the items laid out: numbered in order when several have buttons, as on other platforms, each
 * text within its share of a message's characters.
 */
function withCards(raw: ReadonlyArray<Item | { kind: 'card-node'; card: CardNode; run: number }>): Item[] {
  const cards = raw.filter((item) => item.kind === 'card-node');
  const otherText = raw.reduce((n, item) => n + (item.kind === 'text' ? item.markdown.length : 0), 0);
  const budget = cardBudget(cards.length, otherText);
  const numbered = cards.filter((item) => item.card.actions.length > 0).length > 1;
  let number = 0;
  return raw.map((item): Item => {
    if (item.kind !== 'card-node') return item;
    const shown = numbered && item.card.actions.length > 0 ? ++number : null;
    const text = cardMarkdown(item.card, shown, budget);
    return { kind: 'card', card: { card: item.card, number: shown, text, run: item.run } };
  });
}

/** Components counted as Discord counts them: each one, and each one nested in it. */
function countOf(component: unknown): number {
  const { components, accessory } = component as { components?: unknown[]; accessory?: unknown };
  return (
    1 +
    (components ?? []).reduce<number>((n, child) => n + countOf(child), 0) +
    (accessory === undefined ? 0 : countOf(accessory))
  );
}

/** Characters of the text displays, nested ones included. */
function textOf(component: unknown): number {
  const { type, content, components } = component as {
    type: number;
    content?: string;
    components?: unknown[];
  };
  const own = type === ComponentType.TextDisplay ? (content ?? '').length : 0;
  return own + (components ?? []).reduce<number>((n, child) => n + textOf(child), 0);
}

const textDisplay = (content: string): DiscordComponent => ({ type: ComponentType.TextDisplay, content });

/** Adds a line to the last text display of the flow, or a text display of its own when there is none. */
function withLine(flow: DiscordComponent[], line: string): DiscordComponent[] {
  const at = flow.findLastIndex((c) => c.type === ComponentType.TextDisplay);
  const last = flow[at];
  if (last?.type !== ComponentType.TextDisplay) return [...flow, textDisplay(line)];
  return flow.map((c, i) => (i === at ? textDisplay(`${last.content}\n${line}`) : c));
}

/**
 * What goes into a message besides its items: the pager, the reply's files, the marker of a cut, and the text that
 * follows the pager in the reply (the cost line), which closes the last message below its rows.
 */
interface Extras {
  readonly pager: PagerNode | null;
  readonly files: readonly DiscordComponent[];
  readonly note: string | null;
  /** Markdown below the rows when room allows, else at the end of the text above them. */
  readonly closing: string | null;
}

/** The rows under a message's flow: the cards' selects, buttons five to a row, selects, the pager. */
function rowsOf(
  cards: readonly V2Card[],
  loose: Button[],
  selects: SelectNode[],
  level: Level,
  pager: PagerNode | null,
) {
  const rows: DiscordComponent[] = [];
  const folded = level.cardButtons === 'combined' && level.looseInSelect;
  if (level.cardButtons !== 'inline' && cards.length > 0)
    rows.push(...cardButtonSelects(cards, level.cardButtons, folded ? loose : []));
  const seen = new Set<string>();
  const buttons = (folded && cards.length > 0 ? [] : loose).filter(
    (b) => !seen.has(b.actionId) && seen.add(b.actionId),
  );
  const buttonRows: Button[][] = [];
  for (let i = 0; i < buttons.length; i += DISCORD.ROW_BUTTONS_MAX)
    buttonRows.push(buttons.slice(i, i + DISCORD.ROW_BUTTONS_MAX));
  const paging = pager === null ? [] : pagerButtons(pager, level.indicator);
  // The last row of buttons shares the pager's row when both fit in one.
  const lastRow = buttonRows.at(-1);
  const shared =
    pager !== null && lastRow !== undefined && lastRow.length + paging.length <= DISCORD.ROW_BUTTONS_MAX;
  const sharing = shared ? (buttonRows.pop() ?? []) : [];
  for (const row of buttonRows)
    rows.push({ type: ComponentType.ActionRow, components: row.map(buttonComponent) });
  for (const select of selects.filter((s) => !seen.has(s.actionId) && seen.add(s.actionId)))
    rows.push({ type: ComponentType.ActionRow, components: [selectComponent(select)] });
  if (pager !== null)
    rows.push({ type: ComponentType.ActionRow, components: [...sharing.map(buttonComponent), ...paging] });
  return rows;
}

/** The components of a message at `level`, and whether they are within Discord's limits. */
function build(
  items: readonly Item[],
  level: Level,
  extras: Extras,
  closingAbove = false,
): { components: DiscordComponent[]; fits: boolean } {
  let flow: DiscordComponent[] = [];
  const cards: V2Card[] = [];
  const loose: Button[] = [];
  const selects: SelectNode[] = [];
  let run: V2Card[] = [];
  const options = { thumbnails: level.thumbnails, inline: level.cardButtons === 'inline' };
  const closeRun = () => {
    if (run.length > 0) flow.push(...cardContainers(run, options));
    run = [];
  };
  for (const item of items) {
    if (item.kind === 'card') {
      if (run.length > 0 && run[0]?.run !== item.card.run) closeRun();
      run.push(item.card);
      cards.push(item.card);
      continue;
    }
    if (item.kind === 'buttons') loose.push(...item.buttons);
    else if (item.kind === 'select') selects.push(item.select);
    else {
      closeRun();
      flow.push(
        item.kind === 'text'
          ? textDisplay(item.markdown)
          : { type: ComponentType.MediaGallery, items: [item.item] },
      );
    }
  }
  closeRun();
  flow.push(...extras.files);
  const { pager } = extras;
  if (pager !== null && !level.indicator) flow = withLine(flow, `-# ${escapeLine(pagerLabel(pager), 100)}`);
  if (extras.note !== null) flow = withLine(flow, escapeMarkdown(extras.note));
  const below = extras.closing !== null && !closingAbove;
  if (extras.closing !== null && closingAbove) flow = withLine(flow, extras.closing);
  const components = [
    ...flow,
    ...rowsOf(cards, loose, selects, level, pager),
    ...(below ? [textDisplay(extras.closing as string)] : []),
  ];
  if (components.length === 0) components.push(textDisplay('Done.'));
  const count = components.reduce((n, c) => n + countOf(c), 0);
  const text = components.reduce((n, c) => n + textOf(c), 0);
  return { components, fits: count <= DISCORD.V2_COMPONENTS_MAX && text <= DISCORD.V2_TEXT_MAX };
}

/** The fullest layout of `items` within the limits, or null when none is. */
function laidOut(items: readonly Item[], extras: Extras): DiscordComponent[] | null {
  for (const level of LEVELS) {
    // The closing text goes below the rows, or above them where its own component would make the level not fit.
    for (const above of [false, true]) {
      const built = build(items, level, extras, above);
      if (built.fits) return built.components;
    }
  }
  return null;
}

/** The reply's files as components of its first message: pictures in a gallery, other files each as a file. */
function fileComponents(files: readonly V2Attachment[]): DiscordComponent[] {
  const images = files.filter((f) => f.image).slice(0, DISCORD.GALLERY_ITEMS_MAX);
  const others = files.filter((f) => !f.image);
  return [
    ...(images.length === 0
      ? []
      : [
          {
            type: ComponentType.MediaGallery as const,
            items: images.map((f) => ({ media: { url: `attachment://${f.name}` } })),
          },
        ]),
    ...others.map((f) => ({ type: ComponentType.File as const, file: { url: `attachment://${f.name}` } })),
  ];
}

/** The most characters of text after a pager kept below it: a line or two, as the cost line is. */
const CLOSING_TEXT_MAX = 300;

/**
 * A reply's nodes split at its last pager: short text after it (the cost line) as one text display's markdown,
 * kept below the pager; the rest as they are. A reply without a pager keeps all its nodes in order.
 */
function closingText(nodes: readonly ReplyNode[]): { body: ReplyNode[]; closing: string } {
  const at = nodes.findLastIndex((node) => node.type === 'pager');
  const after = at < 0 ? [] : nodes.slice(at + 1);
  if (after.length === 0 || !after.every((node) => node.type === 'text' || node.type === 'notice'))
    return { body: [...nodes], closing: '' };
  const closing = piecesOf(after)
    .pieces.map(embedMarkdown)
    .filter((part) => part !== '')
    .join('\n\n');
  if (closing.length > CLOSING_TEXT_MAX) return { body: [...nodes], closing: '' };
  return { body: nodes.slice(0, at + 1), closing };
}

/**
 * Lays out a reply's nodes as the components of one or more Components V2 messages (at most `messagesMax`),
 * each within Discord's limits: items go to a message while it fits at some level, the pager's room kept in each.
 */
export function renderComponentsV2(
  nodes: readonly ReplyNode[],
  attachments: readonly V2Attachment[],
  options: V2Options,
): DiscordComponent[][] {
  const split = closingText(nodes);
  const { items, pager } = itemsOf(split.body);
  const closing = split.closing === '' ? null : split.closing;
  const files = fileComponents(attachments);
  const drafts: Item[][] = [[]];
  for (const item of items) {
    const current = drafts.at(-1) as Item[];
    const extras = { pager, files: drafts.length === 1 ? files : [], note: null, closing };
    if (current.length === 0 || laidOut([...current, item], extras) !== null) current.push(item);
    else drafts.push([item]);
  }
  const kept = drafts.slice(0, options.messagesMax);
  const cut = drafts.length > kept.length;
  return kept.map((draft, index) => {
    const last = index === kept.length - 1;
    const extras: Extras = {
      pager: last ? pager : null,
      files: index === 0 ? files : [],
      note: last && cut ? truncate(singleLine(options.truncated), 200) : null,
      closing: last ? closing : null,
    };
    // The marker may take the room of the last items: they give way to it.
    for (let size = draft.length; size > 0; size--) {
      const components = laidOut(draft.slice(0, size), extras);
      if (components !== null) return components;
    }
    return build(draft.slice(0, 1), LEVELS.at(-1) as Level, extras).components;
  });
}
