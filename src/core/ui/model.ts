/**
 * The platform-neutral reply model. Command handlers return a `Reply`; each adapter renders it with an
 * exhaustive switch over `ReplyNode['type']`. Data fields hold cleaned, single-line, length-capped values
 * (see the builders) and `null` where the service gave nothing; renderers only escape and lay out.
 */
import type { CrmStatus } from '../service/enums.js';
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

/** Virality band of a viral post (score 0..1): below 0.2, 0.2–0.5, 0.5–0.8, 0.8 and above. */
export type ViralityLevel = 'average' | 'above-average' | 'highly-viral' | 'breakout';

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

/** A creator profile summary. */
export interface CreatorCardNode {
  readonly type: 'creator-card';
  readonly userId: string | null;
  /** Handle without a leading "@". */
  readonly handle: string | null;
  readonly nickname: string | null;
  /** Lowercase platform (`source`), e.g. "tiktok". */
  readonly platform: string | null;
  readonly avatarUrl: string | null;
  readonly profileUrl: string | null;
  readonly followers: number | null;
  /** Engagement as a percentage (3.4 means 3.4%), converted from the profile's fraction. */
  readonly engagementPercent: number | null;
  readonly avgViews: number | null;
  readonly avgLikes: number | null;
  readonly country: string | null;
  readonly language: string | null;
  readonly mainCategory: string | null;
  /** The profile's best_promotion_niches, capped. */
  readonly niches: readonly string[];
  /** Whether the service knows an email for the creator. */
  readonly emailKnown: boolean;
  /** The email itself, only when the caller explicitly asked to reveal it. */
  readonly email: string | null;
  /** When the profile was fetched, ISO 8601 UTC. */
  readonly fetchedAt: string | null;
  /** Age of the data at build time, e.g. "2 days old". */
  readonly dataAge: string;
  readonly actions: readonly Button[];
}

/** A viral short-video post summary. */
export interface ViralPostCardNode {
  readonly type: 'viral-post-card';
  readonly postId: string | null;
  readonly thumbnailUrl: string | null;
  readonly videoUrl: string | null;
  readonly caption: string | null;
  /** Creator username without a leading "@". */
  readonly creatorUsername: string | null;
  readonly views: number | null;
  readonly likes: number | null;
  readonly comments: number | null;
  readonly shares: number | null;
  /** Score 0..1 as the service sent it. */
  readonly viralityScore: number | null;
  readonly virality: ViralityLevel | null;
  readonly category: string | null;
  readonly country: string | null;
  readonly musicTitle: string | null;
  readonly hook: string | null;
  /** ISO 8601 UTC. */
  readonly createdAt: string | null;
  readonly actions: readonly Button[];
}

/** A CRM list with its counts. */
export interface ListRowNode {
  readonly type: 'list-row';
  readonly listId: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly contactCount: number | null;
  readonly toOutreachCount: number | null;
  readonly budget: number | null;
  /** Calendar dates "YYYY-MM-DD". */
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly actions: readonly Button[];
}

/** A creator inside a CRM list. */
export interface ContactRowNode {
  readonly type: 'contact-row';
  readonly contactId: string | null;
  readonly listId: string | null;
  readonly userId: string | null;
  /** Handle without a leading "@". */
  readonly handle: string | null;
  readonly status: CrmStatus | null;
  readonly email: string | null;
  readonly proposedRate: number | null;
  readonly agreedRate: number | null;
  readonly deliverables: string | null;
  readonly notes: string | null;
  /** Calendar date "YYYY-MM-DD". */
  readonly lastContactDate: string | null;
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
  | CreatorCardNode
  | ViralPostCardNode
  | ListRowNode
  | ContactRowNode
  | NoticeNode
  | ButtonsNode
  | SelectNode
  | PagerNode
  | DividerNode
  | ImageNode
  | CodeBlockNode;

/** The discriminant of a node. */
export type ReplyNodeType = ReplyNode['type'];

/** Every node type, for renderers' tests to cover exhaustively. */
export const REPLY_NODE_TYPES = [
  'text',
  'fields',
  'creator-card',
  'viral-post-card',
  'list-row',
  'contact-row',
  'notice',
  'buttons',
  'select',
  'pager',
  'divider',
  'image',
  'code-block',
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
