import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceInputError } from '../../../src/core/service/errors.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

describe('agent outreach data', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });
  const last = () => h.sandbox.requests(KEY).at(-1);

  it('lists projects for free', async () => {
    const credits = h.sandbox.credits(KEY);
    const { data, meta } = await h.client.agent.projects();
    expect(data.projects.length).toBeGreaterThan(0);
    for (const project of data.projects) expect(typeof project.id).toBe('string');
    expect(meta.cost).toBe(0);
    expect(h.sandbox.credits(KEY)).toBe(credits);
  });

  it('pages through messages to the end, filling mailbox_account_id from the live field', async () => {
    const seen = new Set<string>();
    let page: number | null = 1;
    let total: number | null = null;
    while (page !== null) {
      const { data } = await h.client.agent.messages({ page, perPage: 25 });
      for (const message of data.items) {
        seen.add(message.id);
        expect(message.mailbox_account_id).toBe(message.gmail_account_id ?? null);
      }
      total = data.total;
      page = data.nextPage;
    }
    expect(seen.size).toBe(total);
  });

  it('sends filters with the live names', async () => {
    const { data: all } = await h.client.agent.messages({ perPage: 1 });
    const sample = all.items[0];
    const mailbox = sample?.gmail_account_id ?? 'none';
    const { data } = await h.client.agent.messages({
      projectId: sample?.project_id ?? undefined,
      mailboxAccountId: mailbox,
      direction: 'Outbound',
      isFollowUp: false,
      email: sample?.creator_email ?? 'a@b.co',
    });
    expect(last()?.query).toEqual({
      projectId: sample?.project_id,
      gmailAccountId: mailbox,
      direction: 'outbound',
      isFollowUp: 'false',
      creatorEmail: sample?.creator_email,
    });
    for (const message of data.items) {
      expect(message.direction).toBe('outbound');
      expect(message.mailbox_account_id).toBe(mailbox);
    }
    await h.client.agent.messages({ gmailAccountId: mailbox, status: 'SENT' });
    expect(last()?.query).toEqual({ gmailAccountId: mailbox, status: 'sent' });
  });

  it('pages through contacted creators', async () => {
    const first = await h.client.agent.contactedCreators({ perPage: 2 });
    const emails = first.data.items.map((c) => c.creator_email);
    let next = first.data.nextPage;
    while (next !== null) {
      const page = await h.client.agent.contactedCreators({ perPage: 2, page: next });
      emails.push(...page.data.items.map((c) => c.creator_email));
      next = page.data.nextPage;
    }
    expect(emails).toHaveLength(first.data.total ?? -1);
    const one = await h.client.agent.contactedCreators({ creatorEmail: emails[0] ?? '' });
    expect(one.data.items.map((c) => c.creator_email)).toEqual([emails[0]]);
    expect(typeof one.data.items[0]?.sent_messages_count).toBe('number');
    expect(typeof one.data.items[0]?.has_replies).toBe('boolean');
  });

  it('rejects bad input before sending anything', async () => {
    const before = h.sandbox.requests(KEY).length;
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => h.client.agent.messages({ perPage: 101 }), 'perPage'],
      [() => h.client.agent.messages({ direction: 'sideways' }), 'direction'],
      [() => h.client.agent.messages({ creatorEmail: 'not-an-email' }), 'creatorEmail'],
      [() => h.client.agent.messages({ creatorEmail: 'a@b.co', email: 'c@d.co' }), 'email'],
      [() => h.client.agent.messages({ mailboxAccountId: 'a', gmailAccountId: 'b' }), 'gmailAccountId'],
      [() => h.client.agent.contactedCreators({ page: 0 }), 'page'],
    ];
    for (const [call, field] of cases) {
      const error = (await call().catch((e: unknown) => e)) as ServiceInputError;
      expect(error).toBeInstanceOf(ServiceInputError);
      expect(error.issues.map((i) => i.field)).toContain(field);
    }
    expect(h.sandbox.requests(KEY).length).toBe(before);
  });
});
