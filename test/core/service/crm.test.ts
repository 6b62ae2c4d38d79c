import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, ServiceInputError } from '../../../src/core/service/errors.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('crm', () => {
  let h: Harness;
  let ids: string[];
  let listId: string;
  beforeAll(async () => {
    h = await startHarness();
    ids = (await h.client.creators.search({ perPage: 4 })).data.items;
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('creates, reads, renames and lists a list, for free', async () => {
    const created = await h.client.crm.createList({ name: 'Spring launch', budget: 500, description: 'Q2' });
    listId = created.data.id;
    expect(created.data.name).toBe('Spring launch');
    expect(created.data.budget).toBe(500);
    expect(created.meta.cost).toBe(0);
    expect(last()?.body).toEqual({ name: 'Spring launch', budget: 500, description: 'Q2' });

    const read = await h.client.crm.getList({ listId });
    expect(read.data.id).toBe(listId);
    expect(read.data.active).toBe(true);

    const renamed = await h.client.crm.updateList({ listId, name: 'Summer launch' });
    expect(renamed.data.name).toBe('Summer launch');
    expect(last()?.method).toBe('PATCH');
    expect(last()?.body).toEqual({ name: 'Summer launch' });

    const { data } = await h.client.crm.listLists();
    expect(data.lists.map((l) => l.id)).toContain(listId);
    expect(data.total).toBe(data.lists.length);
  });

  it('adds creators with an upper-cased status and reports the counters', async () => {
    const { data } = await h.client.crm.addCreators({
      listId,
      userIds: ids.slice(0, 3),
      status: 'outreached',
    });
    expect(last()?.body).toEqual({ userIds: ids.slice(0, 3), status: 'OUTREACHED' });
    expect(data.contacts).toHaveLength(3);
    for (const contact of data.contacts) expect(contact.status).toBe('OUTREACHED');
    expect(data.requested_count).toBe(3);
    expect(data.created_count).toBe(3);
    expect(data.skipped_duplicate_count).toBe(0);
  });

  it('adds one creator with the single-creator fields', async () => {
    const one = ids[3] as string;
    const { data } = await h.client.crm.addCreators({
      listId,
      userIds: [one],
      contactEmail: 'talent@example.com',
      proposedRate: 250,
      instagramHandle: '@creator',
      notes: 'met at the fair',
    });
    expect(data.contacts[0]?.contact_email).toBe('talent@example.com');
    expect(data.contacts[0]?.proposed_rate).toBe(250);
    expect(data.contacts[0]?.notes).toBe('met at the fair');
  });

  it('pages through the creators of a list to the end, page size sent as per_page', async () => {
    const seen: string[] = [];
    let page: number | null = 1;
    while (page !== null) {
      const result = await h.client.crm.listCreators({ listId, page, limit: 1 });
      expect(last()?.query).toEqual({ page: String(page), per_page: '1' });
      seen.push(...result.data.items.map((c) => c.user_id ?? ''));
      expect(result.data.total).toBe(4);
      page = result.data.nextPage;
    }
    expect(seen.sort()).toEqual([...ids].sort());
    const filtered = await h.client.crm.listCreators({ listId, status: 'to outreach', perPage: 500 });
    expect(last()?.query.status).toBe('TO_OUTREACH');
    expect(filtered.data.items.map((c) => c.user_id)).toEqual([ids[3]]);
  });

  it('checks membership', async () => {
    const { data } = await h.client.crm.checkCreators({
      listId,
      userIds: [ids[0] as string, 'tiktok_nobody'],
    });
    expect(data.total).toBe(2);
    expect(data.entries[0]).toMatchObject({ user_id: ids[0], exists: true, status: 'OUTREACHED' });
    expect(data.entries[1]).toMatchObject({ user_id: 'tiktok_nobody', exists: false });
  });

  it('updates a contact and removes a creator (soft), then reports the removal as not found', async () => {
    const contacts = await h.client.crm.listCreators({ listId, perPage: 10 });
    const contact = contacts.data.items.find((c) => c.user_id === ids[0]);
    const updated = await h.client.crm.updateContact({
      contactId: contact?.id ?? '',
      status: 'Negotiating',
      agreedRate: 300,
    });
    expect(updated.data.status).toBe('NEGOTIATING');
    expect(updated.data.agreed_rate).toBe(300);
    expect(last()?.body).toEqual({ status: 'NEGOTIATING', agreedRate: 300 });

    const removed = await h.client.crm.removeCreator({ listId, userId: ids[0] as string });
    expect(removed.data).toEqual({ list_id: listId, user_id: ids[0], removed: true });
    expect(last()?.method).toBe('DELETE');
    const again = (await h.client.crm
      .removeCreator({ listId, userId: ids[0] as string })
      .catch((e: unknown) => e)) as ServiceError;
    expect(again.code).toBe('NOT_FOUND');
    expect(again.serviceMessage).toContain('is not in list');
  });

  it('answers FORBIDDEN when the team has no active subscription', async () => {
    h.sandbox.addKey({ key: 'k-nosub', teamId: 't2', credits: 0, subscriptionActive: false });
    const other = h.clientWith({ apiKey: 'k-nosub' });
    const error = (await other.crm.listLists().catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('subscription');
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const cases: Array<[() => Promise<unknown>, string]> = [
      [
        () => h.client.crm.addCreators({ listId, userIds: ids.slice(0, 2), contactEmail: 'a@b.co' }),
        'contactEmail',
      ],
      [
        () => h.client.crm.addCreators({ listId, userIds: ids.slice(0, 2), tiktokHandle: 'x' }),
        'tiktokHandle',
      ],
      [
        () => h.client.crm.addCreators({ listId, userIds: Array.from({ length: 501 }, (_, i) => `id${i}`) }),
        'userIds',
      ],
      [() => h.client.crm.addCreators({ listId, userIds: ['a'], proposedRate: -1 }), 'proposedRate'],
      [() => h.client.crm.addCreators({ listId, userIds: ['a'], status: 'maybe' }), 'status'],
      [() => h.client.crm.listCreators({ listId, perPage: 501 }), 'perPage'],
      [() => h.client.crm.listCreators({ listId, limit: 5, per_page: 5 }), 'limit'],
      [() => h.client.crm.updateList({ listId }), 'name'],
      [() => h.client.crm.updateContact({ contactId: 'c1' }), 'status'],
      [() => h.client.crm.updateContact({ contactId: 'c1', contactEmail: 'nope' }), 'contactEmail'],
      [() => h.client.crm.createList({ name: '  ' }), 'name'],
      [() => h.client.crm.getList({ listId: '' }), 'listId'],
    ];
    for (const [call, field] of cases) {
      const error = (await call().catch((e: unknown) => e)) as ServiceInputError;
      expect(error).toBeInstanceOf(ServiceInputError);
      expect(error.issues.map((i) => i.field)).toContain(field);
    }
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});
