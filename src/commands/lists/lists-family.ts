/** `/scout lists`: the team's CRM lists with their counts; creating, renaming, describing and reading one. */
import { z } from 'zod';
import { CommandInputError } from '../../core/command/errors.js';
import type { CommandContext } from '../../core/command/types.js';
import { defineAction, defineCommand, defineFamily } from '../../core/command/types.js';
import { type CrmList, crmCreateListInput, crmUpdateListInput } from '../../core/service/index.js';
import {
  bold,
  button,
  buttons,
  type CardNode,
  code,
  fields,
  finiteOrNull,
  formatAmount,
  formatDate,
  formatInteger,
  MISSING,
  notice,
  numberCell,
  pager,
  plural,
  type Reply,
  type ReplyNode,
  reply,
  TABLE_ROWS_MAX,
  type TableNode,
  table,
  text,
} from '../../core/ui/index.js';
import { choosers } from './choosers.js';
import { delegate, LIST_PARAM, PENDING_ID, quoted } from './common.js';
import { CONTACTS_PER_TABLE, contactsPage, KINDS } from './contacts-view.js';
import { listRow } from './crm-cards.js';
import { LIST_NAME_MAX, listRef } from './list-inputs.js';
import { chooseList, type ListTarget, resolveList } from './resolve.js';

const FREE = 'free with an active CRM subscription';
const PAGE_KIND = 'lists.page';
const OPEN_KIND = 'lists.open';
/** Lists a table shows: as many rows as a table holds. */
const LISTS_PER_TABLE = TABLE_ROWS_MAX;

const NAME_PARAM = {
  kind: 'text',
  required: true,
  trailing: true,
  description: 'The list name.',
  example: '"Spring Launch"',
} as const;

const nameOf = (list: CrmList) => list.name ?? list.id;

function openToken(ctx: CommandContext, list: ListTarget): string {
  return ctx.token(KINDS.page, firstPage(list));
}

/** A list's first page of contacts, as its Open button and the lists' select show it. */
const firstPage = (list: ListTarget) => ({
  listId: list.id,
  name: list.name,
  page: 1,
  perPage: CONTACTS_PER_TABLE,
  replace: false,
});

function row(ctx: CommandContext, list: CrmList): CardNode {
  return listRow(list, { actions: [button('Open', openToken(ctx, { id: list.id, name: nameOf(list) }))] });
}

const count = (value: number | null | undefined) => {
  const known = finiteOrNull(value);
  return numberCell(known === null ? MISSING : formatInteger(known), known);
};

/** The team's lists side by side: name, counts, budget, dates and when each last changed. */
function listsTable(caption: string, lists: readonly CrmList[]): TableNode {
  const date = (value: string | null | undefined) => formatDate(value) ?? MISSING;
  return table({
    caption,
    columns: [
      { label: 'Name' },
      { label: 'Contacts', numeric: true },
      { label: 'To outreach', numeric: true },
      { label: 'Budget', numeric: true },
      { label: 'Dates' },
      { label: 'Updated' },
    ],
    rows: lists.map((list) => {
      const budget = finiteOrNull(list.budget);
      const start = formatDate(list.start_date);
      const end = formatDate(list.end_date);
      return [
        nameOf(list),
        count(list.contact_count),
        count(list.to_outreach_count),
        numberCell(budget === null ? MISSING : formatAmount(budget), budget),
        start === null && end === null ? MISSING : `${start ?? '…'} → ${end ?? '…'}`,
        date(list.date_updated),
      ];
    }),
  });
}

/** The selects that open each list of a table. */
function openChoosers(ctx: CommandContext, lists: readonly CrmList[], first: number) {
  const choices = lists.map((list, index) => ({
    row: first + index,
    label: nameOf(list),
    value: list.id,
    description: plural(list.contact_count ?? 0, 'contact'),
    name: nameOf(list),
  }));
  return choosers(
    ctx,
    OPEN_KIND,
    choices,
    { one: 'Open a list…', some: (from, to) => `Open lists ${from}–${to}…` },
    (group) => ({ lists: group.map(({ value, name }) => ({ id: value, name })) }),
  );
}

async function showLists(ctx: CommandContext, page: number, replace: boolean): Promise<Reply> {
  const { data } = await ctx.service.crm.listLists();
  const lists = data.lists;
  if (lists.length === 0) {
    return reply(
      [
        notice('info', [
          'The team has no lists yet. Create one with ',
          code('/scout lists create name:"Spring Launch"'),
          '.',
        ]),
      ],
      { visibility: 'channel', replace },
    );
  }
  const pages = Math.ceil(lists.length / LISTS_PER_TABLE);
  const current = Math.min(Math.max(page, 1), pages);
  const first = (current - 1) * LISTS_PER_TABLE + 1;
  const shown = lists.slice(first - 1, current * LISTS_PER_TABLE);
  const total = data.total ?? lists.length;
  const caption = pages > 1 ? `CRM lists ${first}–${first + shown.length - 1}` : 'CRM lists';
  const nodes: ReplyNode[] = [
    text(bold('CRM lists'), ` · ${total} list${total === 1 ? '' : 's'}`),
    listsTable(caption, shown),
    ...openChoosers(ctx, shown, first),
  ];
  if (pages > 1) {
    nodes.push(
      pager({
        page: current,
        totalPages: pages,
        prevActionId: current > 1 ? ctx.token(PAGE_KIND, { page: current - 1 }) : null,
        nextActionId: current < pages ? ctx.token(PAGE_KIND, { page: current + 1 }) : null,
        label: 'CRM lists',
      }),
    );
  }
  return reply(nodes, { visibility: 'channel', replace });
}

/** Refuses a name another list already has (any case): names are how people refer to lists. */
function ensureFreeName(lists: readonly CrmList[], name: string, except: string | null): void {
  const wanted = name.trim().toLowerCase();
  const taken = lists.find((list) => list.id !== except && (list.name ?? '').trim().toLowerCase() === wanted);
  if (taken !== undefined) {
    throw new CommandInputError(`A list named ${quoted(nameOf(taken))} already exists; choose another name.`);
  }
}

function changed(message: string, ctx: CommandContext, list: CrmList): Reply {
  return reply([notice('success', message), row(ctx, list)], { visibility: 'channel' });
}

function details(ctx: CommandContext, list: CrmList): Reply {
  const target = { id: list.id, name: nameOf(list) };
  return reply(
    [
      text(bold(target.name)),
      list.description ? text(list.description) : null,
      fields([
        { label: 'List id', value: list.id, inline: true },
        { label: 'Contacts', value: list.contact_count, inline: true },
        { label: 'To outreach', value: list.to_outreach_count, inline: true },
        { label: 'Budget', value: list.budget, inline: true },
        { label: 'Website id', value: list.website_id, inline: true },
        { label: 'Starts', value: formatDate(list.start_date), inline: true },
        { label: 'Ends', value: formatDate(list.end_date), inline: true },
        { label: 'Created', value: formatDate(list.date_created), inline: true },
        { label: 'Updated', value: formatDate(list.date_updated), inline: true },
        {
          label: 'Active',
          value: list.active === null || list.active === undefined ? null : list.active ? 'yes' : 'no',
          inline: true,
        },
      ]),
      buttons(button('Open', openToken(ctx, target), { style: 'primary' })),
    ],
    { visibility: 'channel' },
  );
}

/** Whether a name given to a list is longer than a list is read by (said of its `name` field): none is made. */
function tooLong(name: unknown, ctx: z.RefinementCtx): boolean {
  if (typeof name !== 'string' || name.trim().length <= LIST_NAME_MAX) return false;
  ctx.addIssue({ code: 'custom', path: ['name'], message: `must have at most ${LIST_NAME_MAX} characters` });
  return true;
}

const createSchema = z.looseObject({}).transform((raw, ctx) => {
  if (tooLong(raw.name, ctx)) return z.NEVER;
  const checked = delegate('crm.createList', crmCreateListInput, raw, ctx);
  return checked === null ? z.NEVER : checked;
});

const updateSchema = z.looseObject({ list: listRef }).transform((raw, ctx) => {
  if (tooLong(raw.name, ctx)) return z.NEVER;
  const { list, ...rest } = raw;
  const checked = delegate('crm.updateList', crmUpdateListInput, { ...rest, listId: PENDING_ID }, ctx);
  if (checked === null) return z.NEVER;
  const { listId: _, ...changes } = checked;
  return { list, changes };
});

const pageAction = defineAction({
  kind: PAGE_KIND,
  payload: z.object({ page: z.number().int().min(1) }),
  run: (ctx, payload) => showLists(ctx, payload.page, true),
});

/** A list chosen in the lists' select: its contacts, as `list show` shows them. */
const openAction = defineAction({
  kind: OPEN_KIND,
  payload: z.object({ lists: z.array(z.object({ id: z.string(), name: z.string() })) }),
  async run(ctx, payload, event) {
    const chosen = event.value?.trim() ?? '';
    if (chosen === '') return reply([notice('info', 'Choose a list in the menu.')]);
    const known = payload.lists.find((list) => list.id === chosen);
    return contactsPage(ctx, firstPage(known ?? (await resolveList(ctx, chosen))));
  },
});

/** The lists family. */
export const listsFamily = defineFamily({
  name: 'lists',
  description: 'The team’s CRM lists with their counts; create, rename, describe or read one.',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      name: 'show',
      description: 'The team’s lists as a table with contact and to-outreach counts; a menu opens one.',
      params: {},
      schema: z.object({}),
      examples: ['lists'],
      cost: FREE,
      run: (ctx) => showLists(ctx, 1, false),
    }),
    defineCommand({
      name: 'create',
      description: 'Create a list: a name, and optionally a description, a budget and a website id.',
      params: {
        name: { ...NAME_PARAM, positional: true },
        description: {
          kind: 'text',
          aliases: ['about'],
          description: 'What the list is for.',
          example: '"Q2 launch"',
        },
        budget: { kind: 'number', description: 'The budget (0 or more).', example: '5000' },
        websiteId: {
          kind: 'text',
          aliases: ['website', 'site'],
          description: 'The website id.',
          example: 'web_123',
        },
      },
      schema: createSchema,
      examples: [
        'lists create Summer Push',
        'lists create name:"Spring Launch" budget:5000 description:"Q2 skincare launch"',
      ],
      cost: FREE,
      mutates: true,
      async run(ctx, input) {
        const { data: all } = await ctx.service.crm.listLists();
        ensureFreeName(all.lists, input.name, null);
        const { data } = await ctx.service.crm.createList(input);
        return changed(`Created the list ${nameOf(data)}.`, ctx, data);
      },
    }),
    defineCommand({
      name: 'rename',
      description: 'Rename a list.',
      params: { list: LIST_PARAM, name: { ...NAME_PARAM, positional: true, description: 'The new name.' } },
      schema: updateSchema,
      examples: [
        'lists rename "Spring Launch" Spring Launch 2026',
        'lists rename Spring Launch name:Summer Push',
      ],
      cost: FREE,
      mutates: true,
      async run(ctx, input) {
        const { data: all } = await ctx.service.crm.listLists();
        const list = chooseList(all.lists, input.list);
        const name = input.changes.name ?? list.name;
        ensureFreeName(all.lists, name, list.id);
        const { data } = await ctx.service.crm.updateList({ listId: list.id, name });
        return changed(`Renamed ${list.name} to ${nameOf(data)}.`, ctx, data);
      },
    }),
    defineCommand({
      name: 'describe',
      description: 'Set a list’s description.',
      params: {
        list: LIST_PARAM,
        description: {
          kind: 'text',
          positional: true,
          required: true,
          trailing: true,
          description: 'The new description.',
          example: '"Q2 skincare launch"',
        },
      },
      schema: updateSchema,
      examples: ['lists describe "Spring Launch" description:"Creators for the Q2 skincare launch"'],
      cost: FREE,
      mutates: true,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        const description = input.changes.description ?? '';
        const { data } = await ctx.service.crm.updateList({ listId: list.id, description });
        return changed(`Updated the description of ${nameOf(data)}.`, ctx, data);
      },
    }),
    defineCommand({
      name: 'get',
      description: 'One list’s details: counts, budget, dates and website.',
      params: { list: LIST_PARAM },
      schema: z.object({ list: listRef }),
      examples: ['lists get Spring Launch'],
      cost: FREE,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        const { data } = await ctx.service.crm.getList({ listId: list.id });
        return details(ctx, data);
      },
    }),
  ],
  actions: [pageAction, openAction],
});
