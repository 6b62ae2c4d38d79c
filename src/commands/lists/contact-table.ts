/**
 * The table of an exported list, laid out for people: the columns they read first (who the creator is, the deal, the
 * audience, the dates), each value as chat shows it (statuses in words, the platform by name, engagement as a
 * percentage, timestamps with their zone), then the service's other fields under readable labels. No column repeats
 * another: a field whose every value is already in an earlier column of its row is left out.
 */
import type { CrmContact } from '../../core/service/index.js';
import {
  type CsvCell,
  choiceLabel,
  engagementPercent,
  formatPercent,
  fullProfileUrl,
  nameInWords,
  platformLabel,
  toIsoString,
} from '../../core/ui/index.js';
import { statusLabel } from './common.js';

type Fields = Readonly<Record<string, unknown>>;

/** A contact as the table reads it: its own fields, the creator record it carries, and who the creator is. */
interface ContactView {
  readonly fields: Fields;
  readonly influencer: Fields;
  /** The handle, whole, without its leading "@". */
  readonly handle: string | null;
  /** The platform as the service names it (`tiktok`). */
  readonly platform: string | null;
}

/** A column: its label, and its cell for a contact. */
interface Column {
  readonly label: string;
  readonly cell: (contact: ContactView) => CsvCell;
}

/** A table of contacts as `csvBytes` writes it. */
export interface ContactTable {
  readonly header: string[];
  readonly rows: CsvCell[][];
}

const isRecord = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

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

/** A handle as data: whole, trimmed, without its leading "@" (a card's display form shortens long ones). */
function bareHandle(value: unknown): string | null {
  const handle = textOf(value)?.replace(/^@+/, '').trim();
  return handle === undefined || handle === '' ? null : handle;
}

/**
 * A timestamp with its zone: the service's zoneless ones are UTC, so `2026-11-28T10:42:00` reads
 * `2026-11-28T10:42:00Z`, and one with an offset is written in UTC too. A calendar date stays a date; a value that is
 * no date is written as sent.
 */
function stamp(value: unknown): CsvCell {
  const raw = textOf(value);
  if (raw === null || /^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  return toIsoString(raw)?.replace(/\.000Z$/, 'Z') ?? raw;
}

/** The engagement rate (a fraction) as the percentage chat shows: 0.0369 → 3.7. */
function engagement(rate: unknown): CsvCell {
  const percent = engagementPercent(typeof rate === 'number' ? rate : null);
  return percent === null ? null : Number.parseFloat(formatPercent(percent));
}

/** A status in words, as chat shows it ("Negotiating"); one Scout does not know, in words too ("On hold"). */
function status(value: unknown): CsvCell {
  const sent = textOf(value);
  return sent === null ? null : choiceLabel(statusLabel(sent));
}

/** The columns people read first, in the order they read them. */
const LEAD_COLUMNS: readonly Column[] = [
  { label: 'Name', cell: (c) => textOf(c.influencer.nickname) },
  { label: 'Handle', cell: (c) => c.handle },
  { label: 'Platform', cell: (c) => (c.platform === null ? null : platformLabel(c.platform)) },
  { label: 'Profile URL', cell: (c) => fullProfileUrl(c.platform, c.handle) },
  { label: 'Email', cell: (c) => textOf(c.fields.contact_email) },
  { label: 'Status', cell: (c) => status(c.fields.status) },
  { label: 'Proposed rate', cell: (c) => cell(c.fields.proposed_rate) },
  { label: 'Agreed rate', cell: (c) => cell(c.fields.agreed_rate) },
  { label: 'Deliverables', cell: (c) => cell(c.fields.content_deliverables) },
  { label: 'Notes', cell: (c) => cell(c.fields.notes) },
  { label: 'Followers', cell: (c) => cell(c.influencer.followers) },
  { label: 'Engagement (%)', cell: (c) => engagement(c.influencer.engagement_rate) },
  { label: 'Country', cell: (c) => cell(c.influencer.country) },
  { label: 'Added', cell: (c) => stamp(c.fields.date_created) },
  { label: 'Last contact', cell: (c) => stamp(c.fields.last_contact_date) },
];

/** The contract's other contact fields, after the lead columns, for those who need them. */
const SERVICE_COLUMNS: readonly Column[] = [
  { label: 'Contact ID', cell: (c) => cell(c.fields.id) },
  { label: 'List ID', cell: (c) => cell(c.fields.list_id) },
  { label: 'Creator ID', cell: (c) => cell(c.fields.user_id) },
  { label: 'First contact', cell: (c) => stamp(c.fields.first_contact_date) },
  { label: 'Replied', cell: (c) => stamp(c.fields.response_date) },
  { label: 'Active', cell: (c) => cell(c.fields.active) },
  { label: 'Updated', cell: (c) => stamp(c.fields.date_updated) },
];

/** The contact fields the columns above show: every contract field, and the creator record itself. */
const SHOWN_FIELDS = new Set([
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
  'influencer',
]);

/** The members of the creator record the lead columns show. */
const SHOWN_CREATOR_FIELDS = new Set(['nickname', 'source', 'followers', 'engagement_rate', 'country']);

/** A contact as the table reads it. */
function viewOf(contact: CrmContact): ContactView {
  const fields = contact as Fields;
  const influencer = isRecord(contact.influencer) ? contact.influencer : {};
  // Creator ids name their platform (`tiktok_123`) when the record does not.
  const platform =
    textOf(influencer.source)?.toLowerCase() ?? /^([a-z]+)_/.exec(contact.user_id ?? '')?.[1] ?? null;
  return {
    fields,
    influencer,
    handle: bareHandle(contact.handle) ?? bareHandle(influencer.handle),
    platform,
  };
}

/** The columns of the fields the service sent beyond those shown, in the order first seen. */
function otherColumns(contacts: readonly ContactView[]): Column[] {
  const own = new Set<string>();
  const creator = new Set<string>();
  for (const contact of contacts) {
    for (const key of Object.keys(contact.fields)) if (!SHOWN_FIELDS.has(key)) own.add(key);
    for (const key of Object.keys(contact.influencer)) if (!SHOWN_CREATOR_FIELDS.has(key)) creator.add(key);
  }
  return [
    ...[...own].map((key) => ({ label: nameInWords(key), cell: (c: ContactView) => cell(c.fields[key]) })),
    ...[...creator].map((key) => ({
      label: nameInWords(`creator_${key}`),
      cell: (c: ContactView) => cell(c.influencer[key]),
    })),
  ];
}

/** A cell as compared for repeats: text without case, spaces or a leading "@"; empty when missing. */
const sameness = (value: CsvCell) =>
  value === null || value === undefined ? '' : String(value).trim().replace(/^@+/, '').toLowerCase();

/** Whether every non-empty cell of `column` is the cell of one same earlier column (of `width`) in its row. */
function repeats(rows: readonly CsvCell[][], column: readonly CsvCell[], width: number): boolean {
  let earlier = Array.from({ length: width }, (_, index) => index);
  for (const [index, row] of rows.entries()) {
    const value = sameness(column[index]);
    if (value === '') continue;
    earlier = earlier.filter((at) => sameness(row[at]) === value);
    if (earlier.length === 0) return false;
  }
  return true;
}

/** A label not used yet: a second "Email" becomes "Email (2)". */
function freeLabel(label: string, header: readonly string[]): string {
  const base = label === '' ? 'Other' : label;
  let name = base;
  for (let n = 2; header.includes(name); n++) name = `${base} (${n})`;
  return name;
}

/** The table of contacts: the lead columns, the contract's others, then any other field that adds something. */
export function contactTable(contacts: readonly CrmContact[]): ContactTable {
  const views = contacts.map(viewOf);
  const fixed = [...LEAD_COLUMNS, ...SERVICE_COLUMNS];
  const header = fixed.map((column) => column.label);
  const rows = views.map((view) => fixed.map((column) => column.cell(view)));
  for (const column of otherColumns(views)) {
    const cells = views.map((view) => column.cell(view));
    if (repeats(rows, cells, header.length)) continue;
    header.push(freeLabel(column.label, header));
    for (const [index, row] of rows.entries()) row.push(cells[index]);
  }
  return { header, rows };
}
