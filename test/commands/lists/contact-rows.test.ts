/** A list's contacts as a table: who each creator is, statuses in words, numbers kept for sorting. */
import { describe, expect, it } from 'vitest';
import { renderSlackMessages } from '../../../src/adapters/slack/render.js';
import { contactsTable, creatorLabel } from '../../../src/commands/lists/contact-rows.js';
import type { CrmContact } from '../../../src/core/service/index.js';
import { reply, TABLE_ROWS_MAX } from '../../../src/core/ui/index.js';

const contact = (n: number, extra: Partial<CrmContact> = {}): CrmContact =>
  ({
    id: `c${n}`,
    user_id: `tiktok_${n}`,
    handle: `creator${n}`,
    status: 'NEGOTIATING',
    influencer: { nickname: `Creator ${n}`, followers: 12_345 * n, engagement_rate: 0.0369 },
    ...extra,
  }) as CrmContact;

describe('contactsTable', () => {
  it('names the creator by handle and name, else either, else the creator id', () => {
    expect(creatorLabel(contact(1))).toBe('@creator1 · Creator 1');
    expect(creatorLabel(contact(2, { handle: null, influencer: { handle: '@fromrecord' } }))).toBe(
      '@fromrecord',
    );
    expect(creatorLabel(contact(3, { handle: '', influencer: { nickname: 'Only Name' } }))).toBe('Only Name');
    expect(creatorLabel(contact(4, { handle: null, influencer: null }))).toBe('tiktok_4');
  });

  it('shows statuses in words and keeps the number behind each formatted one; rates only where some contact has one', () => {
    const plain = contactsTable('Spring', [contact(1), contact(2, { status: 'TO_OUTREACH' })]);
    expect(plain.columns.map((c) => c.label)).toEqual([
      'Creator',
      'Status',
      'Followers',
      'Engagement (%)',
      'Last contact',
    ]);
    const withRates = contactsTable('Spring', [
      contact(1, { agreed_rate: 1500, last_contact_date: '2026-11-28T10:42:00' }),
      contact(2, { status: 'TO_OUTREACH', proposed_rate: 250.5 }),
    ]);
    expect(withRates.columns.map((c) => [c.label, c.align])).toEqual([
      ['Creator', 'left'],
      ['Status', 'left'],
      ['Followers', 'right'],
      ['Engagement (%)', 'right'],
      ['Proposed rate', 'right'],
      ['Agreed rate', 'right'],
      ['Last contact', 'left'],
    ]);
    expect(withRates.rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['@creator1 · Creator 1', 'Negotiating', '12.3K', '3.7', '—', '1,500', '2026-11-28'],
      ['@creator2 · Creator 2', 'To outreach', '24.7K', '3.7', '250.5', '—', '—'],
    ]);
    expect(withRates.rows.map((row) => row.map((cell) => cell.number))).toEqual([
      [null, null, 12_345, 3.69, null, 1500, null],
      [null, null, 24_690, 3.69, 250.5, null, null],
    ]);
  });

  it('keeps 100 contacts of long names and every fact within what one Slack data table holds', () => {
    const long = 'x'.repeat(60);
    const contacts = Array.from({ length: TABLE_ROWS_MAX }, (_, n) =>
      contact(n, {
        handle: `${long}${n}`,
        status: 'TO_OUTREACH',
        proposed_rate: 123_456.78,
        agreed_rate: 123_456.78,
        last_contact_date: '2026-11-28T10:42:00',
        influencer: { nickname: long, followers: 123_456_789, engagement_rate: 0.123456 },
      }),
    );
    const table = contactsTable('Contacts', contacts);
    expect(table.rows.every((row) => (row[0]?.text.length ?? 0) <= 40)).toBe(true);
    const [message] = renderSlackMessages(reply([table]));
    const blocks = (message?.blocks ?? []) as unknown as Array<{ type: string; rows?: unknown[] }>;
    expect(blocks.find((b) => b.type === 'data_table')?.rows).toHaveLength(1 + TABLE_ROWS_MAX);
    expect(JSON.stringify(blocks)).not.toContain('more not shown');
  });
});
