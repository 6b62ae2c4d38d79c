/** Agent outreach data (v1, free, read-only): projects, saved messages and contacted creators. */

import { z } from 'zod';
import { MESSAGE_DIRECTIONS } from './enums.js';
import { encodeQuery } from './http.js';
import { choice, email, flag, text, wholeNumber } from './input-kit.js';
import {
  bool,
  id,
  num,
  record,
  snakePage,
  snakePageNumbers,
  str,
  strList,
  toPage,
  unwrap,
} from './response-kit.js';
import { bindOperation, type Operation, type OperationContext, runOperation } from './runner.js';
import type { CallOptions, Page, ServiceResult } from './types.js';

/** Filters shared by messages and contacted creators. */
const sharedFilters = {
  projectId: text().optional(),
  creatorEmail: email().optional(),
  /** Alias of `creatorEmail` in the contract; sent as `creatorEmail`. */
  email: email().optional(),
  creatorEmailContains: text().optional(),
  creatorId: text().optional(),
  page: wholeNumber(1).optional(),
  perPage: wholeNumber(1, 100).optional(),
};

function oneEmail(
  value: { creatorEmail?: string | undefined; email?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.creatorEmail !== undefined && value.email !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: 'cannot be given together with creatorEmail' });
  }
}

/** Input of list messages; `mailboxAccountId` (contract) or `gmailAccountId` (live name), sent as `gmailAccountId`. */
export const agentMessagesInput = z
  .strictObject({
    ...sharedFilters,
    threadId: text().optional(),
    mailboxAccountId: text().optional(),
    gmailAccountId: text().optional(),
    direction: choice(MESSAGE_DIRECTIONS).optional(),
    status: text()
      .transform((value) => value.toLowerCase())
      .optional(),
    isFollowUp: flag().optional(),
  })
  .superRefine((value, ctx) => {
    oneEmail(value, ctx);
    if (value.mailboxAccountId !== undefined && value.gmailAccountId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['gmailAccountId'],
        message: 'cannot be given together with mailboxAccountId',
      });
    }
  });

/** Input of list contacted creators. */
export const agentContactedCreatorsInput = z.strictObject(sharedFilters).superRefine(oneEmail);

/** Input of list messages as callers write it. */
export type AgentMessagesInput = z.input<typeof agentMessagesInput>;
/** Input of list contacted creators as callers write it. */
export type AgentContactedCreatorsInput = z.input<typeof agentContactedCreatorsInput>;

/** An agent project; unknown fields are kept. */
export const agentProjectSchema = z.looseObject({
  id,
  name: str,
  website: str,
  website_id: str,
  campaign_id: str,
  status: str,
  deal_config: z.unknown().optional(),
  target_keywords: strList,
  target_categories: strList,
  target_countries: strList,
  subject_override: str,
  prompt_override: str,
  message_body_override: str,
  total_emails_sent: num,
  total_responses: num,
  total_credits_used: num,
  date_created: str,
  date_updated: str,
  last_run_at: str,
});

/** An agent message; `mailbox_account_id` is filled from the live `gmail_account_id` when needed. */
export const agentMessageSchema = z
  .looseObject({
    id,
    project_id: str,
    conversation_id: str,
    mailbox_account_id: str,
    gmail_account_id: str,
    sender_email: str,
    direction: str,
    creator_id: str,
    creator_name: str,
    creator_email: str,
    creator_platform: str,
    subject: str,
    body: str,
    body_preview: str,
    status: str,
    sent_at: str,
    replied_at: str,
    failed_at: str,
    date_created: str,
    date_updated: str,
    thread_id: str,
    message_id: str,
    parent_message_id: str,
    is_follow_up: bool,
    follow_up_number: num,
    metadata: record,
  })
  .transform((message) => ({
    ...message,
    mailbox_account_id: message.mailbox_account_id ?? message.gmail_account_id ?? null,
  }));

/** A contacted creator (aggregate over the agent's messages). */
export const contactedCreatorSchema = z.looseObject({
  creator_email: str,
  creator_id: str,
  creator_name: str,
  creator_platform: str,
  project_ids: strList,
  thread_ids: strList,
  sent_messages_count: num,
  reply_messages_count: num,
  has_replies: bool,
  first_contacted_at: str,
  last_contacted_at: str,
  last_reply_at: str,
  last_subject: str,
  last_status: str,
  last_body_preview: str,
});

/** An agent project. */
export type AgentProject = z.output<typeof agentProjectSchema>;
/** An agent message. */
export type AgentMessage = z.output<typeof agentMessageSchema>;
/** A contacted creator. */
export type ContactedCreator = z.output<typeof contactedCreatorSchema>;

const projectsBody = z.looseObject({ data: z.array(agentProjectSchema) });
const messagesBody = z.looseObject({ ...snakePage, data: z.array(agentMessageSchema) });
const contactedBody = z.looseObject({ ...snakePage, data: z.array(contactedCreatorSchema) });
const noInput = z.strictObject({});

/** The agent operations. */
export interface AgentApi {
  /** The team's active projects. */
  projects(options?: CallOptions): Promise<ServiceResult<{ projects: AgentProject[] }>>;
  /** Saved sent and received messages. */
  messages: Operation<typeof agentMessagesInput, Page<AgentMessage>>;
  /** Creators the agent has emailed. */
  contactedCreators: Operation<typeof agentContactedCreatorsInput, Page<ContactedCreator>>;
}

/** Creates the agent operations. */
export function createAgentApi(context: OperationContext): AgentApi {
  return {
    projects: (options) =>
      runOperation(
        context,
        {
          operation: 'agent.projects',
          input: noInput,
          request: () => ({ path: '/api/v1/agent/projects' }),
          decode: (body) => ({ projects: projectsBody.parse(unwrap(body)).data }),
        },
        {},
        options,
      ),
    messages: bindOperation(context, {
      operation: 'agent.messages',
      input: agentMessagesInput,
      request: ({ email: alias, creatorEmail, mailboxAccountId, gmailAccountId, ...rest }) => ({
        path: '/api/v1/agent/messages',
        query: encodeQuery({
          ...rest,
          creatorEmail: creatorEmail ?? alias,
          gmailAccountId: gmailAccountId ?? mailboxAccountId,
        }),
      }),
      decode: (body, input) => {
        const r = messagesBody.parse(unwrap(body));
        return toPage(r.data, snakePageNumbers(r), input.page);
      },
    }),
    contactedCreators: bindOperation(context, {
      operation: 'agent.contactedCreators',
      input: agentContactedCreatorsInput,
      request: ({ email: alias, creatorEmail, ...rest }) => ({
        path: '/api/v1/agent/contacted-creators',
        query: encodeQuery({ ...rest, creatorEmail: creatorEmail ?? alias }),
      }),
      decode: (body, input) => {
        const r = contactedBody.parse(unwrap(body));
        return toPage(r.data, snakePageNumbers(r), input.page);
      },
    }),
  };
}
