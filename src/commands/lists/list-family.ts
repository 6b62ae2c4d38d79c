/** `/scout list`: the contacts of one CRM list, and adding, checking, removing and updating creators in it. */
import { defineAction, defineCommand, defineFamily } from '../../core/command/types.js';
import type { CrmMembership } from '../../core/service/index.js';
import {
  bold,
  formatDate,
  MISSING,
  notice,
  reply,
  TABLE_ROWS_MAX,
  type TableNode,
  table,
  text,
  truncate,
} from '../../core/ui/index.js';
import { type AddToList, createAddAction, isNewList, offerNewList } from './add-new.js';
import { addReply } from './add-outcome.js';
import { LIST_PARAM, STATUS_EXAMPLE, STATUS_PARAM, statusLabel, typedStatus } from './common.js';
import { chooseContactAction } from './contact-choice.js';
import { applyUpdate, editAction, setStatusAction, UPDATE_PARAMS } from './contact-update.js';
import { contactsPage, KINDS, pagePayload } from './contacts-view.js';
import { readTyped, unquotedName } from './creator-answers.js';
import { exportList } from './export.js';
import {
  addSchema,
  checkSchema,
  exportParams,
  exportSchema,
  IDS_PARAM,
  removeSchema,
  showParams,
  showSchema,
  updateSchema,
} from './list-inputs.js';
import { askRemoval, askRemoveAction, keepAction, removeAction } from './removal.js';
import { chooseList, findContact, hasList, type ListTarget, resolveList } from './resolve.js';

const FREE = 'free with an active CRM subscription';
/** Adds creators to a list that exists, and says what the service did. */
const addThere: AddToList = async (ctx, list, input, repeated) => {
  const { data } = await ctx.service.crm.addCreators({ ...input, listId: list.id });
  return addReply(ctx, list, input.userIds, data, repeated);
};

/** Longest creator cell of the check table ("@handle · Name"). */
const CREATOR_CELL_MAX = 40;

/**
 * The creators asked about, each as people read it ("@handle · Name" where known), with whether it is in the list,
 * its status in words and its dates.
 */
function checkTable(
  list: ListTarget,
  entries: readonly CrmMembership[],
  labels: ReadonlyMap<string, string>,
): TableNode {
  const date = (value: string | null | undefined) => formatDate(value) ?? MISSING;
  const who = (entry: CrmMembership) =>
    truncate(labels.get(entry.user_id) ?? entry.user_id, CREATOR_CELL_MAX);
  return table({
    caption: `Checked in ${list.name}`,
    columns: [
      { label: 'Creator' },
      { label: 'In the list' },
      { label: 'Status' },
      { label: 'Added' },
      { label: 'Updated' },
    ],
    rows: entries.map((entry) =>
      entry.exists
        ? [who(entry), 'Yes', statusLabel(entry.status), date(entry.date_added), date(entry.date_updated)]
        : [who(entry), 'No', MISSING, MISSING, MISSING],
    ),
  });
}

/** Opens a list, or turns its pages. */
const pageAction = defineAction({
  kind: KINDS.page,
  payload: pagePayload,
  run: (ctx, payload) => contactsPage(ctx, payload),
});

/** The list family. */
export const listFamily = defineFamily({
  name: 'list',
  description: 'One CRM list: its contacts, adding, checking, removing and updating creators.',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      name: 'show',
      description: 'A list’s contacts as a table, 100 at a time, optionally one status; a menu acts on each.',
      params: showParams,
      schema: showSchema,
      examples: ['list Spring Launch', `list show Spring Launch status:${STATUS_EXAMPLE} page:2`],
      cost: FREE,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        return contactsPage(ctx, {
          listId: list.id,
          name: list.name,
          page: input.page,
          perPage: input.perPage,
          ...(input.status === undefined ? {} : { status: input.status }),
          replace: false,
        });
      },
    }),
    defineCommand({
      name: 'export',
      working: 'Exporting the list…',
      description:
        'A list’s contacts as a CSV file (every field, handle, profile URL), optionally one status.',
      params: exportParams,
      schema: exportSchema,
      examples: ['list export Spring Launch', `list export Spring Launch status:${STATUS_EXAMPLE}`],
      cost: FREE,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        return exportList(ctx, list, input.status);
      },
    }),
    defineCommand({
      name: 'add',
      description: 'Add 1 to 500 creators to a list; email, rate and handles only with one creator.',
      params: {
        list: LIST_PARAM,
        userIds: IDS_PARAM,
        status: {
          ...STATUS_PARAM,
          description: `Status of the new contacts (${typedStatus('TO_OUTREACH')} by default).`,
        },
        notes: UPDATE_PARAMS.notes,
        contactEmail: UPDATE_PARAMS.contactEmail,
        proposedRate: UPDATE_PARAMS.proposedRate,
        instagramHandle: UPDATE_PARAMS.instagramHandle,
        tiktokHandle: UPDATE_PARAMS.tiktokHandle,
      },
      schema: addSchema,
      examples: [
        `list add "Spring Launch" tiktok_123 instagram_456 status:${typedStatus('OUTREACHED')}`,
        'list add "Spring Launch" @ana email:ana@example.com rate:500',
      ],
      cost: FREE,
      mutates: true,
      async run(ctx, input) {
        const { lists } = (await ctx.service.crm.listLists()).data;
        const { list: name, input: typed, repeated } = input;
        const target = isNewList(lists, name) ? null : chooseList(lists, name);
        const read = await readTyped(ctx, 'add', lists, { name, target, words: typed.userIds });
        if ('answer' in read) return read.answer;
        const request = { ...typed, userIds: read.ids };
        // A list no one has: offered to be created, with these creators, by a press (never made on a guess).
        if (target === null) return offerNewList(ctx, lists, { name, input: request, repeated });
        return addThere(ctx, target, request, repeated);
      },
    }),
    defineCommand({
      name: 'check',
      description: 'Whether creators are in a list, with their status and dates.',
      params: { list: LIST_PARAM, userIds: IDS_PARAM },
      schema: checkSchema,
      examples: ['list check "Spring Launch" tiktok_123 @ana'],
      cost: FREE,
      async run(ctx, input) {
        const { lists } = (await ctx.service.crm.listLists()).data;
        const words = input.userIds;
        // A name no list has is said as such, unless the words after it complete one (it then needs quotes).
        const known = hasList(lists, input.list) || unquotedName(lists, input.list, words) === null;
        const target = known ? chooseList(lists, input.list) : null;
        const read = await readTyped(ctx, 'check', lists, { name: input.list, target, words });
        if ('answer' in read) return read.answer;
        const list = target ?? chooseList(lists, input.list);
        const { data } = await ctx.service.crm.checkCreators({ listId: list.id, userIds: read.ids });
        const members = data.entries.filter((entry) => entry.exists).map((entry) => entry.user_id);
        const labels = await read.book.labels(
          data.entries.map((entry) => entry.user_id),
          new Set(members),
        );
        const inList = members.length;
        return reply(
          [
            text(bold(list.name), ` · ${inList} of ${data.entries.length} checked are in the list`),
            data.entries.length === 0 ? null : checkTable(list, data.entries, labels),
            data.entries.length > TABLE_ROWS_MAX
              ? notice(
                  'info',
                  `The table shows the first ${TABLE_ROWS_MAX} of the ${data.entries.length} creators checked; check the other ${data.entries.length - TABLE_ROWS_MAX} in another request.`,
                )
              : null,
          ],
          { visibility: 'channel' },
        );
      },
    }),
    defineCommand({
      name: 'remove',
      description:
        'Remove a creator from a list (a soft removal; adding again reactivates), after a confirm.',
      params: {
        list: LIST_PARAM,
        creator: {
          kind: 'text',
          positional: true,
          required: true,
          description: 'A creator id (or @handle) in the list.',
          example: 'tiktok_12345',
        },
      },
      schema: removeSchema,
      examples: ['list remove "Spring Launch" tiktok_123', 'list remove "Spring Launch" @ana'],
      cost: FREE,
      // Only asks: the Confirm element removes (and is claimed). Asking again after a Cancel must ask afresh.
      mutates: false,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        const target = await findContact(ctx, list, input.creator);
        return askRemoval(ctx, list, target);
      },
    }),
    defineCommand({
      name: 'update',
      description:
        'Update a creator in a list: status, notes, email, proposed and agreed rates, deliverables.',
      params: {
        list: LIST_PARAM,
        creator: {
          kind: 'text',
          positional: true,
          required: true,
          description: 'A creator id or @handle in the list.',
          example: '@ana',
        },
        ...UPDATE_PARAMS,
      },
      schema: updateSchema,
      examples: [
        `list update "Spring Launch" @ana status:${STATUS_EXAMPLE} rate:500`,
        'list update "Spring Launch" tiktok_123 agreed:450 deliverables:"1 reel, 2 stories" notes:"Ships Monday"',
      ],
      cost: FREE,
      mutates: true,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        const target = await findContact(ctx, list, input.creator);
        return applyUpdate(
          ctx,
          {
            contactId: target.contactId,
            listId: list.id,
            listName: list.name,
            userId: target.userId,
            handle: target.handle,
          },
          input.changes,
        );
      },
    }),
  ],
  actions: [
    pageAction,
    chooseContactAction,
    setStatusAction,
    editAction,
    askRemoveAction,
    removeAction,
    keepAction,
    createAddAction(addThere),
  ],
});
