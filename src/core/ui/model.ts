/**
 * The platform-neutral reply model. Command handlers return a `Reply`; each adapter renders it with an
 * exhaustive switch over `ReplyNode['type']`. Nodes hold cleaned, length-capped text (see the builders) and
 * `null` where there is nothing to show; renderers only escape and lay out. The model knows nothing of the
 * service: a card's builder decides what the card shows.
 */
import type { Span } from './markup.js';

/** Who sees a reply: only the person who asked (ephemeral) or the whole channel. */
export type Visibility = 'author' | 'channel';

/** Visual weight of a button. */
export type ButtonStyle = 'primary' | 'secondary' | 'danger';

/** A button; `actionId` is an opaque token (see `isActionId`) routed back when it is pressed. */
export interface Button {
  readonly label: string;
  readonly actionId: string;
  readonly style: ButtonStyle;
  readonly disabled?: boolean;
}

/** One choice of a select. */
export interface SelectOption {
  readonly label: string;
  readonly value: string;
  readonly description?: string;
}

/** A label/value pair; inline fields may sit side by side. */
export interface Field {
  readonly label: string;
  readonly value: string;
  readonly inline?: boolean;
}

/** Severity of a notice. */
export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';

/** Inline-formatted text (see markup.ts for the exact subset). */
export interface TextNode {
  readonly type: 'text';
  readonly spans: readonly Span[];
}

/** A group of label/value pairs. */
export interface FieldsNode {
  readonly type: 'fields';
  readonly fields: readonly Field[];
}

/** A picture shown beside a card's title, such as a creator's avatar or a post's thumbnail. */
export interface CardImage {
  /** An absolute http(s) URL. */
  readonly url: string;
  /** What the picture shows, for screen readers and where pictures are not shown. */
  readonly alt: string;
}

/** The page a card's title leads to. */
export interface CardLink {
  /** An absolute http(s) URL. */
  readonly url: string;
  /** What the page is ("Profile", "Video"): text renderers, where a title cannot be a link, print "label: url". */
  readonly label: string;
}

/**
 * One thing shown as a card: a creator, a post, a CRM list or contact. The builder that makes a card (cards.ts,
 * commands/lists/crm-cards.ts) decides what it shows; renderers lay out these parts the same way for every card, in this
 * order: the title (a link when `link` is set) with `subtitle` and the image beside it, the `body` lines, the
 * `fields`, the `footnote`, then the `actions`. All text is plain, cleaned and capped by `card()`, one line per
 * string except field values; renderers escape it.
 */
export interface CardNode {
  readonly type: 'card';
  readonly title: string;
  readonly link: CardLink | null;
  /** A short line that qualifies the title, such as a creator's platform. */
  readonly subtitle: string | null;
  /** Lines of text under the title, such as a caption or notes; none for a card of facts only. */
  readonly body: readonly string[];
  readonly image: CardImage | null;
  /** The facts of the card in display order, at most CARD_FIELDS_MAX. */
  readonly fields: readonly Field[];
  /** A quiet line after the facts, such as how old the data is. */
  readonly footnote: string | null;
  /** At most one row of buttons. */
  readonly actions: readonly Button[];
}

/** A short status message. */
export interface NoticeNode {
  readonly type: 'notice';
  readonly level: NoticeLevel;
  readonly spans: readonly Span[];
  /** An id the user can quote to support (request id, job id). */
  readonly reference?: string;
}

/** A row of buttons. */
export interface ButtonsNode {
  readonly type: 'buttons';
  readonly buttons: readonly Button[];
}

/** A single-choice menu. */
export interface SelectNode {
  readonly type: 'select';
  readonly placeholder: string;
  readonly actionId: string;
  readonly options: readonly SelectOption[];
  /** Value of the preselected option. */
  readonly selected?: string;
  /**
   * The action also takes a value typed by the person (a list's name), for a platform to offer when the select
   * cannot show every choice.
   */
  readonly typed?: boolean;
  /**
   * The person may choose several options at once (a multi-select); the action receives them all as the event's
   * `choices`, in the options' order.
   */
  readonly multiple?: boolean;
}

/** One cell of a table: its text as shown, and the number it stands for when the column sorts by number. */
export interface TableCell {
  readonly text: string;
  /** The value behind a formatted number ("1.2M" is 1200000), or null for text. */
  readonly number: number | null;
  /** The chat user the cell names, shown by name where the platform can (`text` is then `@` and their id). */
  readonly person?: string;
}

/** One column of a table. */
export interface TableColumn {
  readonly label: string;
  /** Numbers are right-aligned. */
  readonly align: 'left' | 'right';
}

/**
 * Rows of facts read side by side: a list's contacts, spend by person, a song chart. Renderers lay it out natively
 * where the platform has a table (Slack's data table pages and sorts it in the message) and as aligned text
 * elsewhere. Build one with `table()`, which caps rows, columns and cell text.
 */
export interface TableNode {
  readonly type: 'table';
  /** What the table shows, in a few words ("Contacts of Spring Launch"). */
  readonly caption: string;
  readonly columns: readonly TableColumn[];
  /** Each row has one cell per column. */
  readonly rows: readonly (readonly TableCell[])[];
}

/** Page navigation; a null action token means there is no page that way. */
export interface PagerNode {
  readonly type: 'pager';
  /** 1-based. */
  readonly page: number;
  /** Null when the service does not say how many pages there are. */
  readonly totalPages: number | null;
  readonly prevActionId: string | null;
  readonly nextActionId: string | null;
  readonly label?: string;
  /** What the next page may cost, said on its button ("up to 5 credits"); absent when it is free. */
  readonly nextCost?: string;
}

/** A horizontal rule. */
export interface DividerNode {
  readonly type: 'divider';
}

/** A standalone image. */
export interface ImageNode {
  readonly type: 'image';
  readonly url: string;
  readonly alt: string;
  readonly title?: string;
}

/** Preformatted text, such as a generic rendering of an undocumented JSON response. */
export interface CodeBlockNode {
  readonly type: 'code-block';
  readonly code: string;
  readonly language?: string;
  readonly title?: string;
}

/** Any node of a reply. */
export type ReplyNode =
  | TextNode
  | FieldsNode
  | CardNode
  | NoticeNode
  | ButtonsNode
  | SelectNode
  | PagerNode
  | DividerNode
  | ImageNode
  | CodeBlockNode
  | TableNode;

/** The discriminant of a node. */
export type ReplyNodeType = ReplyNode['type'];

/** Every node type, for renderers' tests to cover exhaustively. */
export const REPLY_NODE_TYPES = [
  'text',
  'fields',
  'card',
  'notice',
  'buttons',
  'select',
  'pager',
  'divider',
  'image',
  'code-block',
  'table',
] as const satisfies readonly ReplyNodeType[];

/**
 * A file delivered with a reply, such as a CSV export. It is not a node: renderers lay out the nodes, and each
 * adapter's delivery step hands the file over with the answer to a command or press (Slack uploads it to the
 * channel, Discord attaches it, the terminal saves it and prints the path); background posts carry none. Build one
 * with `file()`, which keeps the name safe and the size within limits.
 */
export interface FileAttachment {
  /** File name with its extension; letters, digits, dot, dash and underscore only. */
  readonly name: string;
  /** MIME type, e.g. "text/csv". */
  readonly mimeType: string;
  readonly bytes: Uint8Array;
  /** A short, single-line title shown with the file. */
  readonly title: string;
  /**
   * 'image': a picture to show with the reply, not only to download. Discord shows it in an embed; Slack shows an
   * uploaded image itself (privately, by reference, for an author-only reply); the terminal saves it as any file.
   */
  readonly display?: 'image';
}

/** What a command handler returns. */
export interface Reply {
  readonly nodes: readonly ReplyNode[];
  readonly visibility: Visibility;
  /** Update the message the interaction came from instead of posting a new one (paging, refresh). */
  readonly replace?: boolean;
  /** Files shared with the reply's audience, after its nodes. */
  readonly files?: readonly FileAttachment[];
}

/** For an exhaustive switch: a compile error when a case is missing, an error at runtime for foreign data. */
export function assertNever(value: never, what = 'value'): never {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : value;
  throw new TypeError(`Unexpected ${what}: ${JSON.stringify(type) ?? String(type)}`);
}
