/**
 * The Discord renderer: a pure function from the neutral reply model to message payloads (embeds and
 * component rows) that always fit Discord's limits. Cards become embeds; buttons of several nodes are packed
 * five to a row; what does not fit goes to a "More actions" select or to a further message; the pager is
 * always kept, on the last message.
 */
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import {
  assertNever,
  type Button,
  contactRowFields,
  contactRowTitle,
  creatorCardFields,
  creatorCardPlatform,
  creatorCardTitle,
  DISCORD,
  type Field,
  listRowFields,
  listRowTitle,
  type NoticeLevel,
  type PagerNode,
  type Reply,
  type ReplyNode,
  type SelectNode,
  truncate,
  viralPostFields,
  viralPostTitle,
} from '../../core/ui/index.js';
import { chunkText, escapeLine, escapeMarkdown, plainLine, spansToMarkdown } from './markdown.js';

/** An action row of a message. */
export type DiscordRow = APIActionRowComponent<APIComponentInMessageActionRow>;

/** One message to send: content (for overflow notes), embeds and component rows. */
export interface DiscordMessage {
  content: string;
  embeds: APIEmbed[];
  components: DiscordRow[];
}

/** A rendered reply: one or more messages, and whether only the author sees them. */
export interface DiscordRendering {
  messages: DiscordMessage[];
  ephemeral: boolean;
}

/** Most messages one reply may take; anything further is cut with a marker. */
export const MESSAGES_MAX = 5;
/** Description length of one text embed: two never share a message, so help pages split cleanly. */
export const TEXT_CHUNK_MAX = 3900;
/** Prefix of custom_ids that do nothing (disabled pager parts), never routed to the dispatcher. */
export const NOOP_PREFIX = 'scout.noop';
/** custom_id of the select that carries buttons that did not fit; its values are the buttons' tokens. */
export const MORE_PREFIX = 'scout.more';
/** The marker shown when a reply is cut. */
export const TRUNCATED_NOTE =
  '… (the rest of this answer did not fit: narrow the command or page through it)';

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
const STYLES: Readonly<Record<Button['style'], APIButtonComponentWithCustomId['style']>> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  danger: ButtonStyle.Danger,
};

type Piece =
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
  const description = truncate(embed.description ?? '', fields.length === 0 ? room : Math.floor(room / 3));
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

const withUrl = (embed: APIEmbed, url: string | null): APIEmbed => (url === null ? embed : { ...embed, url });

const described = (embed: APIEmbed, text: string): APIEmbed =>
  text === '' ? embed : { ...embed, description: truncate(text, DISCORD.EMBED_DESCRIPTION_MAX) };

/** The embed of a card node, numbered when several cards share a reply. */
function cardEmbed(node: ReplyNode, number: number | null): APIEmbed | null {
  switch (node.type) {
    case 'creator-card': {
      let embed: APIEmbed = {
        color: COLORS.card,
        title: titled(creatorCardTitle(node), number),
        fields: fieldsOf(creatorCardFields(node)),
      };
      embed = described(embed, escapeMarkdown(creatorCardPlatform(node) ?? ''));
      if (node.avatarUrl !== null) embed = { ...embed, thumbnail: { url: node.avatarUrl } };
      return withUrl(embed, node.profileUrl);
    }
    case 'viral-post-card': {
      const body = [node.caption, node.hook === null ? null : `Hook: ${node.hook}`]
        .filter((line): line is string => line !== null)
        .map(escapeMarkdown)
        .join('\n');
      let embed: APIEmbed = {
        color: COLORS.card,
        title: titled(viralPostTitle(node), number),
        fields: fieldsOf(viralPostFields(node)),
      };
      embed = described(embed, body);
      if (node.thumbnailUrl !== null) embed = { ...embed, thumbnail: { url: node.thumbnailUrl } };
      return withUrl(embed, node.videoUrl);
    }
    case 'list-row': {
      const embed: APIEmbed = {
        color: COLORS.card,
        title: titled(listRowTitle(node), number),
        fields: fieldsOf(listRowFields(node)),
      };
      return described(embed, escapeMarkdown(node.description ?? ''));
    }
    case 'contact-row': {
      const embed: APIEmbed = {
        color: COLORS.card,
        title: titled(contactRowTitle(node), number),
        fields: fieldsOf(contactRowFields(node)),
      };
      return described(embed, node.notes === null ? '' : escapeMarkdown(`Notes: ${node.notes}`));
    }
    default:
      return null;
  }
}

const isCard = (node: ReplyNode) =>
  node.type === 'creator-card' ||
  node.type === 'viral-post-card' ||
  node.type === 'list-row' ||
  node.type === 'contact-row';

/** Turns nodes into pieces; consecutive text and code merge into shared description embeds. */
function piecesOf(nodes: readonly ReplyNode[]): { pieces: Piece[]; pagers: PagerNode[] } {
  const pieces: Piece[] = [];
  const pagers: PagerNode[] = [];
  const numbered = nodes.filter((n) => isCard(n) && 'actions' in n && n.actions.length > 0).length > 1;
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
      default:
        break;
    }
    flush();
    switch (node.type) {
      case 'creator-card':
      case 'viral-post-card':
      case 'list-row':
      case 'contact-row': {
        const number = numbered && node.actions.length > 0 ? ++cardNumber : null;
        const embed = cardEmbed(node, number) ?? {};
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

function buttonComponent(b: Button): APIButtonComponentWithCustomId {
  return {
    type: ComponentType.Button,
    custom_id: b.actionId,
    label: plainLine(b.label, DISCORD.BUTTON_LABEL_MAX) || '·',
    style: STYLES[b.style],
    ...(b.disabled === true ? { disabled: true } : {}),
  };
}

function selectComponent(node: SelectNode): APIStringSelectComponent {
  return {
    type: ComponentType.StringSelect,
    custom_id: node.actionId,
    placeholder: plainLine(node.placeholder, DISCORD.PLACEHOLDER_MAX),
    options: node.options.slice(0, DISCORD.SELECT_OPTIONS_MAX).map((option) => ({
      label: plainLine(option.label, DISCORD.OPTION_LABEL_MAX) || '·',
      value: option.value,
      ...(option.description === undefined
        ? {}
        : { description: plainLine(option.description, DISCORD.OPTION_DESCRIPTION_MAX) }),
      ...(node.selected === option.value ? { default: true } : {}),
    })),
  };
}

function pagerRow(node: PagerNode): DiscordRow {
  const of = node.totalPages === null ? '' : ` of ${node.totalPages}`;
  const label = plainLine(node.label ?? `Page ${node.page}${of}`, DISCORD.BUTTON_LABEL_MAX);
  const part = (id: string | null, text: string, noop: string): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    custom_id: id ?? `${NOOP_PREFIX}:${noop}`,
    label: text,
    style: ButtonStyle.Secondary,
    ...(id === null ? { disabled: true } : {}),
  });
  return {
    type: ComponentType.ActionRow,
    components: [
      part(node.prevActionId, '◀ Previous', 'prev'),
      part(null, label || `Page ${node.page}`, 'page'),
      { ...part(node.nextActionId, 'Next ▶', 'next'), style: ButtonStyle.Primary },
    ],
  };
}

/** Lays out the components of one message in at most `rows` rows, overflow buttons in a select. */
function layoutRows(buttons: readonly Button[], selects: readonly SelectNode[], rows: number): DiscordRow[] {
  const out: DiscordRow[] = [];
  const seen = new Set<string>();
  const unique = buttons.filter((b) => !seen.has(b.actionId) && seen.add(b.actionId));
  const keptSelects = selects.filter((s) => !seen.has(s.actionId) && seen.add(s.actionId)).slice(0, rows);
  const buttonRows = rows - keptSelects.length;
  const fits = unique.length <= buttonRows * DISCORD.ROW_BUTTONS_MAX;
  const inRows = fits ? unique : unique.slice(0, Math.max(0, buttonRows - 1) * DISCORD.ROW_BUTTONS_MAX);
  for (let i = 0; i < inRows.length; i += DISCORD.ROW_BUTTONS_MAX) {
    const row = inRows.slice(i, i + DISCORD.ROW_BUTTONS_MAX).map(buttonComponent);
    out.push({ type: ComponentType.ActionRow, components: row });
  }
  const overflow = unique.slice(inRows.length).filter((b) => b.disabled !== true);
  if (!fits && overflow.length > 0 && buttonRows > 0) {
    out.push({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: `${MORE_PREFIX}:${out.length}`,
          placeholder: 'More actions…',
          options: overflow.slice(0, DISCORD.SELECT_OPTIONS_MAX).map((b) => ({
            label: plainLine(b.label, DISCORD.OPTION_LABEL_MAX) || '·',
            value: b.actionId,
          })),
        },
      ],
    });
  }
  for (const s of keptSelects) out.push({ type: ComponentType.ActionRow, components: [selectComponent(s)] });
  return out;
}

interface Draft {
  embeds: APIEmbed[];
  textLength: number;
  buttons: Button[];
  selects: SelectNode[];
}

const emptyDraft = (): Draft => ({ embeds: [], textLength: 0, buttons: [], selects: [] });

const rowsNeeded = (buttons: number, selects: number) =>
  Math.ceil(buttons / DISCORD.ROW_BUTTONS_MAX) + selects;

/** Renders a reply as Discord messages within every limit. */
export function renderDiscord(reply: Reply): DiscordRendering {
  const { pieces, pagers } = piecesOf(reply.nodes);
  const pager = pagers.at(-1) ?? null;
  const rowBudget = DISCORD.ACTION_ROWS_MAX - (pager === null ? 0 : 1);
  const drafts: Draft[] = [emptyDraft()];
  for (const piece of pieces) {
    let draft = drafts.at(-1) as Draft;
    const embed = piece.kind === 'embed' ? fitEmbed(piece.embed) : null;
    const length = embed === null ? 0 : embedTextLength(embed);
    const buttons = piece.kind === 'select' ? [] : piece.buttons;
    const selects = piece.kind === 'select' ? 1 : 0;
    const fits =
      (embed === null ||
        (draft.embeds.length < DISCORD.EMBEDS_MAX &&
          draft.textLength + length <= DISCORD.EMBEDS_TOTAL_TEXT_MAX)) &&
      rowsNeeded(draft.buttons.length + buttons.length, draft.selects.length + selects) <= rowBudget;
    const empty = draft.embeds.length === 0 && draft.buttons.length === 0 && draft.selects.length === 0;
    if (!fits && !empty) {
      draft = emptyDraft();
      drafts.push(draft);
    }
    if (embed !== null) {
      draft.embeds.push(embed);
      draft.textLength += length;
    }
    draft.buttons.push(...buttons);
    if (piece.kind === 'select') draft.selects.push(piece.select);
  }
  const kept = drafts.slice(0, MESSAGES_MAX);
  const messages = kept.map((draft, index): DiscordMessage => {
    const last = index === kept.length - 1;
    const components = layoutRows(draft.buttons, draft.selects, rowBudget);
    if (last && pager !== null) components.push(pagerRow(pager));
    const cut = last && drafts.length > kept.length;
    const content = cut
      ? TRUNCATED_NOTE
      : draft.embeds.length === 0 && components.length === 0
        ? 'Done.'
        : '';
    return { content, embeds: draft.embeds, components };
  });
  return { messages, ephemeral: reply.visibility === 'author' };
}
