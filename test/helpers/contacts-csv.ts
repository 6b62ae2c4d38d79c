/**
 * Checks an exported contacts CSV against what the service holds: parses it back with csv-parse and compares every
 * row with the list's contacts, field by field, as the service returns them.
 */
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { CrmStatus } from '../../src/core/service/enums.js';
import type { CrmContact, ServiceClient } from '../../src/core/service/index.js';

/** The rows of a CSV file, keyed by its header. */
export function parseCsv(bytes: Uint8Array): Record<string, string>[] {
  return parse(Buffer.from(bytes), { bom: true, columns: true }) as Record<string, string>[];
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

/** Asserts the CSV rows are exactly the contacts: one row each, every field the service sent, the creator's handle. */
export function expectRowsMatch(
  rows: readonly Record<string, string>[],
  contacts: readonly CrmContact[],
): void {
  expect(rows.map((row) => row.id).sort()).toEqual(contacts.map((c) => c.id).sort());
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const contact of contacts) {
    const row = byId.get(contact.id) as Record<string, string>;
    const { influencer, ...fields } = contact as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields))
      expect(row[key], `${contact.id} ${key}`).toBe(expected(value));
    for (const [key, value] of Object.entries((influencer ?? {}) as Record<string, unknown>)) {
      expect(row[`influencer.${key}`], `${contact.id} influencer.${key}`).toBe(expected(value));
    }
    const handle = (contact.handle ?? '').replace(/^@+/, '');
    expect(row.creator_handle).toBe(handle);
    if (
      handle !== '' &&
      /^(tiktok|instagram|youtube|twitter|linkedin|twitch)$/.test(row.creator_platform ?? '')
    ) {
      expect(row.profile_url).toContain(encodeURIComponent(handle));
      expect(row.profile_url).toMatch(/^https:\/\//);
    }
  }
}
