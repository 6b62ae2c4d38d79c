/**
 * `/scout list export`: every contact of a list (or of one status) as a CSV file, read from the service a page at a
 * time with progress shown. Columns: the contact's fields as the service names them (the contract's first, then
 * any others it sent), the creator's handle, platform and profile URL, then the members of `influencer`.
 */
import type { CommandContext } from '../../core/command/types.js';
import type { CrmStatus } from '../../core/service/enums.js';
import type { CrmContact } from '../../core/service/index.js';
import {
  bold,
  CSV_MIME_TYPE,
  type CsvCell,
  code,
  csvBytes,
  file,
  formatInteger,
  fullProfileUrl,
  notice,
  type Reply,
  reply,
  safeFileName,
  text,
} from '../../core/ui/index.js';
import { quoted, STATUS_EXAMPLE, statusLabel } from './common.js';
import type { ListTarget } from './resolve.js';

/** Contacts read per request: the contract's largest page, so a big list takes the fewest requests. */
export const EXPORT_PAGE_SIZE = 500;
/** Pages read at most (20,000 contacts): about what one file may hold, and a bounded wait for the person. */
export const EXPORT_PAGES_MAX = 40;
/** Progress messages at most: a Slack response_url takes 5 posts, and the answer needs one. */
const PROGRESS_MAX = 3;
/** Time between progress messages after the first. */
const PROGRESS_EVERY_MS = 10_000;

/** The contact fields of the contract, in its order: the first columns. */
export const CONTACT_COLUMNS = [
  'id',
  'list_id',
  'user_id',
  'status',
  'contact_email',
  'handle',
  'first_contact_date',
  'last_contact_date',
  'response_date',
  'proposed_rate',
  'agreed_rate',
  'content_deliverables',
  'notes',
  'active',
  'date_created',
  'date_updated',
] as const;

/** Columns Scout adds after the contact's own: the creator's handle (no "@"), platform and public profile. */
export const CREATOR_COLUMNS = ['creator_handle', 'creator_platform', 'profile_url'] as const;

/** Prefix of the columns that spread the contact's `influencer` object, one column per member. */
export const INFLUENCER_PREFIX = 'influencer.';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field value as a cell: scalars as they are, lists of scalars joined, anything else as JSON. */
function cell(value: unknown): CsvCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    return value.join('; ');
  }
  return JSON.stringify(value);
}

const influencerOf = (contact: CrmContact) => (isRecord(contact.influencer) ? contact.influencer : {});
const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** A handle as data: whole, trimmed, without its leading "@" (a card's display form shortens long ones). */
const bareHandle = (value: unknown) => {
  const handle = textOf(value)?.replace(/^@/, '').trim();
  return handle === undefined || handle === '' ? null : handle;
};

/** The creator's handle, platform and profile URL, from the contact or the creator record it carries. */
function creatorCells(contact: CrmContact): CsvCell[] {
  const influencer = influencerOf(contact);
  const handle = bareHandle(contact.handle) ?? bareHandle(influencer.handle);
  // Creator ids name their platform (`tiktok_123`) when the record does not.
  const platform =
    textOf(influencer.source)?.toLowerCase() ?? /^([a-z]+)_/.exec(contact.user_id ?? '')?.[1] ?? null;
  return [handle, platform, fullProfileUrl(platform, handle)];
}

/** The table of contacts: fixed columns first, then whatever else the service sent, in the order first seen. */
export function contactTable(contacts: readonly CrmContact[]): {
  header: string[];
  rows: CsvCell[][];
} {
  const fixed = new Set<string>([...CONTACT_COLUMNS, 'influencer']);
  const extra = new Set<string>();
  const influencerKeys = new Set<string>();
  for (const contact of contacts) {
    for (const key of Object.keys(contact)) if (!fixed.has(key)) extra.add(key);
    for (const key of Object.keys(influencerOf(contact))) influencerKeys.add(key);
  }
  const own = [...CONTACT_COLUMNS, ...extra];
  const spread = [...influencerKeys];
  const header = [...own, ...CREATOR_COLUMNS, ...spread.map((key) => `${INFLUENCER_PREFIX}${key}`)];
  const rows = contacts.map((contact) => {
    const fields = contact as Record<string, unknown>;
    const influencer = influencerOf(contact);
    return [
      ...own.map((key) => cell(fields[key])),
      ...creatorCells(contact),
      ...spread.map((key) => cell(influencer[key])),
    ];
  });
  return { header, rows };
}

/** Says how far the reading got: after the first page, then at most every PROGRESS_EVERY_MS. */
function progressReporter(ctx: CommandContext, list: ListTarget, filter: string) {
  let sent = 0;
  let last = 0;
  return async (read: number, total: number | null) => {
    const now = ctx.clock.now().getTime();
    if (sent >= PROGRESS_MAX || (sent > 0 && now - last < PROGRESS_EVERY_MS)) return;
    sent += 1;
    last = now;
    const of = total === null ? '' : ` of ${formatInteger(total)}`;
    try {
      await ctx.progress(
        reply([
          notice('info', `Exporting ${list.name}${filter}: ${formatInteger(read)}${of} contacts read…`),
        ]),
      );
    } catch (error) {
      // The export goes on: only the interim message was lost.
      ctx.logger.warn({ err: error }, 'Could not show the progress of an export.');
    }
  };
}

/** Reads every contact of the list (or of one status), page by page, each contact once. */
async function readContacts(ctx: CommandContext, list: ListTarget, status: CrmStatus | undefined) {
  const filter = status === undefined ? '' : ` (${statusLabel(status)})`;
  const progress = progressReporter(ctx, list, filter);
  const seen = new Set<string>();
  const contacts: CrmContact[] = [];
  let total: number | null = null;
  let page: number | null = 1;
  for (let read = 0; page !== null && read < EXPORT_PAGES_MAX; read++) {
    const { data } = await ctx.service.crm.listCreators({
      listId: list.id,
      page,
      perPage: EXPORT_PAGE_SIZE,
      ...(status === undefined ? {} : { status }),
    });
    // A contact added or removed while reading shifts the pages: one seen already is not written twice.
    let added = 0;
    for (const contact of data.items) {
      if (seen.has(contact.id)) continue;
      seen.add(contact.id);
      contacts.push(contact);
      added += 1;
    }
    total = data.total ?? total;
    // The end: an empty page, no next page, the last page the service counts, or a page that only repeats
    // contacts read already (a next page that goes on forever would otherwise read EXPORT_PAGES_MAX pages and
    // warn of a file cut short).
    const last: boolean = data.totalPages !== null && page >= data.totalPages;
    page = added === 0 || last ? null : data.nextPage;
    if (page !== null) await progress(contacts.length, total);
  }
  return { contacts, total: Math.max(total ?? 0, contacts.length), complete: page === null };
}

/** Exports a list's contacts as a CSV file. */
export async function exportList(
  ctx: CommandContext,
  list: ListTarget,
  status: CrmStatus | undefined,
): Promise<Reply> {
  const filter = status === undefined ? '' : ` with status ${statusLabel(status)}`;
  const { contacts, total, complete } = await readContacts(ctx, list, status);
  if (contacts.length === 0) {
    return reply(
      [
        notice('info', [
          `${list.name} has no contacts${filter}: there is nothing to export. Add creators with `,
          code(`/scout list add ${quoted(list.name)} <creator ids>`),
          '.',
        ]),
      ],
      { visibility: 'author' },
    );
  }
  const csv = await csvBytes(contactTable(contacts));
  const day = ctx.clock.now().toISOString().slice(0, 10);
  const name = safeFileName(
    [list.name, status?.toLowerCase() ?? '', day].filter((part) => part !== '').join('-'),
    'csv',
    'list',
  );
  const count = `${formatInteger(csv.rows)} contact${csv.rows === 1 ? '' : 's'}`;
  const attachment = file(name, csv.bytes, {
    mimeType: CSV_MIME_TYPE,
    title: `${list.name}: ${count}${filter}`,
  });
  const nodes = [text(bold(list.name), ` · ${count}${filter} exported to `, code(attachment.name))];
  const partial =
    csv.rows < contacts.length || !complete
      ? notice('warning', [
          `The file holds the first ${formatInteger(csv.rows)}${total > csv.rows ? ` of ${formatInteger(total)}` : ''} contacts, the most one file may hold. `,
          'Export one status at a time for the rest, such as ',
          code(`/scout list export ${quoted(list.name)} status:${STATUS_EXAMPLE}`),
          '.',
        ])
      : null;
  return reply([...nodes, partial], { visibility: 'channel', files: [attachment] });
}
