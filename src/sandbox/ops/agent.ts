/** Agent outreach data (free, read-only, shape C errors): projects, messages and contacted creators. */
import { MESSAGE_DIRECTIONS } from '../../core/service/enums.js';
import type { AgentMessage } from '../data/records.js';
import { createQueryReader, type QueryReader } from '../server/input.js';
import type { Operation } from '../server/router.js';

type Predicate = (message: AgentMessage) => boolean;

const CREATOR_FILTERS = [
  'projectId',
  'creatorEmail',
  'email',
  'creatorEmailContains',
  'creatorId',
  'page',
  'perPage',
];

/** Filters shared by messages and contacted creators. */
function creatorFilters(reader: QueryReader): Predicate[] {
  const filters: Predicate[] = [];
  const projectId = reader.string('projectId');
  if (projectId) filters.push((m) => m.project_id === projectId);
  const email = reader.string('creatorEmail', 'email')?.toLowerCase();
  const contains = reader.string('creatorEmailContains')?.toLowerCase();
  if (email) filters.push((m) => m.creator_email.toLowerCase() === email);
  // The partial match is ignored when an exact email is present.
  else if (contains) filters.push((m) => m.creator_email.toLowerCase().includes(contains));
  const creatorId = reader.string('creatorId');
  if (creatorId) filters.push((m) => m.creator_id === creatorId);
  return filters;
}

function paging(reader: QueryReader) {
  return {
    page: reader.integer('page', { min: 1 }) ?? 1,
    perPage: reader.integer('perPage', { min: 1, max: 100 }) ?? 50,
  };
}

function pageOf<T>(items: readonly T[], page: number, perPage: number) {
  const totalPages = Math.ceil(items.length / perPage);
  return {
    data: items.slice((page - 1) * perPage, page * perPage),
    page,
    per_page: perPage,
    next_page: page < totalPages ? page + 1 : 0,
    total_pages: totalPages,
    total: items.length,
  };
}

const newestFirst = (a: AgentMessage, b: AgentMessage) =>
  b.date_created.localeCompare(a.date_created) || a.id.localeCompare(b.id);

/** The contacted-creator aggregate of a team's messages (one entry per creator email). */
export function contactedCreators(messages: readonly AgentMessage[]) {
  const sent = messages.filter((m) => m.direction === 'outbound' && m.status !== 'failed');
  const byEmail = new Map<string, AgentMessage[]>();
  for (const m of sent) {
    const key = m.creator_email.toLowerCase();
    byEmail.set(key, [...(byEmail.get(key) ?? []), m]);
  }
  return [...byEmail.values()]
    .map((outbound) => {
      outbound.sort((a, b) => a.date_created.localeCompare(b.date_created));
      const first = outbound[0] as AgentMessage;
      const last = outbound[outbound.length - 1] as AgentMessage;
      const threads = new Set(outbound.map((m) => m.thread_id));
      const email = first.creator_email.toLowerCase();
      const replies = messages
        .filter(
          (m) =>
            m.direction === 'inbound' &&
            (threads.has(m.thread_id) || m.creator_email.toLowerCase() === email),
        )
        .sort((a, b) => a.date_created.localeCompare(b.date_created));
      return {
        creator_email: first.creator_email,
        creator_id: last.creator_id,
        creator_name: last.creator_name,
        creator_platform: last.creator_platform,
        project_ids: [...new Set(outbound.map((m) => m.project_id))],
        thread_ids: [...threads],
        sent_messages_count: outbound.length,
        reply_messages_count: replies.length,
        has_replies: replies.length > 0,
        first_contacted_at: first.sent_at ?? first.date_created,
        last_contacted_at: last.sent_at ?? last.date_created,
        last_reply_at: replies[replies.length - 1]?.date_created ?? null,
        last_subject: last.subject,
        last_status: last.status,
        last_body_preview: last.body_preview,
      };
    })
    .sort(
      (a, b) =>
        b.last_contacted_at.localeCompare(a.last_contacted_at) ||
        a.creator_email.localeCompare(b.creator_email),
    );
}

/** The agent operations. */
export function agentOperations(): Operation[] {
  return [
    {
      method: 'GET',
      pattern: '/api/v1/agent/projects',
      family: 'C',
      handle: ({ query, team }) => {
        createQueryReader(query).rejectUnknown([]);
        return { body: { message: 'OK', response: { data: team().projects } } };
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/agent/messages',
      family: 'C',
      handle: ({ query, team }) => {
        const reader = createQueryReader(query);
        reader.rejectUnknown([
          ...CREATOR_FILTERS,
          'threadId',
          'mailboxAccountId',
          'gmailAccountId',
          'direction',
          'status',
          'isFollowUp',
        ]);
        const filters = creatorFilters(reader);
        const threadId = reader.string('threadId');
        if (threadId) filters.push((m) => m.thread_id === threadId);
        // The contract's `mailboxAccountId` is the live `gmailAccountId`; both are accepted.
        const mailbox = reader.string('gmailAccountId', 'mailboxAccountId');
        if (mailbox) filters.push((m) => m.gmail_account_id === mailbox);
        const direction = reader.choice('direction', MESSAGE_DIRECTIONS) ?? 'all';
        if (direction !== 'all') filters.push((m) => m.direction === direction);
        const status = reader.string('status')?.toLowerCase();
        if (status) filters.push((m) => m.status === status);
        const followUp = reader.boolean('isFollowUp');
        if (followUp !== undefined) filters.push((m) => m.is_follow_up === followUp);
        const { page, perPage } = paging(reader);
        const matching = team()
          .messages.filter((m) => filters.every((f) => f(m)))
          .sort(newestFirst);
        return { body: { message: 'OK', response: pageOf(matching, page, perPage) } };
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/agent/contacted-creators',
      family: 'C',
      handle: ({ query, team }) => {
        const reader = createQueryReader(query);
        reader.rejectUnknown(CREATOR_FILTERS);
        const filters = creatorFilters(reader);
        const { page, perPage } = paging(reader);
        const aggregates = contactedCreators(team().messages.filter((m) => filters.every((f) => f(m))));
        return { body: { message: 'OK', response: pageOf(aggregates, page, perPage) } };
      },
    },
  ];
}
