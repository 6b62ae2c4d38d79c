/** `/scout credits`: the service balance, my spend, the team's spend, and daily caps (admins). */
import { z } from 'zod';
import { type Platform, personOf } from '../core/actor.js';
import { sparkline } from '../core/charts/spend.js';
import { TEAM_DAYS, teamChartFile, teamSpend } from '../core/charts/team.js';
import { CommandInputError } from '../core/command/errors.js';
import { parseHumanNumber } from '../core/command/params.js';
import type { CommandContext } from '../core/command/types.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import { budgetOf, budgetScopeFor, utcDay, utcMonth } from '../core/credits.js';
import { EVERYONE } from '../core/store/settings.js';
import {
  bold,
  type FileAttachment,
  fields,
  formatCredits,
  formatInteger,
  type Inline,
  mention,
  notice,
  numberCell,
  personCell,
  plural,
  type Reply,
  type ReplyNode,
  reply,
  TABLE_ROWS_MAX,
  table,
  text,
} from '../core/ui/index.js';

const LAST_DAYS = 7;

async function balance(ctx: CommandContext): Promise<number | null> {
  // Creator search is free and every answer carries the key's balance in x-ty-credits.
  const result = await ctx.service.creators.search({ perPage: 1 });
  return result.meta.creditsRemaining;
}

type SpendGroup = { key: string; credits: number; calls: number };

const spend = (g: SpendGroup) => `${formatCredits(g.credits)} (${plural(g.calls, 'call')})`;

const whole = (value: number) => numberCell(formatInteger(value), value);

/**
 * Spend by one key (a command, a day) as a table: the key, then Credits and Calls as numbers that sort by value.
 * Rows past a table's are said, not dropped silently.
 */
function spendTable(title: string, key: string, list: readonly SpendGroup[]): ReplyNode[] {
  if (list.length === 0) return [text(bold(title)), text('No spend yet.')];
  const left = list.length - TABLE_ROWS_MAX;
  return [
    table({
      caption: title,
      columns: [{ label: key }, { label: 'Credits', numeric: true }, { label: 'Calls', numeric: true }],
      rows: list.map((g) => [g.key, whole(g.credits), whole(g.calls)]),
    }),
    left > 0 ? text(`And ${left} more, not shown.`) : null,
  ].filter((node) => node !== null);
}

/** Spend by person as a table: the person, shown by name where the platform can, then Credits and Calls. */
function people(title: string, list: readonly SpendGroup[]): ReplyNode[] {
  if (list.length === 0) return [text(bold(title)), text('No spend yet.')];
  const left = list.length - TABLE_ROWS_MAX;
  const others = left === 1 ? 'one other person' : `${left} other people`;
  return [
    table({
      caption: title,
      columns: [{ label: 'Person' }, { label: 'Credits', numeric: true }, { label: 'Calls', numeric: true }],
      rows: list.map((g) => [personCell(g.key), whole(g.credits), whole(g.calls)]),
    }),
    left > 0 ? text(`And ${others}, who spent less.`) : null,
  ].filter((node) => node !== null);
}

/** Each of the last `days` UTC days up to `now`'s, newest first, with its spend (none on a day without any). */
function everyDay(list: readonly SpendGroup[], now: Date, days: number): SpendGroup[] {
  const byDay = new Map(list.map((g) => [g.key, g]));
  return Array.from({ length: days }, (_, back) => {
    const day = new Date(utcDay(now).from.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { key: day, credits: 0, calls: 0 };
  });
}

/** Calls that may have been charged without a readable answer, counted at their estimate until settled. */
function unconfirmedNote(open: { credits: number; calls: number }) {
  if (open.calls === 0) return [];
  return [
    notice(
      'warning',
      `Unconfirmed this month: ${spend({ key: '', ...open })}. The service may have charged for them but its answer was lost; they count at their estimate until the balance the service reports settles them.`,
    ),
  ];
}

/**
 * The team's spend per day over TEAM_DAYS: a sparkline of the daily totals (the terminal's picture) and, when there
 * is spend, a chart stacked by person as a PNG. A chart that cannot be drawn leaves the sparkline.
 */
async function spendPicture(
  ctx: CommandContext,
  workspace: { platform: Platform; workspaceId: string },
  now: Date,
): Promise<{ nodes: ReplyNode[]; files: FileAttachment[] }> {
  const data = await teamSpend(ctx.store.ledger, workspace, now);
  const title = `Team, last ${TEAM_DAYS} days`;
  if (data.total === 0) return { nodes: [text(bold(title)), text('No spend yet.')], files: [] };
  const nodes = [
    text(bold(title)),
    text(`${sparkline(data.totals)}  ${formatCredits(data.total)}, ${data.days[0]} to ${data.days.at(-1)}`),
  ];
  try {
    return { nodes, files: [await teamChartFile(data)] };
  } catch (error) {
    ctx.logger.warn({ err: error }, 'the spend chart could not be drawn');
    return { nodes, files: [] };
  }
}

async function show(ctx: CommandContext): Promise<Reply> {
  const now = ctx.clock.now();
  const me = ctx.actor;
  const workspace = { platform: me.platform, workspaceId: me.workspaceId };
  const { spentToday, cap } = await budgetOf(budgetScopeFor(me, ctx));
  const month = await ctx.store.ledger.spent(me, utcMonth(now));
  const week = {
    from: new Date(utcDay(now).from.getTime() - (LAST_DAYS - 1) * 86_400_000),
    to: utcDay(now).to,
  };
  const left = await balance(ctx);
  const picture = await spendPicture(ctx, workspace, now);
  const [unconfirmed, byPerson, byCommand, byDay] = await Promise.all([
    ctx.store.ledger.unconfirmed(workspace, utcMonth(now), now),
    ctx.store.ledger.breakdown(workspace, utcMonth(now), 'user'),
    ctx.store.ledger.breakdown(workspace, utcMonth(now), 'command'),
    ctx.store.ledger.breakdown(workspace, week, 'day'),
  ]);
  return reply(
    [
      text(bold('Credits')),
      fields([
        {
          label: 'Service balance',
          value: left === null ? 'not reported' : formatCredits(left),
          inline: true,
        },
        { label: 'You today', value: formatCredits(spentToday), inline: true },
        { label: 'You this month', value: formatCredits(month), inline: true },
        { label: 'Your daily cap', value: cap === null ? 'none' : formatCredits(cap), inline: true },
        { label: 'Confirmation above', value: formatCredits(ctx.settings.confirmAbove), inline: true },
      ]),
      ...unconfirmedNote(unconfirmed),
      ...people('Team this month, by person', byPerson),
      ...spendTable('Team this month, by command', 'Command', byCommand),
      ...spendTable(
        `Team, last ${LAST_DAYS} days`,
        'Day',
        byDay.length === 0 ? [] : everyDay(byDay, now, LAST_DAYS),
      ),
      ...picture.nodes,
    ],
    { files: picture.files },
  );
}

const capInput = z.object({ who: z.string().min(1).max(100), amount: z.string() }).transform((raw, ctx) => {
  if (/^off$/i.test(raw.amount)) return { who: raw.who, amount: 'off' as const };
  const amount = parseHumanNumber(raw.amount);
  if (amount === null || !Number.isInteger(amount) || amount < 0 || amount > 10_000_000) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      message: `takes a whole number of credits (at most 10,000,000) or off, not "${raw.amount}"`,
    });
    return z.NEVER;
  }
  return { who: raw.who, amount };
});

/** The person typed, or an input error that says how to name one. */
export function requirePerson(who: string, platform: Platform, usage: string): string {
  const id = personOf(who, platform);
  if (id === null) {
    throw new CommandInputError(
      `"${who.slice(0, 40)}" is not a person: mention them (@ana) or give their user id. Roles, @here and @everyone are not people.`,
      usage,
    );
  }
  return id;
}

/** The credits family. */
export const creditsFamily = defineFamily({
  name: 'credits',
  aliases: ['credit', 'spend'],
  description: 'The service balance, your spend and the team’s, and daily caps.',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      name: 'show',
      description: 'Service balance, your and the team’s spend (by person, command, day), a 30-day chart.',
      params: {},
      schema: z.object({}),
      examples: ['credits'],
      run: (ctx) => show(ctx),
    }),
    defineCommand({
      name: 'cap',
      description: 'Set a person’s daily credit cap (admins), or everyone’s default; `off` removes it.',
      params: {
        who: {
          kind: 'text',
          positional: true,
          required: true,
          description: 'A person (mention or id), me, or everyone.',
          example: '@ana',
          person: { also: ['everyone', 'me'] },
        },
        amount: {
          kind: 'text',
          positional: true,
          required: true,
          description: 'Credits per day, or off.',
          example: '100',
        },
      },
      schema: capInput,
      examples: [
        'credits cap @ana 100',
        'credits cap me 200',
        'credits cap everyone 500',
        'credits cap @ana off',
      ],
      permission: 'admin',
      account: 'optional',
      mutates: true,
      async run(ctx, input) {
        const everyone = /^@?(everyone|all|\*)$/i.test(input.who.trim());
        const me = /^(me|myself)$/i.test(input.who.trim());
        const userId = everyone
          ? EVERYONE
          : me
            ? ctx.actor.userId
            : requirePerson(input.who, ctx.actor.platform, 'credits cap <@person|me|everyone> <credits|off>');
        const person = { platform: ctx.actor.platform, workspaceId: ctx.actor.workspaceId, userId };
        await ctx.store.settings.setDailyCap(
          person,
          input.amount === 'off' ? null : input.amount,
          ctx.actor.userId,
          ctx.clock.now(),
        );
        const whom: Inline[] = everyone
          ? ['Everyone’s default daily cap']
          : ['The daily cap of ', mention(userId)];
        return reply(
          [
            notice(
              'success',
              input.amount === 'off'
                ? [...whom, ' is removed.']
                : [...whom, ` is now ${formatCredits(input.amount)}.`],
            ),
          ],
          { visibility: 'channel' },
        );
      },
    }),
  ],
});
