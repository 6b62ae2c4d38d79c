/** The post that announces a creator's reply: who, project, subject, preview and time, with two buttons. */
import type { AgentMessage } from '../service/index.js';
import {
  bold,
  button,
  buttons,
  fields,
  platformLabel,
  type Reply,
  reply,
  shortText,
  text,
  toEpochMs,
} from '../ui/index.js';

/** Element kinds of reply notifications, handled by the notify command family. */
export const NOTIFY_KINDS = {
  conversation: 'notify.conversation',
  status: 'notify.status',
} as const;

/** The payload behind "Show conversation". */
export interface ConversationPayload {
  threadId: string;
}

/** The payload behind "Set status". */
export interface StatusPayload {
  projectId: string | null;
  creatorId: string | null;
  creatorName: string | null;
  /** The creator's handle, when the notification knew it: how the status answer names them. */
  handle: string | null;
}

/** Longest body preview in a notification. */
export const PREVIEW_MAX = 300;

/** What the notification shows besides the message. */
export interface ReplyViewContext {
  projectName: string | null;
  /** The creator's handle when known (a cached profile, or the message's metadata). */
  handle: string | null;
  /** Makes a token for a button of `kind`. */
  token(kind: string, payload: unknown): string;
  /** A later reply posted inside the thread of the first notification. */
  inThread: boolean;
}

/** An instant as "2026-01-04 12:30 UTC", or null. */
function when(value: string | null | undefined): string | null {
  const ms = toEpochMs(value ?? null);
  return ms === null ? null : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The time a reply was written: sent, else created. */
export function replyTime(message: AgentMessage): string | null {
  return message.sent_at ?? message.date_created ?? message.date_updated ?? null;
}

/** The handle stored in a message's metadata, when the transport saved one. */
export function metadataHandle(message: AgentMessage): string | null {
  const metadata = message.metadata ?? null;
  if (metadata === null) return null;
  for (const key of ['creator_handle', 'handle', 'creatorHandle']) {
    const value = metadata[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().replace(/^@+/, '');
  }
  return null;
}

/** Builds the notification of one inbound reply. */
export function replyNotification(message: AgentMessage, context: ReplyViewContext): Reply {
  const name =
    shortText(message.creator_name ?? null, 80) ??
    shortText(message.creator_email ?? null, 80) ??
    'A creator';
  const platform = message.creator_platform ? platformLabel(message.creator_platform) : null;
  const preview = shortText(message.body_preview ?? message.body ?? null, PREVIEW_MAX);
  const actions = [
    message.thread_id
      ? button(
          'Show conversation',
          context.token(NOTIFY_KINDS.conversation, {
            threadId: message.thread_id,
          } satisfies ConversationPayload),
        )
      : null,
    button(
      'Set status',
      context.token(NOTIFY_KINDS.status, {
        projectId: message.project_id ?? null,
        creatorId: message.creator_id ?? null,
        creatorName: message.creator_name ?? null,
        handle: context.handle,
      } satisfies StatusPayload),
      { style: 'primary' },
    ),
  ].filter((b) => b !== null);
  return reply(
    [
      text(context.inThread ? 'New reply in this conversation from ' : 'New reply from ', bold(name)),
      fields([
        { label: 'Creator', value: name, inline: true },
        { label: 'Handle', value: context.handle === null ? null : `@${context.handle}`, inline: true },
        { label: 'Platform', value: platform, inline: true },
        // A project whose name is unknown is shown by its id, labelled as one.
        context.projectName === null && message.project_id
          ? { label: 'Project id', value: message.project_id, inline: true }
          : { label: 'Project', value: context.projectName, inline: true },
        { label: 'Received', value: when(replyTime(message)), inline: true },
        { label: 'Email', value: message.creator_email ?? null, inline: true },
        { label: 'Subject', value: shortText(message.subject ?? null, 150) },
        { label: 'Preview', value: preview },
      ]),
      buttons(...actions),
    ],
    { visibility: 'channel' },
  );
}
