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
import type { Button, PagerNode, Reply, SelectNode } from '../../core/ui/index.js';
import { DISCORD } from './limits.js';
import { plainLine } from './markdown.js';
import { embedTextLength, fitEmbed, piecesOf } from './render-embeds.js';

/** Embed sizing, part of the renderer's surface. */
export { embedTextLength, fitEmbed, TEXT_CHUNK_MAX } from './render-embeds.js';

/** An action row of a message. */
export type DiscordRow = APIActionRowComponent<APIComponentInMessageActionRow>;

/** One message to send: content (for overflow notes), embeds and component rows. */
export interface DiscordMessage {
  content: string;
  embeds: APIEmbed[];
  components: DiscordRow[];
}

/** A file to attach, in the shape discord.js takes in a message's `files`. */
export interface DiscordFile {
  attachment: Buffer;
  name: string;
  description: string;
}

/** A rendered reply: one or more messages, whether only the author sees them, and files for the first message. */
export interface DiscordRendering {
  messages: DiscordMessage[];
  ephemeral: boolean;
  files: DiscordFile[];
}

/** Most messages one reply may take; anything further is cut with a marker. */
export const MESSAGES_MAX = 5;
/** Prefix of custom_ids that do nothing (disabled pager parts), never routed to the dispatcher. */
export const NOOP_PREFIX = 'scout.noop';
/** custom_id of the select that carries buttons that did not fit; its values are the buttons' tokens. */
export const MORE_PREFIX = 'scout.more';
/** Longest footer note a message may carry (`RenderOptions.footerNote`); room for it is kept in every message. */
export const FOOTER_NOTE_MAX = 32;
/** Joins a footer note to a footer the last embed already has. */
const FOOTER_JOIN = ' · ';

/** How a reply is rendered. */
export interface RenderOptions {
  /** A short line (at most FOOTER_NOTE_MAX characters) for the footer of message `index`'s last embed. */
  footerNote?: (index: number) => string;
}

/** The marker shown when a reply is cut. */
export const TRUNCATED_NOTE =
  '… (the rest of this answer did not fit: narrow the command or page through it)';

const STYLES: Readonly<Record<Button['style'], APIButtonComponentWithCustomId['style']>> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  danger: ButtonStyle.Danger,
};

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

/** Puts `note` in the footer of the message's last embed, or in an embed of its own when it has none. */
function withFooterNote(message: DiscordMessage, note: string): DiscordMessage {
  const text = note.slice(0, FOOTER_NOTE_MAX);
  if (text === '') return message;
  const last = message.embeds.at(-1);
  if (last === undefined) return { ...message, embeds: [{ footer: { text } }] };
  const footer = last.footer?.text
    ? { ...last.footer, text: `${last.footer.text}${FOOTER_JOIN}${text}` }
    : { text };
  return { ...message, embeds: [...message.embeds.slice(0, -1), { ...last, footer }] };
}

/** Renders a reply as Discord messages within every limit. */
export function renderDiscord(reply: Reply, options: RenderOptions = {}): DiscordRendering {
  const { footerNote } = options;
  const textMax =
    DISCORD.EMBEDS_TOTAL_TEXT_MAX - (footerNote === undefined ? 0 : FOOTER_NOTE_MAX + FOOTER_JOIN.length);
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
        (draft.embeds.length < DISCORD.EMBEDS_MAX && draft.textLength + length <= textMax)) &&
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
  const files = discordFiles(reply);
  const messages = kept.map((draft, index): DiscordMessage => {
    const last = index === kept.length - 1;
    const components = layoutRows(draft.buttons, draft.selects, rowBudget);
    if (last && pager !== null) components.push(pagerRow(pager));
    const embeds =
      index === 0
        ? [...draft.embeds, ...imageEmbeds(reply, files, DISCORD.EMBEDS_MAX - draft.embeds.length)]
        : draft.embeds;
    const cut = last && drafts.length > kept.length;
    const content = cut ? TRUNCATED_NOTE : embeds.length === 0 && components.length === 0 ? 'Done.' : '';
    const message = { content, embeds, components };
    return footerNote === undefined ? message : withFooterNote(message, footerNote(index));
  });
  return { messages, ephemeral: reply.visibility === 'author', files };
}

/**
 * Embeds showing the reply's image files (display 'image') that go with the first message, each by its attachment
 * name (https://discord.com/developers/docs/resources/message#embed-object-embed-image-structure), as room allows.
 */
function imageEmbeds(reply: Reply, attached: readonly DiscordFile[], room: number): APIEmbed[] {
  const names = new Set(attached.map((file) => file.name));
  return (reply.files ?? [])
    .filter((file) => file.display === 'image' && names.has(file.name))
    .slice(0, Math.max(0, room))
    .map((file) => ({ image: { url: `attachment://${file.name}` } }));
}

/** A reply's files as attachments, within a message's count and the description's length. */
function discordFiles(reply: Reply): DiscordFile[] {
  return (reply.files ?? []).slice(0, DISCORD.MESSAGE_FILES_MAX).map((file) => ({
    // A view of the same memory: an export is not copied again.
    attachment: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    name: file.name,
    description: plainLine(file.title, DISCORD.FILE_DESCRIPTION_MAX),
  }));
}
