import { describe, expect, it } from 'vitest';
import {
  CRM_STATUS_LABELS,
  contactRow,
  listRow,
  normalizeCrmStatus,
} from '../../../src/commands/lists/crm-cards.js';
import { CRM_STATUSES } from '../../../src/core/service/enums.js';
import { button } from '../../../src/core/ui/builders.js';
import { CARD_LONG_TEXT_MAX } from '../../../src/core/ui/limits.js';
import type { CardNode } from '../../../src/core/ui/model.js';
import { byLabel, LONG_HOSTILE, unsafeChars } from '../../core/ui/fixtures.js';

describe('listRow', () => {
  it('shows a list: its name, description, counts, budget and dates', () => {
    expect(
      listRow(
        {
          id: 'l1',
          name: 'Spring Launch',
          description: 'Skincare\ncreators',
          budget: 2500.5,
          contact_count: 1234,
          to_outreach_count: 0,
          start_date: null,
          end_date: '2026-09-30T00:00:00',
        },
        { actions: [button('Open', 'crm.open:l1')] },
      ),
    ).toEqual<CardNode>({
      type: 'card',
      title: 'Spring Launch',
      link: null,
      subtitle: null,
      body: ['Skincare creators'],
      image: null,
      fields: [
        { label: 'Contacts', value: '1,234', inline: true },
        { label: 'To outreach', value: '0', inline: true },
        { label: 'Budget', value: '2,500.5', inline: true },
        { label: 'Dates', value: '… → 2026-09-30', inline: true },
      ],
      footnote: null,
      actions: [{ label: 'Open', actionId: 'crm.open:l1', style: 'secondary' }],
    });
  });

  it('names a list by its id when it has no name, and dashes what is missing', () => {
    expect(listRow({ id: 'l9' }).title).toBe('l9');
    const empty = listRow({});
    expect(empty).toMatchObject({ title: 'Unnamed list', body: [], actions: [] });
    expect(byLabel(empty.fields)).toEqual({ Contacts: '—', 'To outreach': '—', Budget: '—', Dates: '—' });
  });
});

describe('contactRow', () => {
  it('shows a contact: handle, notes, status in any case, email, rates, deliverables and last contact', () => {
    const row = contactRow({
      id: 'c1',
      list_id: 'l1',
      user_id: 'tiktok_1',
      status: 'negotiating',
      contact_email: 'bob@example.com',
      handle: '@bob',
      proposed_rate: 1500,
      agreed_rate: 1250.75,
      content_deliverables: '2 videos',
      notes: 'call\nlater',
      last_contact_date: '2026-03-09T08:00:00',
    });
    expect(row).toMatchObject({ title: '@bob', body: ['Notes: call later'], link: null, image: null });
    expect(row.fields).toEqual([
      { label: 'Status', value: 'Negotiating', inline: true },
      { label: 'Email', value: 'bob@example.com', inline: true },
      { label: 'Proposed', value: '1,500', inline: true },
      { label: 'Agreed', value: '1,250.75', inline: true },
      { label: 'Deliverables', value: '2 videos', inline: true },
      { label: 'Last contact', value: '2026-03-09', inline: true },
    ]);
  });

  it('names a contact by creator id without a handle, and dashes what is missing', () => {
    expect(contactRow({ user_id: 'ig_9' }).title).toBe('ig_9');
    const empty = contactRow({});
    expect(empty).toMatchObject({ title: 'Unknown creator', body: [], actions: [] });
    expect(byLabel(empty.fields)).toEqual({
      Status: '—',
      Email: '—',
      Proposed: '—',
      Agreed: '—',
      Deliverables: '—',
      'Last contact': '—',
    });
  });

  it('caps hostile content and never shows a cut email', () => {
    const row = contactRow({
      handle: LONG_HOSTILE,
      notes: LONG_HOSTILE,
      content_deliverables: LONG_HOSTILE,
      contact_email: `${'b'.repeat(300)}@example.com`,
      status: 'archived',
    });
    for (const line of [row.title, ...row.body]) expect(unsafeChars(line, true)).toEqual([]);
    expect(row.body[0]?.length).toBeLessThanOrEqual('Notes: '.length + CARD_LONG_TEXT_MAX);
    expect(byLabel(row.fields)).toMatchObject({ Email: '—', Status: '—' });
  });
});

describe('CRM statuses', () => {
  it('knows every CRM status and nothing else', () => {
    for (const status of CRM_STATUSES) {
      expect(normalizeCrmStatus(status.toLowerCase())).toBe(status);
      expect(CRM_STATUS_LABELS[status]).toMatch(/^[A-Z]/);
    }
    expect(normalizeCrmStatus('ARCHIVED')).toBeNull();
    expect(normalizeCrmStatus(null)).toBeNull();
  });
});
