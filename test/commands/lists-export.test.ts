/**
 * `/scout list export` end to end in the terminal: the sandbox's list read page by page (a list bigger than one
 * service page included), a CSV file saved beside the database and its path printed, laid out for people (the columns
 * they read first, statuses in words, engagement as a percentage, timestamps with their zone, no column twice), the
 * status filter, hostile cells neutralised, and bad input refused before anything is sent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpFamily } from '../../src/commands/help.js';
import { EXPORT_PAGE_SIZE } from '../../src/commands/lists/export.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import type { CrmContact } from '../../src/core/service/index.js';
import { allContacts, csvTable, expectRowsMatch, parseCsv } from '../helpers/contacts-csv.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

const BIG = 'Export Big Test';
const EMPTY = 'Export Empty Test';
/** More contacts than one service page holds. */
const BIG_SIZE = EXPORT_PAGE_SIZE + 150;
const HOSTILE = "=cmd|' /C calc'!A0";
/** The columns people read first, in the order they read them. */
const LEAD_COLUMNS = [
  'Name',
  'Handle',
  'Platform',
  'Profile URL',
  'Email',
  'Status',
  'Proposed rate',
  'Agreed rate',
  'Deliverables',
  'Notes',
  'Followers',
  'Engagement (%)',
  'Country',
  'Added',
  'Last contact',
];

let h: Harness;
let dir: string;
let bigId: string;

/** Creator ids of the sandbox, read through the free search, `count` of them. */
async function creatorIds(count: number): Promise<string[]> {
  const ids = new Set<string>();
  for (let page = 1; ids.size < count; page++) {
    const { data } = await h.app.service.creators.search({ perPage: 100, page });
    if (data.items.length === 0) break;
    for (const id of data.items) ids.add(id);
  }
  return [...ids].slice(0, count);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scout-export-'));
  h = await startHarness({
    families: [listsFamily, listFamily, helpFamily],
    sandbox: { rateLimitPerMinute: 100_000 },
    rateLimitPerMinute: 100_000,
    filesDir: dir,
  });
  const { crm } = h.app.service;
  bigId = (await crm.createList({ name: BIG })).data.id;
  await crm.createList({ name: EMPTY });
  const ids = await creatorIds(BIG_SIZE);
  expect(ids).toHaveLength(BIG_SIZE);
  // Seeded through the CRM add operation, 500 ids at most per call.
  await crm.addCreators({ listId: bigId, userIds: ids.slice(0, 500) });
  await crm.addCreators({ listId: bigId, userIds: ids.slice(500), status: 'NEGOTIATING' });
  const [first] = (await crm.listCreators({ listId: bigId, perPage: 1 })).data.items;
  await crm.updateContact({ contactId: first?.id as string, notes: HOSTILE, proposedRate: 450 });
}, 60_000);

afterAll(async () => {
  await h.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The path printed after "File saved:" in the shell's output. */
const savedPath = (out: string) => /^File saved: (.+\.csv)$/m.exec(out)?.[1];

const since = (from: number) => h.requests().slice(from);

/** A body as the service sends it, read straight from the sandbox (not through Scout). */
async function rawBody(path: string): Promise<{ message: string; response: Record<string, unknown> }> {
  const answer = await fetch(`${h.sandbox.url}${path}`, { headers: { 'x-ty-api-key': TEST_KEY } });
  return (await answer.json()) as { message: string; response: Record<string, unknown> };
}

/** The next answers of the service, in order: the team's lists as they are, then each body of `pages`. */
async function serveNext(pages: readonly unknown[]): Promise<void> {
  const lists = await rawBody('/api/v2/crm/lists');
  for (const body of [lists, ...pages]) {
    h.sandbox.injectFaults(TEST_KEY, { kind: 'error-shape', status: 200, body });
  }
}

/** The first contacts of the big list, as the service sends them. */
async function firstContacts(count: number): Promise<Record<string, unknown>[]> {
  const body = await rawBody(`/api/v2/crm/lists/${bigId}/creators?per_page=${count}`);
  return body.response.data as Record<string, unknown>[];
}

/** A contacts page body. */
const contactsPage = (data: readonly unknown[], pagination: Record<string, unknown>) => ({
  message: 'OK',
  response: { data, per_page: EXPORT_PAGE_SIZE, ...pagination },
});
const creatorReads = (from: number) => since(from).filter((r) => r.path.endsWith('/creators'));

describe('list export in the terminal', () => {
  it('saves every contact of a list bigger than one service page, with progress, and prints the path', async () => {
    const from = h.requests().length;
    const out = await h.type(`list export "${BIG}"`);
    expect(out).toContain(`Exporting ${BIG}: 500 of 650 contacts read…`);
    expect(out).toContain(`${BIG} · 650 contacts exported to Export-Big-Test-`);
    const path = savedPath(out) as string;
    expect(path.startsWith(dir)).toBe(true);

    const reads = creatorReads(from);
    expect(reads.map((r) => [r.query.page, r.query.per_page])).toEqual([
      ['1', '500'],
      ['2', '500'],
    ]);
    const rows = parseCsv(await readFile(path));
    expect(rows).toHaveLength(BIG_SIZE);
    expectRowsMatch(rows, await allContacts(h.app.service, bigId));
    const hostile = rows.find((row) => row.Notes?.includes('cmd|'));
    expect(hostile?.Notes).toBe(`'${HOSTILE}`);
    expect(hostile?.['Proposed rate']).toBe('450');
  });

  it('writes a long handle whole, and its profile URL', async () => {
    const [first, second] = await firstContacts(2);
    const long = `${'a'.repeat(60)}_${'b'.repeat(60)}`;
    const contacts = [{ ...first, handle: `@${long}` }, second];
    await serveNext([contactsPage(contacts, { page: 1, next_page: 0, total_pages: 1, total: 2 })]);
    const out = await h.type(`list export "${BIG}"`);
    expect(out).toContain(`${BIG} · 2 contacts exported to`);
    const rows = parseCsv(await readFile(savedPath(out) as string));
    expectRowsMatch(rows, contacts as unknown as CrmContact[]);
    const row = rows.find((r) => r['Contact ID'] === first?.id);
    expect(row?.Handle).toBe(long);
    expect(row?.['Profile URL']).toMatch(new RegExp(`^https://.*${long}/?$`));
  });

  it("puts the columns people read first, in order, then the service's own under readable labels", async () => {
    const out = await h.type(`list export "${BIG}"`);
    const [header, ...rows] = csvTable(await readFile(savedPath(out) as string));
    expect(header).toEqual([
      ...LEAD_COLUMNS,
      'Contact ID',
      'List ID',
      'Creator ID',
      'First contact',
      'Replied',
      'Active',
      'Updated',
      'Creator main category',
      'Creator avatar URL',
    ]);
    expect(rows).toHaveLength(BIG_SIZE);
    // Who the creator is reads first, as chat shows it.
    const sample = parseCsv(await readFile(savedPath(out) as string))[0] as Record<string, string>;
    expect(sample.Name).not.toBe('');
    expect(sample.Handle).toMatch(/^[^@]/);
    expect(sample.Platform).toMatch(/^(TikTok|Instagram|YouTube|X \(Twitter\)|LinkedIn|Twitch)$/);
    expect(sample['Engagement (%)']).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(sample['Engagement (%)'])).toBeGreaterThan(0.01);
  });

  it('writes every timestamp with its zone, and no value of a contact in two columns', async () => {
    const out = await h.type(`list export "${BIG}"`);
    const [header = [], ...rows] = csvTable(await readFile(savedPath(out) as string));
    expect(new Set(header).size).toBe(header.length);
    const at = (label: string) => header.indexOf(label);
    const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
    for (const row of rows) {
      expect(row[at('Added')]).toMatch(zoned);
      expect(row[at('Updated')]).toMatch(zoned);
      // The handle, the email and the ids are each in one column only (the service sends the handle three times).
      for (const label of ['Handle', 'Email', 'Creator ID', 'Contact ID']) {
        const value = (row[at(label)] ?? '').toLowerCase();
        if (value === '') continue;
        const holding = row.filter((cell) => cell.replace(/^'?@+/, '').toLowerCase() === value);
        expect(holding, `${label} ${value}`).toHaveLength(1);
      }
    }
  });

  it('reads a status in words, engagement as chat shows it, dates with their zone, and leaves out repeats', async () => {
    const [first, second] = await firstContacts(2);
    const one = first as Record<string, unknown>;
    const two = second as Record<string, unknown>;
    const handle = String(one.handle);
    const contacts = [
      {
        ...one,
        status: 'NEGOTIATING',
        date_created: '2026-11-28T10:42:00',
        last_contact_date: '2026-11-28T12:42:00+02:00',
        first_contact_date: '2026-11-20',
        response_date: 'soon',
        // What the service repeats: the handle (with its "@", in other letter case), the email and the creator id.
        instagram_handle: `@${handle.toUpperCase()}`,
        campaign_code: null,
        influencer: {
          ...(one.influencer as object),
          handle: `@${handle}`,
          email: one.contact_email,
          user_id: one.user_id,
          engagement_rate: 0.0369,
        },
      },
      {
        ...two,
        status: 'ON_HOLD',
        instagram_handle: null,
        campaign_code: 'SPRING-7',
        influencer: { ...(two.influencer as object), engagement_rate: 0.0005 },
      },
    ];
    await serveNext([contactsPage(contacts, { page: 1, next_page: 0, total_pages: 1, total: 2 })]);
    const out = await h.type(`list export "${BIG}"`);
    const bytes = await readFile(savedPath(out) as string);
    const [header = []] = csvTable(bytes);
    expect(header).not.toContain('Instagram handle');
    expect(header).not.toContain('Creator handle');
    expect(header).not.toContain('Creator email');
    expect(header).not.toContain('Creator user ID');
    // A field the service sent beyond the contract, under a readable label, after the contract's own.
    expect(header.indexOf('Campaign code')).toBeGreaterThan(header.indexOf('Updated'));
    const [a, b] = parseCsv(bytes);
    expect(a).toMatchObject({
      Handle: handle,
      Status: 'Negotiating',
      'Engagement (%)': '3.7',
      Added: '2026-11-28T10:42:00Z',
      'Last contact': '2026-11-28T10:42:00Z',
      'First contact': '2026-11-20',
      Replied: 'soon',
      'Campaign code': '',
    });
    expect(b).toMatchObject({ Status: 'On hold', 'Engagement (%)': '0.05', 'Campaign code': 'SPRING-7' });
  });

  it('stops at the last page the service names, even when next_page goes on', async () => {
    const contacts = await firstContacts(2);
    await serveNext([contactsPage(contacts, { page: 1, next_page: 2, total_pages: 1, total: 2 })]);
    const from = h.requests().length;
    const out = await h.type(`list export "${BIG}"`);
    expect(creatorReads(from)).toHaveLength(1);
    expect(out).toContain(`${BIG} · 2 contacts exported to`);
    expect(out).not.toContain('The file holds the first');
    expect(parseCsv(await readFile(savedPath(out) as string))).toHaveLength(2);
  });

  it('stops when a page brings no contact not read already, without a false warning', async () => {
    const contacts = await firstContacts(2);
    // No total_pages, and a next page that only repeats the first.
    const page = contactsPage(contacts, { page: 1, next_page: 2 });
    await serveNext([page, page]);
    const from = h.requests().length;
    const out = await h.type(`list export "${BIG}"`);
    expect(creatorReads(from)).toHaveLength(2);
    expect(out).toContain(`${BIG} · 2 contacts exported to`);
    expect(out).not.toContain('The file holds the first');
    expect(parseCsv(await readFile(savedPath(out) as string))).toHaveLength(2);
  });

  it('exports one status only, named in the file, asking the service for that status', async () => {
    const from = h.requests().length;
    const out = await h.type(`list export "${BIG.toLowerCase()}" status:negotiating`);
    expect(out).toContain('150 contacts with status Negotiating exported to Export-Big-Test-negotiating-');
    expect(creatorReads(from).map((r) => r.query.status)).toEqual(['NEGOTIATING']);
    const rows = parseCsv(await readFile(savedPath(out) as string));
    expect(new Set(rows.map((row) => row.Status))).toEqual(new Set(['Negotiating']));
    expectRowsMatch(rows, await allContacts(h.app.service, bigId, 'NEGOTIATING'));
  });

  it('never overwrites an earlier export: a second one of the same day gets its own name', async () => {
    const first = savedPath(await h.type(`list export "${BIG}" status:negotiating`));
    const second = savedPath(await h.type(`list export "${BIG}" status:negotiating`));
    expect(second).not.toBe(first);
    expect(second).toMatch(/-\d+\.csv$/);
  });

  it('refuses an unknown status with the allowed ones, sending nothing', async () => {
    const from = h.requests().length;
    const out = await h.type(`list export "${BIG}" status:shipped`);
    expect(out).toContain(
      'status cannot be "shipped". Allowed: To outreach, Outreached, Negotiating, Working, Done, Cancelled.',
    );
    expect(out).toContain('/scout list export <list> [status:negotiating]');
    expect(since(from)).toEqual([]);
  });

  it('says an empty list has nothing to export, and writes no file', async () => {
    const out = await h.type(`list export "${EMPTY}"`);
    expect(out).toContain(`${EMPTY} has no contacts: there is nothing to export.`);
    expect(savedPath(out)).toBeUndefined();
  });

  it('names an unknown list with the lists there are', async () => {
    const out = await h.type('list export "No Such List"');
    expect(out).toContain('There is no list "No Such List"');
    expect(out).toContain(BIG);
  });

  it('is listed in help, free', async () => {
    const out = await h.type('help list export');
    expect(out).toContain('/scout list export');
    expect(out).toContain('free with an active CRM subscription');
  });
});
