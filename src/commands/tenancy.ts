/**
 * `/scout connect`, `/scout disconnect` and `/scout admins`: binding the workspace to its service account (many-team
 * mode), and naming Scout admins besides the platform's own. The key is typed in a private form, never in chat.
 */
import { z } from 'zod';
import { CommandInputError } from '../core/command/errors.js';
import type { CommandContext } from '../core/command/types.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import { ServiceError } from '../core/service/index.js';
import { adminRole, tenantOf } from '../core/tenancy/index.js';
import {
  bold,
  code,
  fields,
  formatCredits,
  type Inline,
  mention,
  notice,
  type Reply,
  reply,
  text,
} from '../core/ui/index.js';
import { requirePerson } from './credits.js';

const day = (at: Date) => at.toISOString().slice(0, 10);

async function balanceOf(ctx: CommandContext): Promise<string> {
  try {
    // Creator search is free; every answer carries the key's balance.
    const left = (await ctx.service.creators.search({ perPage: 1 })).meta.creditsRemaining;
    return left === null ? 'not reported' : formatCredits(left);
  } catch (error) {
    return error instanceof ServiceError ? `unavailable (${error.code})` : 'unavailable';
  }
}

async function show(ctx: CommandContext): Promise<Reply> {
  const tenant = tenantOf(ctx.actor);
  const connection = await ctx.tenants.connection(tenant);
  if (ctx.tenants.mode === 'single') {
    return reply([
      text(bold('Service account')),
      fields([
        { label: 'Account', value: `…${connection?.hint ?? '????'}`, inline: true },
        { label: 'Balance', value: await balanceOf(ctx), inline: true },
        { label: 'Connected by', value: 'the deployment', inline: true },
      ]),
    ]);
  }
  if (connection === null) {
    return reply([
      notice(
        'info',
        ctx.actor.isAdmin
          ? ctx.actor.platform === 'terminal'
            ? [
                'No service account is connected here yet. Type ',
                code('connect key <API key>'),
                ': Scout checks the key with a free call and keeps it encrypted.',
              ]
            : [
                'No service account is connected here yet. Run ',
                code('/scout connect key'),
                ': a private form takes the team’s API key of the service, which Scout checks and keeps encrypted.',
              ]
          : 'No service account is connected here yet. Ask an admin to run /scout connect.',
      ),
    ]);
  }
  if (ctx.account === null) {
    return reply([
      notice(
        'warning',
        `The service key stored here (…${connection.hint}) can no longer be read: the deployment’s encryption key changed. ${ctx.actor.isAdmin ? 'Run /scout connect key to enter it again.' : 'Ask an admin to run /scout connect key.'}`,
      ),
    ]);
  }
  const { connectedBy, connectedAt } = connection;
  const on = connectedAt === null ? '' : ` on ${day(connectedAt)}`;
  return reply([
    text(bold('Service account')),
    fields([
      { label: 'Account', value: `…${connection.hint}`, inline: true },
      { label: 'Balance', value: await balanceOf(ctx), inline: true },
      ...(connectedBy === null ? [{ label: 'Connected by', value: 'the deployment', inline: true }] : []),
    ]),
    // A field holds plain text only, so the person who connected the key is named on a line of their own.
    connectedBy === null ? null : text('Connected by ', mention(connectedBy), `${on}.`),
    ctx.actor.isAdmin
      ? text(
          'Replace the key with ',
          code('/scout connect key'),
          ', remove it with ',
          code('/scout disconnect'),
          '.',
        )
      : null,
  ]);
}

const SINGLE_TEAM =
  'This Scout serves one team with the key its deployment sets (SCOUT_API_KEY, or the sandbox); keys are connected in chat only when it runs for many teams.';

/** The connect family. */
export const connectFamily = defineFamily({
  name: 'connect',
  description: 'The workspace’s service account: show it, or connect a key (admins).',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      name: 'show',
      description: 'The connected service account (masked), its balance and who connected it.',
      params: {},
      schema: z.object({}),
      examples: ['connect'],
      account: 'optional',
      run: (ctx) => show(ctx),
    }),
    defineCommand({
      name: 'key',
      description:
        'Connect the team’s API key of the service (admins); typed in a private form, checked for free.',
      params: {
        key: {
          kind: 'text',
          positional: true,
          secret: true,
          description: 'The API key of the service.',
        },
      },
      schema: z.object({
        key: z
          .string()
          .trim()
          .min(8, 'an API key of the service')
          .max(200, 'an API key of the service')
          .regex(/^[\x21-\x7e]+$/, 'an API key of the service: letters, digits and punctuation, no spaces')
          .optional(),
      }),
      examples: ['connect key'],
      cost: 'free (one free check call)',
      permission: 'admin',
      account: 'optional',
      mutates: true,
      subject: 'service-account',
      async run(ctx, input) {
        if (ctx.tenants.mode === 'single') return reply([notice('info', SINGLE_TEAM)]);
        if (input.key === undefined) {
          throw new CommandInputError(
            'Give the team’s API key of the service (in Slack and Discord a private form asks for it).',
            ctx.actor.platform === 'terminal' ? 'connect key <API key>' : null,
          );
        }
        try {
          const { account, balance } = await ctx.tenants.connect(
            tenantOf(ctx.actor),
            input.key,
            ctx.actor.userId,
          );
          return reply([
            notice('success', [
              'Connected: account ',
              bold(`…${account.hint}`),
              balance === null ? '.' : `, ${formatCredits(balance)} left.`,
              ' Everyone here can use Scout now.',
            ]),
          ]);
        } catch (error) {
          if (error instanceof ServiceError && error.code === 'INVALID_API_KEY') {
            return reply([
              notice(
                'error',
                'The service did not accept this key: nothing was stored. Check it and try again.',
              ),
            ]);
          }
          throw error;
        }
      },
    }),
  ],
});

/** The disconnect family. */
export const disconnectFamily = defineFamily({
  name: 'disconnect',
  description: 'Remove the workspace’s service account (admins).',
  defaultCommand: 'key',
  commands: [
    defineCommand({
      name: 'key',
      description:
        'Remove the service key (admins); nothing that uses the service runs until a key is connected.',
      params: {},
      schema: z.object({}),
      examples: ['disconnect'],
      permission: 'admin',
      account: 'optional',
      mutates: true,
      subject: 'service-account',
      async run(ctx) {
        if (ctx.tenants.mode === 'single') return reply([notice('info', SINGLE_TEAM)]);
        const removed = await ctx.tenants.disconnect(tenantOf(ctx.actor));
        return reply(
          [
            notice(
              removed ? 'success' : 'info',
              removed
                ? 'Disconnected: the key is deleted. Notifications and digests pause until an admin runs /scout connect key.'
                : 'No service account was connected here.',
            ),
          ],
          { visibility: removed ? 'channel' : 'author' },
        );
      },
    }),
  ],
});

const whoInput = z.object({ who: z.string().trim().min(1).max(100) });
const whoParam = {
  who: {
    kind: 'text' as const,
    positional: true,
    required: true,
    description: 'A person: a mention or a user id.',
    example: '@ana',
    person: {},
  },
};

/** The admins family. */
export const adminsFamily = defineFamily({
  name: 'admins',
  aliases: ['admin'],
  description: 'Scout admins besides the workspace’s own: list, add, remove.',
  defaultCommand: 'list',
  commands: [
    defineCommand({
      name: 'list',
      description: 'Who may connect keys, set caps for others and remove others’ subscriptions.',
      params: {},
      schema: z.object({}),
      examples: ['admins'],
      account: 'optional',
      run: async (ctx) => {
        const named = await ctx.store.tenants.admins(tenantOf(ctx.actor));
        return reply([
          text(bold('Admins')),
          text(`Always: ${adminRole(ctx.actor.platform).replace(/, or a Scout admin.*$/, '')}.`),
          named.length === 0
            ? text('No Scout admins named. An admin adds one with /scout admins add @person.')
            : text(
                'Scout admins: ',
                ...named.flatMap((a, index): Inline[] => [index === 0 ? '' : ', ', mention(a.userId)]),
                '.',
              ),
        ]);
      },
    }),
    defineCommand({
      name: 'add',
      description: 'Name a Scout admin (admins).',
      params: whoParam,
      schema: whoInput,
      examples: ['admins add @ana'],
      permission: 'admin',
      account: 'optional',
      mutates: true,
      async run(ctx, input) {
        const userId = requirePerson(input.who, ctx.actor.platform, 'admins add <@person>');
        const added = await ctx.store.tenants.addAdmin(
          tenantOf(ctx.actor),
          userId,
          ctx.actor.userId,
          ctx.clock.now(),
        );
        return reply(
          [
            notice('success', [
              mention(userId),
              added ? ' is now a Scout admin.' : ' already is a Scout admin.',
            ]),
          ],
          { visibility: 'channel' },
        );
      },
    }),
    defineCommand({
      name: 'remove',
      description: 'Remove a Scout admin (admins); workspace admins stay admins.',
      params: whoParam,
      schema: whoInput,
      examples: ['admins remove @ana'],
      permission: 'admin',
      account: 'optional',
      mutates: true,
      async run(ctx, input) {
        const userId = requirePerson(input.who, ctx.actor.platform, 'admins remove <@person>');
        const removed = await ctx.store.tenants.removeAdmin(tenantOf(ctx.actor), userId);
        return reply(
          [
            notice(removed ? 'success' : 'info', [
              mention(userId),
              removed ? ' is no longer a Scout admin.' : ' was not a Scout admin.',
            ]),
          ],
          { visibility: removed ? 'channel' : 'author' },
        );
      },
    }),
  ],
});
