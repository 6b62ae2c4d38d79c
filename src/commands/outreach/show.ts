/** The outreach views with their data: projects, messages, contacted creators and one whole conversation. */
import { z } from 'zod';
import { CommandInputError } from '../../core/command/errors.js';
import { didYouMean, fold, matchChoice } from '../../core/command/suggest.js';
import type { CommandContext } from '../../core/command/types.js';
import { MESSAGE_STATUSES } from '../../core/service/enums.js';
import {
  type AgentMessage,
  type AgentProject,
  type agentContactedCreatorsInput,
  type agentMessagesInput,
  ServiceError,
} from '../../core/service/index.js';
import {
  bold,
  button,
  buttons,
  code,
  divider,
  notice,
  pager,
  type Reply,
  type ReplyNode,
  reply,
  text,
} from '../../core/ui/index.js';
import { BUTTON_ITEMS_MAX, itemNodes } from './format.js';
import { DEFAULT_PER_PAGE, filterSummary } from './params.js';
import {
  campaignLabel,
  contactedLine,
  contactedTarget,
  conversationHead,
  conversationMessage,
  inTimeOrder,
  messageLine,
  messageTarget,
  projectNodes,
} from './views.js';

/** Filters of a message list, as validated by the client's schema. */
export type MessageFilters = z.output<typeof agentMessagesInput>;
/** Filters of the contacted-creators list. */
export type ContactedFilters = z.output<typeof agentContactedCreatorsInput>;

/** Action kinds of the outreach family. */
export const KINDS = {
  projects: 'outreach.projects',
  messages: 'outreach.messages',
  contacted: 'outreach.contacted',
  conversation: 'outreach.conversation',
} as const;

/** Projects per chat page: each has its own button row, and four rows plus the pager fit Discord. */
export const PROJECTS_PER_PAGE = 4;
/** Messages per page of a conversation, each shown in full. */
export const CONVERSATION_PER_PAGE = 5;
/** A thread is read 100 messages a request, at most this many requests. */
export const THREAD_PAGES_MAX = 10;

const THREAD_PAGE_SIZE = 100;

/** The projects read for each answer: a name resolved and then shown is read once. */
const READ = new WeakMap<CommandContext, Promise<AgentProject[]>>();

/** The team's projects (free), read once per answer. */
function loadProjects(ctx: CommandContext): Promise<AgentProject[]> {
  let read = READ.get(ctx);
  if (read === undefined) {
    read = ctx.service.agent.projects().then((answer) => answer.data.projects);
    READ.set(ctx, read);
  }
  return read;
}

/** Project names by id, for labels. */
function namesOf(projects: readonly AgentProject[]): (id: string) => string {
  const names = new Map(projects.map((p) => [p.id, p.name ?? p.id]));
  return (id) => names.get(id) ?? id;
}

/** Names the project a list is filtered by (one free call, only when it is). */
async function filterNames(
  ctx: CommandContext,
  filters: { projectId?: string | undefined },
): Promise<(id: string) => string> {
  return filters.projectId === undefined ? (id) => id : namesOf(await loadProjects(ctx));
}

/** A project id from what was typed: an id as is, or a project name (exact, else a unique partial match). */
export async function resolveProjectId(ctx: CommandContext, value: string): Promise<string> {
  if (/^[0-9a-f]{24}$/i.test(value)) return value;
  const projects = await loadProjects(ctx);
  if (projects.some((p) => p.id === value)) return value;
  const wanted = fold(value);
  const named = (p: AgentProject) => fold(p.name ?? '');
  const exact = wanted === '' ? [] : projects.filter((p) => named(p) === wanted);
  const found = exact.length > 0 ? exact : projects.filter((p) => wanted !== '' && named(p).includes(wanted));
  const only = found.length === 1 ? found[0] : undefined;
  if (only !== undefined) return only.id;
  // Projects are named by name; an id only where a name does not tell them apart, labelled, to be copied.
  const listed = (found.length > 0 ? found : projects)
    .map((p) =>
      found.length > 0 || !p.name ? `"${p.name ?? 'unnamed'}" (project id ${p.id})` : `"${p.name}"`,
    )
    .join(', ');
  throw new CommandInputError(
    found.length === 0
      ? `No agent project is called "${value}". Projects: ${listed || 'none'}.`
      : `"${value}" matches several projects: ${listed}. Give the whole name, or the project id.`,
  );
}

/**
 * After a status that matched no message, the statuses seen that it is near, or all of them: any word is sent, since
 * the contract lists only the statuses seen, so a misspelt one is simply found in no message.
 */
function statusHint(status: string | undefined): string {
  if (status === undefined) return '';
  const match = matchChoice(status, MESSAGE_STATUSES);
  if (match.ok) return '';
  return match.suggestions.length > 0
    ? didYouMean(match.suggestions)
    : ` Statuses seen: ${MESSAGE_STATUSES.join(', ')}.`;
}

function range(page: number, size: number, count: number, total: number | null): string {
  const first = (page - 1) * size + 1;
  const last = first + count - 1;
  return `${first}–${last}${total === null ? '' : ` of ${total}`}`;
}

function pageTokens(
  ctx: CommandContext,
  kind: string,
  at: { page: number; nextPage: number | null },
  payloadOf: (page: number) => unknown,
) {
  return {
    prevActionId: at.page > 1 ? ctx.token(kind, payloadOf(at.page - 1)) : null,
    nextActionId: at.nextPage === null ? null : ctx.token(kind, payloadOf(at.nextPage)),
  };
}

/** The token that opens a conversation from its first page. */
const conversationToken = (ctx: CommandContext, threadId: string) =>
  ctx.token(KINDS.conversation, { threadId, page: 1, replace: false });

/** The token that lists a creator's messages. */
const creatorMessagesToken = (ctx: CommandContext, creatorEmail: string) =>
  ctx.token(KINDS.messages, {
    filters: { creatorEmail, perPage: DEFAULT_PER_PAGE },
    page: 1,
    replace: false,
  });

/** One page of saved messages, newest as the service orders them, each with a Conversation button. */
export async function showMessages(
  ctx: CommandContext,
  filters: MessageFilters,
  page: number,
  replace: boolean,
): Promise<Reply> {
  const size = filters.perPage ?? DEFAULT_PER_PAGE;
  const query = { ...filters, page, perPage: size };
  const { data } = await ctx.service.agent.messages(query);
  const said = filterSummary(filters, await filterNames(ctx, filters));
  if (data.items.length === 0) {
    const what = page > 1 ? `No messages on page ${page}.` : 'No messages match these filters.';
    return reply([notice('info', [what, page > 1 ? '' : statusHint(filters.status), ...said])], {
      replace,
    });
  }
  const offset = (data.page - 1) * size;
  const compact = data.items.length > BUTTON_ITEMS_MAX;
  const nodes = itemNodes(
    ctx,
    data.items.map((m, i) => messageLine(m, offset + i + 1, compact)),
    data.items.map((m, i) => messageTarget(m, offset + i + 1)),
    { verb: 'Conversation', pick: 'conversation', token: (threadId) => conversationToken(ctx, threadId) },
    offset,
  );
  const stored = { ...filters, perPage: size, page: undefined };
  return reply(
    [
      text(bold('Outreach messages'), ' · → sent, ← received', ...said),
      ...nodes,
      pager({
        page: data.page,
        totalPages: data.totalPages,
        label: `Messages ${range(data.page, size, data.items.length, data.total)}`,
        ...pageTokens(ctx, KINDS.messages, data, (p) => ({ filters: stored, page: p, replace: true })),
      }),
    ],
    { visibility: 'channel', replace },
  );
}

/** One page of contacted creators with sent and reply counts, each with a Messages button. */
export async function showContacted(
  ctx: CommandContext,
  filters: ContactedFilters,
  page: number,
  replace: boolean,
): Promise<Reply> {
  const size = filters.perPage ?? DEFAULT_PER_PAGE;
  const { data } = await ctx.service.agent.contactedCreators({ ...filters, page, perPage: size });
  if (data.items.length === 0) {
    const what =
      page > 1 ? `No contacted creators on page ${page}.` : 'No contacted creators match these filters.';
    return reply([notice('info', [what, ...filterSummary(filters, await filterNames(ctx, filters))])], {
      replace,
    });
  }
  const projectName = namesOf(await loadProjects(ctx));
  const offset = (data.page - 1) * size;
  const nodes = itemNodes(
    ctx,
    data.items.map((c, i) => contactedLine(c, offset + i + 1, projectName)),
    data.items.map((c, i) => {
      const target = contactedTarget(c, offset + i + 1);
      const usable = target.value !== null && z.email().safeParse(target.value).success;
      return usable ? target : { ...target, value: null };
    }),
    { verb: 'Messages', pick: 'messages', token: (email) => creatorMessagesToken(ctx, email) },
    offset,
  );
  const stored = { ...filters, perPage: size, page: undefined };
  return reply(
    [
      text(bold('Contacted creators'), ...filterSummary(filters, projectName)),
      ...nodes,
      pager({
        page: data.page,
        totalPages: data.totalPages,
        label: `Creators ${range(data.page, size, data.items.length, data.total)}`,
        ...pageTokens(ctx, KINDS.contacted, data, (p) => ({ filters: stored, page: p, replace: true })),
      }),
    ],
    { visibility: 'channel', replace },
  );
}

/** Lists the messages of a creator (from a pick select). */
export function showCreatorMessages(ctx: CommandContext, creatorEmail: string): Promise<Reply> {
  return showMessages(ctx, { creatorEmail, perPage: DEFAULT_PER_PAGE }, 1, false);
}

/** Every message of a thread (all pages), in time order; the service's order is not documented. */
async function loadThread(ctx: CommandContext, threadId: string) {
  const byId = new Map<string, AgentMessage>();
  let next: number | null = 1;
  let requests = 0;
  while (next !== null && requests < THREAD_PAGES_MAX) {
    const current: number = next;
    const { data } = await ctx.service.agent.messages({ threadId, page: current, perPage: THREAD_PAGE_SIZE });
    requests++;
    for (const message of data.items) byId.set(message.id, message);
    next = data.nextPage !== null && data.nextPage > current ? data.nextPage : null;
  }
  return { messages: inTimeOrder([...byId.values()]), complete: next === null };
}

/** A whole conversation, oldest message first, a few messages per page. */
export async function showConversation(
  ctx: CommandContext,
  threadId: string,
  page: number,
  replace: boolean,
): Promise<Reply> {
  const { messages, complete } = await loadThread(ctx, threadId);
  if (messages.length === 0) {
    return reply([notice('warning', ['No messages found in thread ', code(threadId), '.'])], { replace });
  }
  const pages = Math.ceil(messages.length / CONVERSATION_PER_PAGE);
  const at = Math.min(Math.max(1, page), pages);
  const shown = messages.slice((at - 1) * CONVERSATION_PER_PAGE, at * CONVERSATION_PER_PAGE);
  const projectId = messages[0]?.project_id ?? null;
  const projectName =
    projectId === null ? null : ((await loadProjects(ctx)).find((p) => p.id === projectId)?.name ?? null);
  const email = messages.find((m) => m.creator_email)?.creator_email ?? null;
  const nodes: Array<ReplyNode | null> = [
    ...conversationHead(messages, threadId, projectName),
    complete
      ? null
      : notice('warning', `Showing the first ${messages.length} messages of this thread; it holds more.`),
    ...shown.flatMap((m, i) => conversationMessage(m, (at - 1) * CONVERSATION_PER_PAGE + i + 1)),
    divider(),
    pages > 1
      ? pager({
          page: at,
          totalPages: pages,
          label: `Messages ${range(at, CONVERSATION_PER_PAGE, shown.length, messages.length)}`,
          ...pageTokens(ctx, KINDS.conversation, { page: at, nextPage: at < pages ? at + 1 : null }, (p) => ({
            threadId,
            page: p,
            replace: true,
          })),
        })
      : null,
    email !== null && z.email().safeParse(email).success
      ? buttons(button('All messages with this creator', creatorMessagesToken(ctx, email)))
      : null,
  ];
  return reply(nodes, { visibility: 'channel', replace });
}

/** CRM list names by id, to name the campaigns projects are linked to; without them the ids are shown. */
async function listNames(
  ctx: CommandContext,
  projects: readonly AgentProject[],
): Promise<Map<string, string>> {
  if (!projects.some((p) => p.campaign_id)) return new Map();
  try {
    const { data } = await ctx.service.crm.listLists();
    return new Map(data.lists.map((list) => [list.id, list.name ?? list.id]));
  } catch (error) {
    // The CRM needs an active subscription the agent does not: the ids alone still identify the campaigns.
    if (!(error instanceof ServiceError)) throw error;
    ctx.logger.debug({ code: error.code }, 'campaign names unavailable');
    return new Map();
  }
}

/** The team's agent projects with status, counters and linked campaign, a few per page. */
export async function showProjects(ctx: CommandContext, page: number, replace: boolean): Promise<Reply> {
  const projects = await loadProjects(ctx);
  if (projects.length === 0) {
    return reply([notice('info', 'The team has no active agent projects.')], { replace });
  }
  const names = await listNames(ctx, projects);
  const pages = Math.ceil(projects.length / PROJECTS_PER_PAGE);
  const at = Math.min(Math.max(1, page), pages);
  const shown = projects.slice((at - 1) * PROJECTS_PER_PAGE, at * PROJECTS_PER_PAGE);
  const nodes: Array<ReplyNode | null> = [
    text(bold('Agent projects'), ` · ${projects.length}`),
    ...shown.flatMap((project) => [
      divider(),
      ...projectNodes(project, campaignLabel(project.campaign_id, names)),
      buttons(
        button(
          'Messages',
          ctx.token(KINDS.messages, {
            filters: { projectId: project.id, perPage: DEFAULT_PER_PAGE },
            page: 1,
            replace: false,
          }),
        ),
        button(
          'Contacted',
          ctx.token(KINDS.contacted, {
            filters: { projectId: project.id, perPage: DEFAULT_PER_PAGE },
            page: 1,
            replace: false,
          }),
        ),
      ),
    ]),
    pages > 1
      ? pager({
          page: at,
          totalPages: pages,
          label: 'Projects',
          ...pageTokens(ctx, KINDS.projects, { page: at, nextPage: at < pages ? at + 1 : null }, (p) => ({
            page: p,
          })),
        })
      : null,
  ];
  return reply(nodes, { visibility: 'channel', replace });
}
