/**
 * The embed half of the Discord renderer: reply nodes become pieces (an embed with the buttons of its node,
 * a row of buttons, or a select), every embed within Discord's per-field and per-message limits.
 */
import type { APIEmbed } from 'discord.js';
import {
  assertNever,
  type Button,
  type CardNode,
  type Field,
  type NoticeLevel,
  type PagerNode,
  peopleApart,
  type ReplyNode,
  type SelectNode,
  type TableNode,
  tableLines,
  truncate,
} from '../../core/ui/index.js';
import { DISCORD } from './limits.js';
import {
  chunkText,
  escapeLine,
  escapeMarkdown,
  mentionMarkdown,
  plainLine,
  spansToMarkdown,
  truncateMarkdown,
} from './markdown.js';

/** Description length of one text embed: two never share a message, so help pages split cleanly. */
export const TEXT_CHUNK_MAX = 3900;

const COLORS: Readonly<Record<NoticeLevel | 'card', number>> = {
  info: 0x5865f2,
  success: 0x57f287,
  warning: 0xfee75c,
  error: 0xed4245,
  card: 0x2b88d8,
};
const NOTICE_ICONS: Readonly<Record<NoticeLevel, string>> = {
  info: 'ℹ️',
  success: '✅',
  warning: '⚠️',
  error: '❌',
};
/** A unit of layout: an embed with its node's buttons, a row of buttons, or a select. */
export type Piece =
  | { kind: 'embed'; embed: APIEmbed; buttons: readonly Button[] }
  | { kind: 'buttons'; buttons: readonly Button[] }
  | { kind: 'select'; select: SelectNode };

/** Characters of an embed that count toward the 6,000 per message. */
export function embedTextLength(embed: APIEmbed): number {
  let total = (embed.title ?? '').length + (embed.description ?? '').length;
  total += (embed.footer?.text ?? '').length + (embed.author?.name ?? '').length;
  for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  return total;
}

// One embed may hold at most this much, so any single node fits a message with room for a short note.
const EMBED_TEXT_MAX = DISCORD.EMBEDS_TOTAL_TEXT_MAX - 200;

/** Shrinks an embed whose text alone passes a message's total (ten long fields do): description, then values. */
export function fitEmbed(embed: APIEmbed, max = EMBED_TEXT_MAX): APIEmbed {
  if (embedTextLength(embed) <= max) return embed;
  const fields = embed.fields ?? [];
  const fixed =
    (embed.title ?? '').length +
    (embed.footer?.text ?? '').length +
    (embed.author?.name ?? '').length +
    fields.reduce((sum, f) => sum + f.name.length, 0);
  const room = Math.max(0, max - fixed);
  const description = truncateMarkdown(
    embed.description ?? '',
    fields.length === 0 ? room : Math.floor(room / 3),
  );
  const perField = fields.length === 0 ? 0 : Math.floor((room - description.length) / fields.length);
  const fitted: APIEmbed = {
    ...embed,
    fields: fields.map((f) => ({ ...f, value: truncate(f.value, Math.max(1, perField)) || '\u200b' })),
  };
  if (description === '') delete fitted.description;
  else fitted.description = description;
  if (fields.length === 0) delete fitted.fields;
  return fitted;
}

const fieldOf = (field: Field) => ({
  name: escapeLine(field.label, DISCORD.EMBED_FIELD_NAME_MAX) || '\u200b',
  value: truncate(escapeMarkdown(field.value), DISCORD.EMBED_FIELD_VALUE_MAX) || '\u200b',
  inline: field.inline === true,
});

const fieldsOf = (fields: readonly Field[]) => fields.slice(0, DISCORD.EMBED_FIELDS_MAX).map(fieldOf);

const titled = (title: string, number: number | null) =>
  escapeLine(number === null ? title : `${number}. ${title}`, DISCORD.EMBED_TITLE_MAX);

const described = (embed: APIEmbed, text: string): APIEmbed =>
  text === '' ? embed : { ...embed, description: truncateMarkdown(text, DISCORD.EMBED_DESCRIPTION_MAX) };

/**
 * The embed of a card: the title (numbered when several cards share a reply) linking to the card's page, the
 * subtitle and body lines as the description, the image as the thumbnail, the fields and the footnote as the
 * footer.
 */
function cardEmbed(card: CardNode, number: number | null): APIEmbed {
  let embed: APIEmbed = {
    color: COLORS.card,
    title: titled(card.title, number),
    fields: fieldsOf(card.fields),
  };
  const lines = card.subtitle === null ? card.body : [card.subtitle, ...card.body];
  embed = described(embed, lines.map(escapeMarkdown).join('\n'));
  if (card.image !== null) embed = { ...embed, thumbnail: { url: card.image.url } };
  if (card.footnote !== null) {
    embed = { ...embed, footer: { text: plainLine(card.footnote, DISCORD.EMBED_FOOTER_MAX) } };
  }
  return card.link === null ? embed : { ...embed, url: card.link.url };
}

/**
 * A table as aligned text in a code block, its caption in bold above: one embed, or several when its rows pass an
 * embed's description, each with whole rows and its own fences.
 */
function tablePieces(node: TableNode): Piece[] {
  const caption = `**${escapeLine(node.caption, 200)}**`;
  if (node.rows.length === 0) {
    return [{ kind: 'embed', embed: { description: `${caption}: none.` }, buttons: [] }];
  }
  const apart = peopleApart(node);
  if (apart !== null) return peopleTablePieces(caption, apart);
  const [header = '', rule = '', ...rows] = tableLines(node).map((line) => line.replace(/```/g, 'ˋˋˋ'));
  const room = TEXT_CHUNK_MAX - caption.length - header.length - rule.length - 20;
  const chunks: string[][] = [[]];
  let size = 0;
  for (const row of rows) {
    const current = chunks.at(-1) as string[];
    if (current.length > 0 && size + row.length + 1 > room) {
      chunks.push([]);
      size = 0;
    }
    (chunks.at(-1) as string[]).push(truncate(row, room));
    size += row.length + 1;
  }
  return chunks.map((chunk) => ({
    kind: 'embed',
    embed: { description: `${caption}\n\`\`\`\n${[header, rule, ...chunk].join('\n')}\n\`\`\`` },
    buttons: [],
  }));
}

/**
 * A table naming people: each line its other cells aligned in inline code, then the people by mention, which
 * Discord shows by name (a mention in a code block would show its id). As many embeds as its lines need.
 */
function peopleTablePieces(caption: string, apart: NonNullable<ReturnType<typeof peopleApart>>): Piece[] {
  const code = (line: string) => `\`${line.replace(/`/g, 'ˋ')}\``;
  const [header = '', , ...rows] = tableLines(apart.rest);
  const lines = [
    `${code(header)} ${apart.labels.map((label) => escapeLine(label, 100)).join(' ')}`,
    ...rows.map((row, index) => `${code(row)} ${(apart.people[index] ?? []).map(mentionMarkdown).join(' ')}`),
  ];
  return chunkText(lines.join('\n'), TEXT_CHUNK_MAX - caption.length - 1).map((chunk) => ({
    kind: 'embed',
    embed: { description: `${caption}\n${chunk}` },
    buttons: [],
  }));
}

/** Turns nodes into pieces; consecutive text and code merge into shared description embeds. */
export function piecesOf(nodes: readonly ReplyNode[]): { pieces: Piece[]; pagers: PagerNode[] } {
  const pieces: Piece[] = [];
  const pagers: PagerNode[] = [];
  const numbered = nodes.filter((n) => n.type === 'card' && n.actions.length > 0).length > 1;
  let cardNumber = 0;
  let text: string[] = [];
  const flush = () => {
    if (text.length === 0) return;
    for (const chunk of chunkText(text.join('\n\n'), TEXT_CHUNK_MAX)) {
      pieces.push({ kind: 'embed', embed: { description: chunk }, buttons: [] });
    }
    text = [];
  };
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        text.push(spansToMarkdown(node.spans));
        continue;
      case 'code-block': {
        const title = node.title === undefined ? '' : `**${escapeLine(node.title, 200)}**\n`;
        const body = node.code.replace(/```/g, 'ˋˋˋ');
        text.push(`${title}\`\`\`${node.language ?? ''}\n${truncate(body, TEXT_CHUNK_MAX - 300)}\n\`\`\``);
        continue;
      }
      case 'divider':
        flush();
        continue;
      case 'table':
        flush();
        pieces.push(...tablePieces(node));
        continue;
      default:
        break;
    }
    flush();
    switch (node.type) {
      case 'card': {
        const number = numbered && node.actions.length > 0 ? ++cardNumber : null;
        const embed = cardEmbed(node, number);
        const actions = node.actions.map((b) =>
          number === null ? b : { ...b, label: plainLine(`${number}. ${b.label}`, DISCORD.BUTTON_LABEL_MAX) },
        );
        pieces.push({ kind: 'embed', embed, buttons: actions });
        break;
      }
      case 'fields':
        pieces.push({ kind: 'embed', embed: { fields: fieldsOf(node.fields) }, buttons: [] });
        break;
      case 'notice': {
        const reference =
          node.reference === undefined ? null : { text: plainLine(`Ref ${node.reference}`, 200) };
        const body = `${NOTICE_ICONS[node.level]} ${spansToMarkdown(node.spans)}`;
        const embed = described({ color: COLORS[node.level] }, body);
        pieces.push({
          kind: 'embed',
          embed: reference === null ? embed : { ...embed, footer: reference },
          buttons: [],
        });
        break;
      }
      case 'image': {
        const embed: APIEmbed = { image: { url: node.url } };
        const title = node.title ?? node.alt;
        pieces.push({
          kind: 'embed',
          embed: title === '' ? embed : { ...embed, title: escapeLine(title, DISCORD.EMBED_TITLE_MAX) },
          buttons: [],
        });
        break;
      }
      case 'buttons':
        pieces.push({ kind: 'buttons', buttons: node.buttons });
        break;
      case 'select':
        pieces.push({ kind: 'select', select: node });
        break;
      case 'pager':
        pagers.push(node);
        break;
      default:
        assertNever(node, 'reply node');
    }
  }
  flush();
  return { pieces, pagers };
}
