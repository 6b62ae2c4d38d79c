/**
 * `/scout notify`: subscribes a channel to new creator replies to the team's outreach agent (all projects or
 * one), unsubscribes it, lists the workspace's subscriptions, and handles the buttons of a notification.
 */
import { z } from 'zod';
import type { ParamTable } from '../core/command/params.js';
import { quoteValue } from '../core/command/syntax.js';
import type { CommandContext } from '../core/command/types.js';
import { defineAction, defineCommand, defineFamily } from '../core/command/types.js';
import { NOTIFY_KINDS } from '../core/jobs/index.js';
import type { ReplySubscription } from '../core/store/subscriptions.js';
import { adminRole, PermissionError } from '../core/tenancy/index.js';
import { bold, code, notice, type Reply, reply, text } from '../core/ui/index.js';
import { quoted } from './lists/common.js';
import { setStatusAction } from './lists/contact-update.js';
import { resolveProjectId, showConversation } from './outreach/show.js';

const PROJECT_PARAMS: ParamTable = {
  projectId: {
    kind: 'text',
    trailing: true,
    aliases: ['project'],
    description: 'Only replies of this agent project: its id, or its name.',
    example: '65f0c2a1b3d4e5f6a7b8c9d0',
  },
};

const projectInput = z.object({ projectId: z.string().trim().min(1).max(200).optional() });

const channelOf = (ctx: CommandContext) => ({
  platform: ctx.actor.platform,
  workspaceId: ctx.actor.workspaceId,
  channelId: ctx.channelId,
});

/** The names of the projects that have one, by id (free). */
async function projectNames(ctx: CommandContext): Promise<Map<string, string>> {
  const { data } = await ctx.service.agent.projects();
  return new Map(data.projects.flatMap((p) => (p.name ? [[p.id, p.name] as const] : [])));
}

/** A project in words: its name; its id, labelled, only when the name is unknown (a project no longer active). */
const projectLabel = (id: string | null, names: ReadonlyMap<string, string>) => {
  if (id === null) return 'every project';
  const name = names.get(id);
  return name === undefined ? `the project with id ${id}` : `project ${quoted(name)}`;
};

/** How many inbound replies exist already (one free request: the page's total). */
async function earlierReplies(ctx: CommandContext, projectId: string | null): Promise<number | null> {
  const { data } = await ctx.service.agent.messages({
    direction: 'inbound',
    page: 1,
    perPage: 1,
    ...(projectId === null ? {} : { projectId }),
  });
  return data.total;
}

async function subscribe(ctx: CommandContext, input: z.output<typeof projectInput>): Promise<Reply> {
  const projectId = input.projectId === undefined ? null : await resolveProjectId(ctx, input.projectId);
  const names = await projectNames(ctx);
  const { subscription, created } = await ctx.store.subscriptions.subscribe({
    ...channelOf(ctx),
    projectId,
    createdBy: ctx.actor.userId,
    now: ctx.clock.now(),
  });
  const what = projectLabel(subscription.projectId, names);
  if (!created) {
    return reply([notice('info', `This channel already gets new replies of ${what}.`)]);
  }
  const earlier = await earlierReplies(ctx, projectId);
  const history =
    earlier === null
      ? 'Earlier replies are not announced'
      : `${earlier} earlier ${earlier === 1 ? 'reply exists' : 'replies exist'} and ${earlier === 1 ? 'is' : 'are'} not announced`;
  return reply(
    [
      notice('success', [`This channel now gets each new creator reply of ${what}, once.`]),
      text(
        `${history}: see them with `,
        code(
          `/scout outreach messages direction:inbound${projectId === null ? '' : ` project:${quoteValue(names.get(projectId) ?? projectId)}`}`,
        ),
        '. Stop with ',
        code('/scout notify off'),
        '.',
      ),
    ],
    { visibility: 'channel' },
  );
}

async function unsubscribe(ctx: CommandContext, input: z.output<typeof projectInput>): Promise<Reply> {
  const projectId = input.projectId === undefined ? undefined : await resolveProjectId(ctx, input.projectId);
  const others = (await ctx.store.subscriptions.list(ctx.actor)).filter(
    (s) =>
      s.channelId === ctx.channelId &&
      (projectId === undefined || s.projectId === projectId) &&
      s.createdBy !== ctx.actor.userId,
  );
  if (others.length > 0 && !ctx.actor.isAdmin) {
    throw new PermissionError(
      `Someone else subscribed this channel: stopping their notifications needs ${adminRole(ctx.actor.platform)}.`,
    );
  }
  const removed = await ctx.store.subscriptions.unsubscribe(channelOf(ctx), projectId, ctx.clock.now());
  if (removed === 0) {
    return reply([
      notice(
        'info',
        projectId === undefined
          ? 'This channel has no reply notifications to stop.'
          : `This channel does not get replies of ${projectLabel(projectId, await projectNames(ctx).catch(() => new Map()))}.`,
      ),
    ]);
  }
  return reply(
    [
      notice(
        'success',
        `Reply notifications stopped in this channel (${removed} ${removed === 1 ? 'subscription' : 'subscriptions'}).`,
      ),
    ],
    { visibility: 'channel' },
  );
}

async function subscriptionLine(
  ctx: CommandContext,
  subscription: ReplySubscription,
  names: ReadonlyMap<string, string>,
): Promise<string> {
  const here = subscription.channelId === ctx.channelId ? ' (this channel)' : '';
  const posted = await ctx.store.subscriptions.postedCount(subscription.id);
  return `• #${subscription.channelId}${here}: ${projectLabel(subscription.projectId, names)} · since ${subscription.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${posted} announced`;
}

async function list(ctx: CommandContext): Promise<Reply> {
  const subscriptions = await ctx.store.subscriptions.list(ctx.actor);
  if (subscriptions.length === 0) {
    return reply([
      notice('info', [
        'No channel of this workspace gets reply notifications. Start with ',
        code('/scout notify'),
        '.',
      ]),
    ]);
  }
  const names = await projectNames(ctx).catch(() => new Map<string, string>());
  return reply([
    text(bold('Reply notifications'), ` · ${subscriptions.length} in this workspace`),
    text((await Promise.all(subscriptions.map((s) => subscriptionLine(ctx, s, names)))).join('\n')),
  ]);
}

const statusPayload = z.object({
  projectId: z.string().nullable(),
  creatorId: z.string().nullable(),
  creatorName: z.string().nullable(),
  // Notifications posted before the handle was kept carry none.
  handle: z.string().nullable().default(null),
});

/** How a reply's creator is named: their name, else their handle; never the service's id. */
const creatorWords = (payload: z.output<typeof statusPayload>) =>
  payload.creatorName?.trim() || (payload.handle ? `@${payload.handle.replace(/^@+/, '')}` : 'this creator');

/** "Set status" of a notification: finds the creator's contact in the project's CRM list, then sets it. */
async function setStatus(
  ctx: CommandContext,
  payload: z.output<typeof statusPayload>,
  event: { value?: string | undefined; values?: Readonly<Record<string, string>> | undefined },
): Promise<Reply> {
  const who = creatorWords(payload);
  if (payload.projectId === null || payload.creatorId === null) {
    return reply([
      notice(
        'warning',
        `The reply does not name its project and creator, so ${who} has no contact to update.`,
      ),
    ]);
  }
  const { data } = await ctx.service.agent.projects();
  const project = data.projects.find((p) => p.id === payload.projectId);
  if (project === undefined) {
    return reply([
      notice('warning', 'The project of this reply is no longer active, so its CRM list is unknown.'),
    ]);
  }
  const projectName = project.name ?? project.id;
  const listId = project.campaign_id ?? null;
  if (listId === null || listId === '') {
    return reply([
      notice('info', [
        `Project ${quoted(projectName)} is not linked to a CRM list, so ${who} has no contact whose status could be set. `,
        'Add them to a list with ',
        code(`/scout list add <list> ${payload.creatorId}`),
        '.',
      ]),
    ]);
  }
  const [check, listInfo] = await Promise.all([
    ctx.service.crm.checkCreators({ listId, userIds: [payload.creatorId] }),
    ctx.service.crm.getList({ listId }).catch(() => null),
  ]);
  const listName = listInfo?.data.name ?? null;
  const entry = check.data.entries.find((e) => e.user_id === payload.creatorId && e.exists);
  if (entry === undefined || !entry.contact_id) {
    // The creator id is what `list add` takes: it is given in the line to copy.
    return reply([
      notice('info', [
        `${who} is not in ${listName === null ? 'the CRM list' : `${quoted(listName)}, the list`} of project ${quoted(projectName)}. Add them with `,
        code(`/scout list add ${listName === null ? listId : quoted(listName)} ${payload.creatorId}`),
        '.',
      ]),
    ]);
  }
  const ref = {
    contactId: entry.contact_id,
    listId,
    listName: listName ?? `the list of project ${quoted(projectName)}`,
    userId: payload.creatorId,
    handle: payload.handle,
    name: payload.creatorName,
  };
  return setStatusAction.run(ctx, ref, event);
}

/** The notify family. */
export const notifyFamily = defineFamily({
  name: 'notify',
  aliases: ['notifications'],
  description: 'Announce new creator replies to the outreach agent in this channel.',
  defaultCommand: 'on',
  commands: [
    defineCommand({
      name: 'on',
      description: 'Post each new creator reply here once (optionally one project); starts from now.',
      params: PROJECT_PARAMS,
      schema: projectInput,
      examples: [
        'notify',
        'notify project:"Spring Launch outreach"',
        'notify on project:65f0c2a1b3d4e5f6a7b8c9d0',
      ],
      mutates: true,
      run: subscribe,
    }),
    defineCommand({
      name: 'off',
      description: 'Stop reply notifications in this channel (all, or one project’s).',
      params: PROJECT_PARAMS,
      schema: projectInput,
      examples: ['notify off', 'notify off project:65f0c2a1b3d4e5f6a7b8c9d0'],
      account: 'optional',
      mutates: true,
      run: unsubscribe,
    }),
    defineCommand({
      name: 'list',
      description: 'The channels of this workspace that get reply notifications.',
      params: {},
      schema: z.object({}),
      examples: ['notify list'],
      account: 'optional',
      run: list,
    }),
  ],
  actions: [
    defineAction({
      kind: NOTIFY_KINDS.conversation,
      payload: z.object({ threadId: z.string().min(1) }),
      run: (ctx, payload) => showConversation(ctx, payload.threadId, 1, false),
    }),
    defineAction({
      kind: NOTIFY_KINDS.status,
      payload: statusPayload,
      mutates: true,
      run: setStatus,
    }),
  ],
});
