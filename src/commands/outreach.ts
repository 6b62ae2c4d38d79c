/**
 * `/scout outreach`: the outreach agent's data, free and read-only: projects, saved messages with every filter of
 * the contract, whole conversations in time order, and the creators the agent has contacted.
 */
import { z } from 'zod';
import type { CommandContext } from '../core/command/types.js';
import { defineAction, defineCommand, defineFamily } from '../core/command/types.js';
import { MESSAGE_STATUSES } from '../core/service/enums.js';
import { agentContactedCreatorsInput, agentMessagesInput } from '../core/service/index.js';
import { notice, reply } from '../core/ui/index.js';
import { PICK_KIND } from './outreach/format.js';
import { CREATOR_FILTERS, MESSAGE_PARAMS } from './outreach/params.js';
import {
  KINDS,
  resolveProjectId,
  showContacted,
  showConversation,
  showCreatorMessages,
  showMessages,
  showProjects,
} from './outreach/show.js';

const pageOf = z.number().int().min(1);

/** The longest status word sent; the statuses seen are a few letters long. */
const STATUS_MAX = 40;

/**
 * Input of `outreach messages`: the client's, with the status as any one word. The contract lists the statuses
 * seen, not all of them, so another word is sent (trimmed) for the service to judge; text with spaces or control
 * characters in it, or longer than any status, is no status.
 */
const messagesInput = z
  .looseObject({
    status: z
      .string()
      .trim()
      .min(1, 'needs a value')
      .max(STATUS_MAX, `is too long for a status (at most ${STATUS_MAX} characters)`)
      .regex(/^[^\s\p{C}]+$/u, `must be one word, such as ${MESSAGE_STATUSES.join(', ')}`)
      .optional(),
  })
  .pipe(agentMessagesInput);

/** Resolves a project name to its id; the rest of the filters go as validated. */
async function withProject<F extends { projectId?: string | undefined }>(
  ctx: CommandContext,
  filters: F,
): Promise<F> {
  return filters.projectId === undefined
    ? filters
    : { ...filters, projectId: await resolveProjectId(ctx, filters.projectId) };
}

const pageInput = (filters: { page?: number | undefined }) => filters.page ?? 1;

/** The outreach family. */
export const outreachFamily = defineFamily({
  name: 'outreach',
  aliases: ['agent'],
  description: 'The outreach agent: projects, sent and received emails, conversations, contacted creators.',
  defaultCommand: 'projects',
  commands: [
    defineCommand({
      name: 'projects',
      description: 'The team’s agent projects: status, emails sent, responses and the linked campaign.',
      params: {},
      schema: z.object({}),
      examples: ['outreach', 'outreach projects'],
      run: (ctx) => showProjects(ctx, 1, false),
    }),
    defineCommand({
      name: 'messages',
      description: 'Sent and received agent emails, filtered; each opens its whole conversation.',
      params: MESSAGE_PARAMS,
      schema: messagesInput,
      examples: [
        'outreach messages direction:inbound',
        'outreach messages project:"Spring Launch outreach" status:replied perPage:20',
        'outreach messages email:ana@example.com followUp:yes',
        'outreach messages contains:gmail mailbox:65f0c2a1b3d4e5f6a7b8c9d1 page:2',
      ],
      async run(ctx, input) {
        const filters = await withProject(ctx, input);
        return showMessages(ctx, { ...filters, page: undefined }, pageInput(input), false);
      },
    }),
    defineCommand({
      name: 'conversation',
      description: 'One mail thread in full, oldest message first.',
      params: {
        threadId: {
          kind: 'text',
          positional: true,
          required: true,
          aliases: ['thread'],
          description: 'The mail thread id (shown by outreach messages).',
          example: '18c2f0a9b1d2e3f4',
        },
      },
      schema: z.object({
        threadId: z
          .string()
          .trim()
          .min(1, 'is required')
          .max(200, 'is too long for a thread id')
          .regex(/^\S+$/, 'must be one word'),
      }),
      examples: ['outreach conversation 18c2f0a9b1d2e3f4'],
      run: (ctx, input) => showConversation(ctx, input.threadId, 1, false),
    }),
    defineCommand({
      name: 'contacted',
      description: 'Creators the agent has emailed, with sent and reply counts and the latest subject.',
      params: CREATOR_FILTERS,
      schema: agentContactedCreatorsInput,
      examples: [
        'outreach contacted',
        'outreach contacted project:"Spring Launch outreach" perPage:20',
        'outreach contacted contains:example.com page:2',
      ],
      async run(ctx, input) {
        const filters = await withProject(ctx, input);
        return showContacted(ctx, { ...filters, page: undefined }, pageInput(input), false);
      },
    }),
  ],
  actions: [
    defineAction({
      kind: KINDS.projects,
      payload: z.object({ page: pageOf }),
      run: (ctx, payload) => showProjects(ctx, payload.page, true),
    }),
    defineAction({
      kind: KINDS.messages,
      payload: z.object({ filters: agentMessagesInput, page: pageOf, replace: z.boolean() }),
      run: (ctx, payload) => showMessages(ctx, payload.filters, payload.page, payload.replace),
    }),
    defineAction({
      kind: KINDS.contacted,
      payload: z.object({ filters: agentContactedCreatorsInput, page: pageOf, replace: z.boolean() }),
      run: (ctx, payload) => showContacted(ctx, payload.filters, payload.page, payload.replace),
    }),
    defineAction({
      kind: KINDS.conversation,
      payload: z.object({ threadId: z.string().min(1), page: pageOf, replace: z.boolean() }),
      run: (ctx, payload) => showConversation(ctx, payload.threadId, payload.page, payload.replace),
    }),
    defineAction({
      kind: PICK_KIND,
      payload: z.object({
        pick: z.enum(['conversation', 'messages']),
        values: z.array(z.string().min(1)).min(1),
      }),
      async run(ctx, payload, event) {
        const index = event.value === undefined ? Number.NaN : Number(event.value);
        const value = Number.isInteger(index) ? payload.values[index] : undefined;
        if (value === undefined) return reply([notice('warning', 'Choose one of the options in the menu.')]);
        return payload.pick === 'conversation'
          ? showConversation(ctx, value, 1, false)
          : showCreatorMessages(ctx, value);
      },
    }),
  ],
});
