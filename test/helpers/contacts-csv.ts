/**
 * Checks an exported contacts CSV against what the service holds: parses it back with csv-parse and compares every
 * row with the list's contacts, field by field, each as people read it (statuses in words, platforms by name,
 * engagement as a percentage, timestamps with their zone).
 */
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { CrmStatus } from '../../src/core/service/enums.js';
import type { CrmContact, ServiceClient } from '../../src/core/service/index.js';

/** The rows of a CSV file, keyed by its header. */
export function parseCsv(bytes: Uint8Array): Record<string, string>[] {
  return parse(Buffer.from(bytes), { bom: true, columns: true }) as Record<string, string>[];
}

/** The rows of a CSV file as they are, the header first. */
export function csvTable(bytes: Uint8Array): string[][] {
  return parse(Buffer.from(bytes), { bom: true }) as string[][];
}

/** Every contact of a list (or of one status), read page by page. */
export async function allContacts(
  service: ServiceClient,
  listId: string,
  status?: CrmStatus,
): Promise<CrmContact[]> {
  const all: CrmContact[] = [];
  let page: number | null = 1;
  while (page !== null) {
    const { data } = await service.crm.listCreators({
      listId,
      page,
      perPage: 500,
      ...(status === undefined ? {} : { status }),
    });
    all.push(...data.items);
    page = data.items.length === 0 ? null : data.nextPage;
  }
  return all;
}

/** A field as the CSV holds it: text with a formula character first gets a quote, yes/no and numbers as text. */
function expected(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.join('; ');
  return JSON.stringify(value);
}

/** A service timestamp as the CSV holds it: in UTC with its zone (the service's zoneless ones are UTC). */
function expectedStamp(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  return new Date(zoned).toISOString().replace('.000Z', 'Z');
}

/** The platforms by name, as chat shows them. */
const PLATFORMS: Readonly<Record<string, string>> = {
  tiktok: 'TikTok',
  instagram: 'Instagram',
  youtube: 'YouTube',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  twitch: 'Twitch',
};

/** The statuses in words, as chat shows them. */
const STATUSES: Readonly<Record<string, string>> = {
  TO_OUTREACH: 'To outreach',
  OUTREACHED: 'Outreached',
  NEGOTIATING: 'Negotiating',
  WORKING: 'Working',
  DONE: 'Done',
  CANCELLED: 'Cancelled',
};

/** An engagement rate (a fraction) as the percentage chat shows, one decimal from 1% up: 0.0369 → "3.7". */
function expectedEngagement(rate: unknown): string {
  if (typeof rate !== 'number') return '';
  // As chat rounds it: to four decimals first, so 0.0745 reads 7.45 (then 7.5), not 7.4499….
  const percent = Math.round(rate * 1_000_000) / 10_000;
  return String(Number(percent.toFixed(Math.abs(percent) < 1 ? 2 : 1)));
}

/**
 * Asserts the CSV rows are exactly the contacts: one row each, under readable labels, every field the service sent
 * either in the column people read it in (status in words, engagement as a percentage, timestamps with their zone)
 * or among the service's own columns.
 */
export function expectRowsMatch(
  rows: readonly Record<string, string>[],
  contacts: readonly CrmContact[],
): void {
  expect(rows.map((row) => row['Contact ID']).sort()).toEqual(contacts.map((c) => c.id).sort());
  const byId = new Map(rows.map((row) => [row['Contact ID'], row]));
  for (const contact of contacts) {
    const row = byId.get(contact.id) as Record<string, string>;
    const creator = (contact.influencer ?? {}) as Record<string, unknown>;
    const handle = (contact.handle ?? '').replace(/^@+/, '');
    const platform = String(creator.source ?? '');
    expect(row, contact.id).toMatchObject({
      Name: expected(creator.nickname),
      Handle: handle,
      Platform: PLATFORMS[platform] ?? platform,
      Email: expected(contact.contact_email),
      Status: STATUSES[contact.status ?? ''] ?? expected(contact.status),
      'Proposed rate': expected(contact.proposed_rate),
      'Agreed rate': expected(contact.agreed_rate),
      Deliverables: expected(contact.content_deliverables),
      Notes: expected(contact.notes),
      Followers: expected(creator.followers),
      'Engagement (%)': expectedEngagement(creator.engagement_rate),
      Country: expected(creator.country),
      Added: expectedStamp(contact.date_created),
      'Last contact': expectedStamp(contact.last_contact_date),
      'List ID': expected(contact.list_id),
      'Creator ID': expected(contact.user_id),
      'First contact': expectedStamp(contact.first_contact_date),
      Replied: expectedStamp(contact.response_date),
      Active: expected(contact.active),
      Updated: expectedStamp(contact.date_updated),
    });
    if (handle !== '' && platform in PLATFORMS) {
      expect(row['Profile URL']).toContain(encodeURIComponent(handle));
      expect(row['Profile URL']).toMatch(/^https:\/\//);
    }
  }
}
