/** Readable renderings of agent data: projects, message lists, contacted creators and one conversation. */
import type { AgentMessage, AgentProject, ContactedCreator } from '../../core/service/index.js';
import {
  bold,
  code,
  divider,
  fields,
  formatPercent,
  type Inline,
  MISSING,
  platformLabel,
  type ReplyNode,
  shortText,
  text,
  toEpochMs,
  truncate,
} from '../../core/ui/index.js';
import { arrowOf, clip, formatWhen, type ItemTarget } from './format.js';

/** Longest body shown per message of a conversation: five of them stay under Discord's 6,000 per message. */
export const BODY_MAX = 900;

/** When a message happened: sent, else created, else failed. */
export function messageTime(message: AgentMessage): number | null {
  return (
    toEpochMs(message.sent_at ?? null) ??
    toEpochMs(message.date_created ?? null) ??
    toEpochMs(message.failed_at ?? null) ??
    toEpochMs(message.date_updated ?? null)
  );
}

/** Messages in time order (oldest first); messages without any time go last, ties by id. */
export function inTimeOrder(messages: readonly AgentMessage[]): AgentMessage[] {
  return [...messages].sort((a, b) => {
    const ta = messageTime(a);
    const tb = messageTime(b);
    if (ta !== tb) return ta === null ? 1 : tb === null ? -1 : ta - tb;
    return a.id.localeCompare(b.id);
  });
}

function creatorOf(message: AgentMessage): string {
  return (
    clip(message.creator_name, 50) ??
    clip(message.creator_email, 60) ??
    clip(message.creator_id, 60) ??
    'Unknown creator'
  );
}

function statusTags(message: AgentMessage): string {
  const tags: string[] = [];
  if (message.status) tags.push(message.status);
  if (message.is_follow_up === true) {
    tags.push(message.follow_up_number ? `follow-up ${message.follow_up_number}` : 'follow-up');
  }
  return tags.length === 0 ? '' : ` · ${tags.join(' · ')}`;
}

/**
 * One message of a list: `3. → Ana Lee <ana@x.com> · Subject · 2026-01-04 12:30 UTC · sent · thread 18c2…`,
 * then its preview; `compact` keeps the first line without email and thread.
 */
export function messageLine(message: AgentMessage, n: number, compact: boolean): Inline[] {
  const email = clip(message.creator_email, 60);
  const name = creatorOf(message);
  const subject = clip(message.subject, 70) ?? '(no subject)';
  const when = formatWhen(message.sent_at ?? message.date_created ?? message.failed_at ?? null) ?? MISSING;
  const parts: Inline[] = [
    `${n}. ${arrowOf(message.direction)} `,
    bold(name),
    compact || email === null || email === name ? '' : ` <${email}>`,
    ` · ${subject} · ${when}${statusTags(message)}`,
  ];
  // Compact lines open their conversation from a select, so the thread id is left out to keep long pages short.
  const thread = compact ? null : clip(message.thread_id, 40);
  if (thread !== null) parts.push(' · thread ', code(thread));
  const preview = compact ? null : clip(message.body_preview ?? message.body, 120);
  if (preview !== null) parts.push(`\n   ${preview}`);
  return parts;
}

/** How a message opens its conversation. */
export function messageTarget(message: AgentMessage, n: number): ItemTarget {
  const label = `${n}. ${arrowOf(message.direction)} ${creatorOf(message)}: ${clip(message.subject, 40) ?? '(no subject)'}`;
  return { label, value: message.thread_id ?? null };
}

/** One contacted creator: who, counts, dates and the latest subject. */
export function contactedLine(
  creator: ContactedCreator,
  n: number,
  projectName: (id: string) => string,
): Inline[] {
  const email = clip(creator.creator_email, 60);
  const name = clip(creator.creator_name, 50) ?? email ?? clip(creator.creator_id, 60) ?? 'Unknown creator';
  const platform = clip(creator.creator_platform, 20);
  const projects = (creator.project_ids ?? []).map(projectName);
  const replies = creator.reply_messages_count ?? 0;
  const lastReply = formatWhen(creator.last_reply_at ?? null);
  return [
    `${n}. `,
    bold(name),
    email === null || email === name ? '' : ` <${email}>`,
    platform === null ? '' : ` · ${platformLabel(platform)}`,
    `\n   Sent ${creator.sent_messages_count ?? 0} · Replies ${replies}${creator.has_replies === true && replies === 0 ? ' (has replies)' : ''}`,
    ` · First ${formatWhen(creator.first_contacted_at ?? null) ?? MISSING} · Last ${formatWhen(creator.last_contacted_at ?? null) ?? MISSING}`,
    lastReply === null ? '' : ` · Last reply ${lastReply}`,
    `\n   Last: ${clip(creator.last_subject, 70) ?? '(no subject)'}${creator.last_status ? ` (${creator.last_status})` : ''}`,
    projects.length === 0
      ? ''
      : ` · ${projects.length === 1 ? 'Project' : 'Projects'}: ${truncate(projects.join(', '), 90)}`,
  ];
}

/** How a contacted creator opens their messages. */
export function contactedTarget(creator: ContactedCreator, n: number): ItemTarget {
  const name = clip(creator.creator_name, 40) ?? clip(creator.creator_email, 40) ?? 'Unknown creator';
  const email = creator.creator_email ?? null;
  return { label: `${n}. ${name}`, value: email !== null && email.length <= 100 ? email : null };
}

function list(values: readonly string[] | null | undefined): string | null {
  return values && values.length > 0 ? values.join(', ') : null;
}

/**
 * A project: name and status, then its counters, campaign, targeting and last run; its id only when it has no name
 * (then the id is how it is named in a command), labelled.
 */
export function projectNodes(project: AgentProject, campaign: string | null): ReplyNode[] {
  const sent = project.total_emails_sent ?? null;
  const responses = project.total_responses ?? null;
  const rate =
    sent !== null && responses !== null && sent > 0 ? formatPercent((responses / sent) * 100) : null;
  const website = project.website ?? null;
  return [
    text(
      bold(shortText(project.name ?? null, 100) ?? 'Unnamed project'),
      ` · ${project.status ?? 'status unknown'}`,
      ...(project.name ? [] : [' · Project id: ', code(project.id)]),
    ),
    fields([
      { label: 'Emails sent', value: sent, inline: true },
      { label: 'Responses', value: responses, inline: true },
      { label: 'Response rate', value: rate, inline: true },
      { label: 'Credits used', value: project.total_credits_used ?? null, inline: true },
      { label: 'Campaign', value: campaign, inline: true },
      { label: 'Last run', value: formatWhen(project.last_run_at ?? null), inline: true },
      { label: 'Categories', value: list(project.target_categories), inline: true },
      { label: 'Countries', value: list(project.target_countries), inline: true },
      { label: 'Keywords', value: list(project.target_keywords), inline: true },
      { label: 'Website', value: website === null ? null : website },
    ]),
  ];
}

/** The campaign of a project: its CRM list's name when known, else the list's id, labelled as one. */
export function campaignLabel(
  campaignId: string | null | undefined,
  listNames: ReadonlyMap<string, string>,
): string | null {
  if (!campaignId) return null;
  return listNames.get(campaignId) ?? `List id: ${campaignId}`;
}

/** The head of a conversation: subject, creator, project and mailbox, with how many messages it holds. */
export function conversationHead(
  thread: readonly AgentMessage[],
  threadId: string,
  projectName: string | null,
): ReplyNode[] {
  const first = thread[0];
  const subject = thread.map((m) => m.subject).find((s) => s) ?? '(no subject)';
  const inbound = thread.filter((m) => m.direction === 'inbound').length;
  const creator = first === undefined ? null : creatorOf(first);
  const email = first?.creator_email ?? null;
  return [
    text(bold(shortText(subject, 150) ?? '(no subject)')),
    fields([
      {
        label: 'Creator',
        value: creator === null ? null : `${creator}${email && email !== creator ? ` <${email}>` : ''}`,
        inline: true,
      },
      {
        label: 'Platform',
        value: first?.creator_platform ? platformLabel(first.creator_platform) : null,
        inline: true,
      },
      projectName === null && first?.project_id
        ? { label: 'Project id', value: first.project_id, inline: true }
        : { label: 'Project', value: projectName, inline: true },
      {
        label: 'Messages',
        value: `${thread.length} (${thread.length - inbound} sent, ${inbound} received)`,
        inline: true,
      },
      { label: 'Mailbox', value: first?.sender_email ?? first?.mailbox_account_id ?? null, inline: true },
      { label: 'Thread', value: threadId, inline: true },
    ]),
  ];
}

/** One message of a conversation in full: who wrote to whom and when, then the body. */
export function conversationMessage(message: AgentMessage, n: number): ReplyNode[] {
  const outbound = message.direction === 'outbound';
  const creator = creatorOf(message);
  const mailbox = clip(message.sender_email, 60) ?? 'the agent';
  const who = outbound ? `To ${creator}` : message.direction === 'inbound' ? `From ${creator}` : creator;
  const via = outbound ? ` (from ${mailbox})` : message.direction === 'inbound' ? ` (to ${mailbox})` : '';
  const when = formatWhen(message.sent_at ?? message.date_created ?? message.failed_at ?? null) ?? MISSING;
  const body = (message.body ?? message.body_preview ?? '').trim();
  const metadata = message.metadata ?? null;
  const workflow = metadata !== null && typeof metadata.workflow === 'string' ? metadata.workflow : null;
  return [
    divider(),
    text(
      `${n}. ${arrowOf(message.direction)} `,
      bold(who),
      `${via} · ${when}${statusTags(message)}`,
      workflow === null ? '' : ` · ${workflow}`,
      message.subject ? `\n${shortText(message.subject, 150) ?? ''}` : '',
    ),
    text(body === '' ? '(empty message)' : truncate(body, BODY_MAX)),
  ];
}
