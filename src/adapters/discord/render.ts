/**
 * The Discord renderer: a pure function from the neutral reply model to message payloads that always fit
 * Discord's limits. A reply with cards is laid out with Components V2 (render-v2.ts: a container of sections
 * with the cards' pictures, text displays, action rows); any other reply, and a post that carries a footer note,
 * as embeds and component rows: buttons of several nodes are packed five to a row; what does not fit goes to a
 * "More actions" select or to a further message; the pager is always kept, on the last message.
 */
import { type APIEmbed, ComponentType } from 'discord.js';
import type { Button, Reply, SelectNode } from '../../core/ui/index.js';
import { DISCORD } from './limits.js';
import { plainLine } from './markdown.js';
import {
  buttonComponent,
  type DiscordComponent,
  type DiscordRow,
  MORE_PREFIX,
  pagerButtons,
  selectComponent,
} from './render-components.js';
import { embedTextLength, fitEmbed, piecesOf } from './render-embeds.js';
import { renderComponentsV2 } from './render-v2.js';

/** Shared component parts, part of the renderer's surface. */
export { type DiscordComponent, type DiscordRow, MORE_PREFIX, NOOP_PREFIX } from './render-components.js';
/** Embed sizing, part of the renderer's surface. */
export { embedTextLength, fitEmbed, TEXT_CHUNK_MAX } from './render-embeds.js';

/**
 * One message to send: content (for overflow notes), embeds and components (action rows); or, with
 * `componentsV2`, components alone (IS_COMPONENTS_V2: Discord then refuses content and embeds).
 */
export interface DiscordMessage {
  content: string;
  embeds: APIEmbed[];
  components: DiscordComponent[];
  /** Laid out with Components V2: sent with the IS_COMPONENTS_V2 flag, which an edit can set but never clear. */
  componentsV2: boolean;
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
/** Longest footer note a message may carry (`RenderOptions.footerNote`); room for it is kept in every message. */
export const FOOTER_NOTE_MAX = 32;
/** Joins a footer note to a footer the last embed already has. */
const FOOTER_JOIN = ' · ';

/** How a reply is rendered. */
export interface RenderOptions {
  /**
   * A short line (at most FOOTER_NOTE_MAX characters) for the footer of message `index`'s last embed; a reply
   * given one is laid out with embeds, where the note can be found again.
   */
  footerNote?: (index: number) => string;
  /**
   * Lay the reply out with Components V2 whatever it holds: it replaces a message that has the flag, which Discord
   * never takes away.
   */
  componentsV2?: boolean;
}

/** The marker shown when a reply is cut. */
export const TRUNCATED_NOTE =
  '… (the rest of this answer did not fit: narrow the command or page through it)';

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

/** Whether a reply is laid out with Components V2: asked for, or cards shown in a reply that carries no note. */
function usesComponentsV2(reply: Reply, options: RenderOptions): boolean {
  if (options.componentsV2 === true) return true;
  return options.footerNote === undefined && reply.nodes.some((node) => node.type === 'card');
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
  const files = discordFiles(reply);
  const ephemeral = reply.visibility === 'author';
  if (usesComponentsV2(reply, options)) {
    const images = new Set((reply.files ?? []).filter((f) => f.display === 'image').map((f) => f.name));
    const attachments = files.map((file) => ({ name: file.name, image: images.has(file.name) }));
    const laid = renderComponentsV2(reply.nodes, attachments, {
      messagesMax: MESSAGES_MAX,
      truncated: TRUNCATED_NOTE,
    });
    const messages = laid.map((components) => ({ content: '', embeds: [], components, componentsV2: true }));
    return { messages, ephemeral, files };
  }
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
  const messages = kept.map((draft, index): DiscordMessage => {
    const last = index === kept.length - 1;
    const components: DiscordComponent[] = layoutRows(draft.buttons, draft.selects, rowBudget);
    if (last && pager !== null)
      components.push({ type: ComponentType.ActionRow, components: pagerButtons(pager) });
    const embeds =
      index === 0
        ? [...draft.embeds, ...imageEmbeds(reply, files, DISCORD.EMBEDS_MAX - draft.embeds.length)]
        : draft.embeds;
    const cut = last && drafts.length > kept.length;
    const content = cut ? TRUNCATED_NOTE : embeds.length === 0 && components.length === 0 ? 'Done.' : '';
    const message = { content, embeds, components, componentsV2: false };
    return footerNote === undefined ? message : withFooterNote(message, footerNote(index));
  });
  return { messages, ephemeral, files };
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
