import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { clientFor, startSandbox } from '../fixture.js';

interface ListView {
  id: string;
  name: string;
  description: string;
  team_id: string;
  active: boolean;
  contact_count: number;
  to_outreach_count: number;
  website_id: string;
  budget: number;
  date_created: string;
}
interface ContactView {
  id: string;
  list_id: string;
  user_id: string;
  status: string;
  contact_email: string;
  proposed_rate: number | null;
  agreed_rate: number | null;
  notes: string;
  active: boolean;
  influencer: { user_id: string } | null;
}
interface Envelope<T> {
  message: string;
  response: T;
}
type AddResult = Envelope<{
  data: ContactView[];
  requested_count: number;
  processed_count: number;
  added_count: number;
  created_count: number;
  reactivated_count: number;
  skipped_duplicate_count: number;
  skipped_invalid_count: number;
}>;
type Page<T> = Envelope<{
  data: T[];
  page: number;
  per_page: number;
  next_page: number;
  total_pages: number;
  total: number;
}>;

let sandbox: Sandbox;
const api = () => clientFor(sandbox, 'key-a');
const other = () => clientFor(sandbox, 'key-b');
let creatorIds: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimitPerMinute: 10_000,
    keys: [
      { key: 'key-a', teamId: 'team-a', credits: 0 },
      { key: 'key-b', teamId: 'team-b', credits: 0 },
      { key: 'lapsed', teamId: 'team-a', credits: 0, subscriptionActive: false },
    ],
  });
  const search = await api().get<Envelope<{ data: string[] }>>('/api/v2/creators/search', { perPage: 20 });
  creatorIds = search.json.response.data;
});
afterAll(async () => {
  await sandbox.stop();
});

async function createList(name = 'Test list'): Promise<ListView> {
  const answer = await api().post<Envelope<ListView>>('/api/v2/crm/lists', {
    name,
    websiteId: 'web_1',
    description: 'for tests',
    budget: 1500,
  });
  expect(answer.status).toBe(200);
  return answer.json.response;
}

describe('CRM lists', () => {
  it('lists the seeded active lists of the team with counters', async () => {
    const answer = await api().get<Envelope<{ data: ListView[]; total: number }>>('/api/v2/crm/lists');
    expect(answer.status).toBe(200);
    const { data, total } = answer.json.response;
    expect(total).toBe(data.length);
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(data.every((l) => l.active && l.team_id === 'team-a')).toBe(true);
    expect(data.some((l) => l.contact_count > 0 && l.to_outreach_count <= l.contact_count)).toBe(true);
    expect(data[0]?.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/);
  });

  it('creates, gets and updates a list', async () => {
    const list = await createList('Launch');
    expect(list).toMatchObject({
      name: 'Launch',
      website_id: 'web_1',
      budget: 1500,
      contact_count: 0,
      active: true,
    });
    const got = await api().get<Envelope<ListView>>(`/api/v2/crm/lists/${list.id}`);
    expect(got.json.response.id).toBe(list.id);
    const patched = await api().patch<Envelope<ListView>>(`/api/v2/crm/lists/${list.id}`, {
      description: 'new',
    });
    expect(patched.json.response).toMatchObject({ name: 'Launch', description: 'new' });
    const all = await api().get<Envelope<{ data: ListView[] }>>('/api/v2/crm/lists');
    expect(all.json.response.data.map((l) => l.id)).toContain(list.id);
  });

  it('validates list input with shape B', async () => {
    const noName = await api().post('/api/v2/crm/lists', { description: 'x' });
    expect(noName.status).toBe(422);
    expect(noName.json).toEqual({ detail: expect.stringContaining('name') });
    const list = await createList();
    expect((await api().patch(`/api/v2/crm/lists/${list.id}`, {})).status).toBe(422);
    const missing = await api().get('/api/v2/crm/lists/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ detail: expect.any(String) });
  });
});

describe('CRM contacts', () => {
  it('adds creators with counters, case-insensitive status stored upper-case, and skips duplicates and unknown ids', async () => {
    const list = await createList();
    const [a, b] = creatorIds as [string, string];
    const answer = await api().post<AddResult>(`/api/v2/crm/lists/${list.id}/creators`, {
      userIds: [a, b, a, 'instagram_0'],
      status: 'outreached',
      notes: 'batch',
    });
    expect(answer.status).toBe(200);
    expect(answer.json.response).toMatchObject({
      requested_count: 4,
      processed_count: 3,
      added_count: 2,
      created_count: 2,
      reactivated_count: 0,
      skipped_duplicate_count: 1,
      skipped_invalid_count: 1,
    });
    expect(answer.json.response.data.map((c) => [c.user_id, c.status, c.notes])).toEqual([
      [a, 'OUTREACHED', 'batch'],
      [b, 'OUTREACHED', 'batch'],
    ]);
    expect(answer.json.response.data[0]?.influencer?.user_id).toBe(a);
    const again = await api().post<AddResult>(`/api/v2/crm/lists/${list.id}/creators`, { userIds: [a] });
    expect(again.json.response).toMatchObject({ added_count: 0, skipped_duplicate_count: 1 });
    const counted = await api().get<Envelope<ListView>>(`/api/v2/crm/lists/${list.id}`);
    expect(counted.json.response).toMatchObject({ contact_count: 2, to_outreach_count: 0 });
  });

  it('accepts integer ids for numeric creator ids', async () => {
    const list = await createList();
    const search = await api().get<Envelope<{ data: string[] }>>('/api/v2/creators/search', {
      source: 'instagram',
      perPage: 1,
    });
    const numeric = search.json.response.data[0] as string;
    const digits = Number(numeric.replace('instagram_', ''));
    expect(Number.isSafeInteger(digits)).toBe(true);
    const answer = await api().post<AddResult>(`/api/v2/crm/lists/${list.id}/creators`, {
      userIds: [digits],
    });
    expect(answer.json.response.data.map((c) => c.user_id)).toEqual([numeric]);
  });

  it('enforces single-creator-only fields, the id bounds and valid statuses', async () => {
    const list = await createList();
    const path = `/api/v2/crm/lists/${list.id}/creators`;
    const [a, b] = creatorIds as [string, string];
    for (const field of ['contactEmail', 'proposedRate', 'instagramHandle', 'tiktokHandle']) {
      const value = field === 'proposedRate' ? 100 : 'x@example.com';
      const answer = await api().post(path, { userIds: [a, b], [field]: value });
      expect(answer.status).toBe(422);
      expect(answer.json).toEqual({ detail: expect.stringContaining(field) });
    }
    expect((await api().post(path, { userIds: [a], proposedRate: -1 })).status).toBe(422);
    expect((await api().post(path, { userIds: [] })).status).toBe(422);
    expect((await api().post(path, { userIds: Array.from({ length: 501 }, (_, i) => `x${i}`) })).status).toBe(
      422,
    );
    expect((await api().post(path, { userIds: [a], status: 'MAYBE' })).status).toBe(422);
    const single = await api().post<AddResult>(path, {
      userIds: [a],
      contactEmail: 'deal@example.com',
      proposedRate: 250,
      status: 'Negotiating',
    });
    expect(single.json.response.data[0]).toMatchObject({
      contact_email: 'deal@example.com',
      proposed_rate: 250,
      status: 'NEGOTIATING',
    });
  });

  it('lists creators of a list with paging (per_page or limit) and a case-insensitive status filter', async () => {
    const list = await createList();
    const path = `/api/v2/crm/lists/${list.id}/creators`;
    await api().post(path, { userIds: creatorIds.slice(0, 5), status: 'TO_OUTREACH' });
    await api().post(path, { userIds: creatorIds.slice(5, 8), status: 'working' });
    const seen: string[] = [];
    let page = 1;
    while (page !== 0) {
      const answer = await api().get<Page<ContactView>>(path, { page, per_page: 3 });
      expect(answer.json.response).toMatchObject({ page, per_page: 3, total: 8, total_pages: 3 });
      seen.push(...answer.json.response.data.map((c) => c.user_id));
      page = answer.json.response.next_page;
    }
    expect(new Set(seen)).toEqual(new Set(creatorIds.slice(0, 8)));
    const working = await api().get<Page<ContactView>>(path, { status: 'Working', limit: 2 });
    expect(working.json.response).toMatchObject({ per_page: 2, total: 3, next_page: 2 });
    expect(working.json.response.data.every((c) => c.status === 'WORKING')).toBe(true);
    expect((await api().get(path, { per_page: 501 })).status).toBe(422);
    expect((await api().get(path, { page: 0 })).status).toBe(422);
    expect((await api().get(path, { status: 'LOST' })).status).toBe(422);
  });

  it('checks membership, removes softly and counts a re-add as a reactivation', async () => {
    const list = await createList();
    const path = `/api/v2/crm/lists/${list.id}/creators`;
    const [a, b] = creatorIds as [string, string];
    await api().post(path, { userIds: [a], status: 'DONE' });
    const check = await api().post<
      Envelope<{ data: { user_id: string; exists: boolean; status: string | null }[]; total: number }>
    >(`${path}/check`, { userIds: [a, b] });
    expect(check.json.response.total).toBe(2);
    expect(check.json.response.data.map((e) => [e.user_id, e.exists, e.status])).toEqual([
      [a, true, 'DONE'],
      [b, false, null],
    ]);
    const removed = await api().delete(`${path}/${a}`);
    expect(removed.json).toEqual({
      message: 'OK',
      response: { list_id: list.id, user_id: a, removed: true },
    });
    expect((await api().delete(`${path}/${a}`)).status).toBe(404);
    const after = await api().post<Envelope<{ data: { exists: boolean }[] }>>(`${path}/check`, {
      userIds: [a],
    });
    expect(after.json.response.data[0]?.exists).toBe(false);
    const back = await api().post<AddResult>(path, { userIds: [a] });
    expect(back.json.response).toMatchObject({ reactivated_count: 1, created_count: 0, added_count: 1 });
    expect(back.json.response.data[0]?.status).toBe('TO_OUTREACH');
  });

  it('updates a contact status and deal details', async () => {
    const list = await createList();
    const added = await api().post<AddResult>(`/api/v2/crm/lists/${list.id}/creators`, {
      userIds: [creatorIds[0]],
    });
    const contact = added.json.response.data[0] as ContactView;
    const answer = await api().patch<Envelope<ContactView & { first_contact_date: string | null }>>(
      `/api/v2/crm/contacts/${contact.id}`,
      {
        status: 'outreached',
        notes: 'sent DM',
        proposedRate: 300,
        agreedRate: 280,
        contentDeliverables: '1 reel',
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.json.response).toMatchObject({
      id: contact.id,
      status: 'OUTREACHED',
      notes: 'sent DM',
      proposed_rate: 300,
      agreed_rate: 280,
      content_deliverables: '1 reel',
    });
    expect(answer.json.response.first_contact_date).not.toBeNull();
    expect((await api().patch(`/api/v2/crm/contacts/${contact.id}`, { status: 'nope' })).status).toBe(422);
    expect((await api().patch(`/api/v2/crm/contacts/${contact.id}`, { color: 'red' })).status).toBe(422);
    expect((await api().patch('/api/v2/crm/contacts/unknown', { notes: 'x' })).status).toBe(404);
  });
});

describe('CRM scoping and subscription', () => {
  it('hides a team lists and contacts from another team', async () => {
    const list = await createList('Private');
    const added = await api().post<AddResult>(`/api/v2/crm/lists/${list.id}/creators`, {
      userIds: [creatorIds[0]],
    });
    const contactId = added.json.response.data[0]?.id as string;
    const theirs = await other().get<Envelope<{ data: ListView[] }>>('/api/v2/crm/lists');
    expect(theirs.json.response.data.every((l) => l.team_id === 'team-b')).toBe(true);
    expect(theirs.json.response.data.map((l) => l.id)).not.toContain(list.id);
    expect((await other().get(`/api/v2/crm/lists/${list.id}`)).status).toBe(404);
    expect((await other().patch(`/api/v2/crm/lists/${list.id}`, { name: 'mine' })).status).toBe(404);
    expect((await other().get(`/api/v2/crm/lists/${list.id}/creators`)).status).toBe(404);
    expect(
      (await other().post(`/api/v2/crm/lists/${list.id}/creators`, { userIds: [creatorIds[1]] })).status,
    ).toBe(404);
    expect((await other().delete(`/api/v2/crm/lists/${list.id}/creators/${creatorIds[0]}`)).status).toBe(404);
    expect((await other().patch(`/api/v2/crm/contacts/${contactId}`, { notes: 'x' })).status).toBe(404);
    expect((await api().get(`/api/v2/crm/lists/${list.id}`)).json).toMatchObject({
      response: { name: 'Private' },
    });
  });

  it('answers 403 shape B to a key without an active subscription, and CRM costs no credits', async () => {
    const lapsed = await clientFor(sandbox, 'lapsed').get('/api/v2/crm/lists');
    expect(lapsed.status).toBe(403);
    expect(lapsed.json).toEqual({ detail: expect.stringContaining('subscription') });
    expect(sandbox.credits('key-a')).toBe(0);
  });
});
