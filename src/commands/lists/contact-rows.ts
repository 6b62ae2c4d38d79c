/**
 * A list's contacts as chat shows them side by side: one row per contact with the facts people read (who the
 * creator is, the status in words, the audience, the deal, the last contact), numbers kept for sorting.
 */
import type { CrmContact } from '../../core/service/index.js';
import {
  type CellInput,
  engagementPercent,
  finiteOrNull,
  formatAmount,
  formatCount,
  formatDate,
  formatPercent,
  MISSING,
  numberCell,
  type TableNode,
  table,
  truncate,
} from '../../core/ui/index.js';
import { statusLabel } from './common.js';

type Fields = Readonly<Record<string, unknown>>;

/**
 * The longest creator cell: a handle and a name side by side, short enough that 100 rows stay within the
 * characters a Slack data table holds (10,000 across its cells), so none is left out.
 */
const CREATOR_CELL_MAX = 40;

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

const creatorOf = (contact: CrmContact): Fields =>
  typeof contact.influencer === 'object' && contact.influencer !== null && !Array.isArray(contact.influencer)
    ? contact.influencer
    : {};

/** The creator's name as the creator record gives it, or null. */
export function creatorName(contact: CrmContact): string | null {
  return textOf(creatorOf(contact).nickname);
}

/** The contact's handle without its leading "@", or null. */
export function handleOf(contact: CrmContact): string | null {
  const handle = (textOf(contact.handle) ?? textOf(creatorOf(contact).handle))?.replace(/^@+/, '').trim();
  return handle === undefined || handle === '' ? null : handle;
}

/** Who the creator is, as people read it: "@handle · Name", the handle or the name alone, else the creator id. */
export function creatorLabel(contact: CrmContact): string {
  const handle = handleOf(contact);
  const name = creatorName(contact);
  const parts = [handle === null ? null : `@${handle}`, name].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' · ') : (textOf(contact.user_id) ?? textOf(contact.id) ?? MISSING);
}

const amountCell = (value: unknown): CellInput => {
  const amount = finiteOrNull(typeof value === 'number' ? value : null);
  return numberCell(amount === null ? MISSING : formatAmount(amount), amount);
};

function followersCell(contact: CrmContact): CellInput {
  const followers = finiteOrNull(creatorOf(contact).followers as number | null | undefined);
  return numberCell(formatCount(followers), followers);
}

/** The engagement rate (a fraction) as the percentage chat shows, without its sign: the label carries it. */
function engagementCell(contact: CrmContact): CellInput {
  const rate = creatorOf(contact).engagement_rate;
  const percent = engagementPercent(typeof rate === 'number' ? rate : null);
  return percent === null
    ? numberCell(MISSING, null)
    : numberCell(formatPercent(percent).replace(/%$/, ''), percent);
}

/** A column of the table: its label, whether it holds numbers, and its cell for a contact. */
interface Column {
  readonly label: string;
  readonly numeric?: boolean;
  readonly cell: (contact: CrmContact) => CellInput;
}

const hasAny = (contacts: readonly CrmContact[], key: 'proposed_rate' | 'agreed_rate') =>
  contacts.some((contact) => finiteOrNull(contact[key]) !== null);

/** The columns of `contacts`: the rates only where some contact has one. */
function columnsOf(contacts: readonly CrmContact[]): Column[] {
  return [
    { label: 'Creator', cell: (c) => truncate(creatorLabel(c), CREATOR_CELL_MAX) },
    { label: 'Status', cell: (c) => statusLabel(c.status) },
    { label: 'Followers', numeric: true, cell: followersCell },
    { label: 'Engagement (%)', numeric: true, cell: engagementCell },
    ...(hasAny(contacts, 'proposed_rate')
      ? [{ label: 'Proposed rate', numeric: true, cell: (c: CrmContact) => amountCell(c.proposed_rate) }]
      : []),
    ...(hasAny(contacts, 'agreed_rate')
      ? [{ label: 'Agreed rate', numeric: true, cell: (c: CrmContact) => amountCell(c.agreed_rate) }]
      : []),
    { label: 'Last contact', cell: (c) => formatDate(c.last_contact_date) ?? MISSING },
  ];
}

/** The table of a page of contacts, under `caption`. */
export function contactsTable(caption: string, contacts: readonly CrmContact[]): TableNode {
  const columns = columnsOf(contacts);
  return table({
    caption,
    columns: columns.map(({ label, numeric }) => ({ label, ...(numeric === true ? { numeric } : {}) })),
    rows: contacts.map((contact) => columns.map((column) => column.cell(contact))),
  });
}
