/**
 * `/scout list export`: every contact of a list (or of one status) as a CSV file, read from the service a page at a
 * time with progress shown, laid out for people by contact-table.ts.
 */
import type { CommandContext } from '../../core/command/types.js';
import type { CrmStatus } from '../../core/service/enums.js';
import type { CrmContact } from '../../core/service/index.js';
import {
  bold,
  CSV_MIME_TYPE,
  code,
  csvBytes,
  file,
  formatInteger,
  notice,
  type Reply,
  reply,
  safeFileName,
  text,
} from '../../core/ui/index.js';
import { quoted, STATUS_EXAMPLE, statusLabel } from './common.js';
import { contactTable } from './contact-table.js';
import type { ListTarget } from './resolve.js';

/** Contacts read per request: the contract's largest page, so a big list takes the fewest requests. */
export const EXPORT_PAGE_SIZE = 500;
/** Pages read at most (20,000 contacts): about what one file may hold, and a bounded wait for the person. */
export const EXPORT_PAGES_MAX = 40;
/** Progress messages at most: a Slack response_url takes 5 posts, and the answer needs one. */
const PROGRESS_MAX = 3;
/** Time between progress messages after the first. */
const PROGRESS_EVERY_MS = 10_000;

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
