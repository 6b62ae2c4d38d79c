/** `/scout list`: the contacts of one CRM list, and adding, checking, removing and updating creators in it. */
import type { CommandContext } from '../../core/command/types.js';
import { defineAction, defineCommand, defineFamily } from '../../core/command/types.js';
import type { CrmAddResult, CrmMembership } from '../../core/service/index.js';
import {
  bold,
  button,
  buttons,
  CARDS_PER_PAGE,
  fields,
  formatDate,
  MISSING,
  notice,
  type Reply,
  type ReplyNode,
  reply,
  TABLE_ROWS_MAX,
  type TableNode,
  table,
  text,
} from '../../core/ui/index.js';
import { type AddToList, createAddAction, isNewList, offerNewList } from './add-new.js';
import { LIST_PARAM, STATUS_EXAMPLE, STATUS_PARAM, statusLabel, typedStatus } from './common.js';
import { chooseContactAction } from './contact-choice.js';
import { applyUpdate, editAction, setStatusAction, UPDATE_PARAMS } from './contact-update.js';
import { CONTACTS_PER_TABLE, contactNode, contactsPage, KINDS, pagePayload } from './contacts-view.js';
import { exportList } from './export.js';
import {
  addSchema,
  checkSchema,
  exportParams,
  exportSchema,
  IDS_PARAM,
  removeSchema,
  repeatedNote,
  showParams,
  showSchema,
  updateSchema,
} from './list-inputs.js';
import { askRemoval, askRemoveAction, keepAction, removeAction } from './removal.js';
import { chooseList, findContact, type ListTarget, resolveList } from './resolve.js';

const FREE = 'free with an active CRM subscription';
const count = (value: number | null) => value ?? '—';

function openButton(ctx: CommandContext, list: ListTarget, label = 'Open list') {
  return button(
    label,
    ctx.token(KINDS.page, {
      listId: list.id,
      name: list.name,
      page: 1,
      perPage: CONTACTS_PER_TABLE,
      replace: false,
    }),
  );
}

function addReply(
  ctx: CommandContext,
  list: ListTarget,
  result: CrmAddResult,
  repeated: readonly string[],
): Reply {
  const note = repeatedNote(repeated);
  const added = result.added_count ?? result.contacts.length;
  const nodes: ReplyNode[] = [
    notice(
      added > 0 ? 'success' : 'warning',
      added > 0
        ? `Added ${added} creator${added === 1 ? '' : 's'} to ${list.name}.`
        : `Nothing was added to ${list.name}.`,
    ),
    ...(note === null ? [] : [text(note)]),
    fields([
      { label: 'Requested', value: count(result.requested_count), inline: true },
      { label: 'Added', value: count(result.added_count), inline: true },
      { label: 'Created', value: count(result.created_count), inline: true },
      { label: 'Reactivated', value: count(result.reactivated_count), inline: true },
      { label: 'Skipped duplicates', value: count(result.skipped_duplicate_count), inline: true },
      { label: 'Skipped invalid', value: count(result.skipped_invalid_count), inline: true },
    ]),
  ];
  // A few new contacts are shown with their buttons; more are one press away.
  if (result.contacts.length > 0 && result.contacts.length <= CARDS_PER_PAGE) {
    nodes.push(...result.contacts.map((contact) => contactNode(ctx, list, contact)));
  }
  nodes.push(buttons(openButton(ctx, list)));
  return reply(nodes, { visibility: 'channel' });
}

/** Adds creators to a list that exists, and says what the service did. */
const addThere: AddToList = async (ctx, list, input, repeated) => {
  const { data } = await ctx.service.crm.addCreators({ ...input, listId: list.id });
  return addReply(ctx, list, data, repeated);
};

/** The creators asked about, each with whether it is in the list, its status in words and its dates. */
function checkTable(list: ListTarget, entries: readonly CrmMembership[]): TableNode {
  const date = (value: string | null | undefined) => formatDate(value) ?? MISSING;
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
        ? [entry.user_id, 'Yes', statusLabel(entry.status), date(entry.date_added), date(entry.date_updated)]
        : [entry.user_id, 'No', MISSING, MISSING, MISSING],
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
        'list add "Spring Launch" tiktok_123 email:ana@example.com rate:500',
      ],
      cost: FREE,
      mutates: true,
      async run(ctx, input) {
        const { lists } = (await ctx.service.crm.listLists()).data;
        const { list: name, input: typed, repeated } = input;
        // A list no one has: offered to be created, with these creators, by a press (never made on a guess).
        if (isNewList(lists, name)) return offerNewList(ctx, lists, { name, input: typed, repeated });
        return addThere(ctx, chooseList(lists, name), typed, repeated);
      },
    }),
    defineCommand({
      name: 'check',
      description: 'Whether creators are in a list, with their status and dates.',
      params: { list: LIST_PARAM, userIds: IDS_PARAM },
      schema: checkSchema,
      examples: ['list check "Spring Launch" tiktok_123 instagram_456'],
      cost: FREE,
      async run(ctx, input) {
        const list = await resolveList(ctx, input.list);
        const { data } = await ctx.service.crm.checkCreators({ listId: list.id, userIds: input.userIds });
        const inList = data.entries.filter((entry) => entry.exists).length;
        return reply(
          [
            text(bold(list.name), ` · ${inList} of ${data.entries.length} checked are in the list`),
            data.entries.length === 0 ? null : checkTable(list, data.entries),
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
