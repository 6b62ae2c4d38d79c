/**
 * Find creator on viral post cards, through the terminal against the sandbox: a free creator search by the post's
 * username, the creator shown with Add to list and a Details button that states its cost, nothing bought until
 * Details is pressed, and a plain answer when the service knows no such creator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/core/clock.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

const clock = createManualClock(Date.now());
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => h.stop());

/** Usernames of the viral cards shown, in order. */
const usernames = (output: string) =>
  [...output.matchAll(/^(?:\d+\. )?@(\S+)$/gm)].map((m) => m[1] as string);
const since = (from: number) => h.requests().slice(from);
const paths = (from: number) => since(from).map((r) => `${r.method} ${r.path}`);
const later = () => clock.advance(11_000);

describe('viral: Find creator', () => {
  let username = '';
  let creatorId = '';

  it('puts Find creator on every card; it searches for free and buys nothing', async () => {
    const page = await h.type('/scout viral categories:Fitness');
    const shown = usernames(page);
    expect(shown).toHaveLength(5);
    expect((page.match(/\[\d\] Find creator/g) ?? []).length).toBe(5);
    username = shown[0] as string;

    const from = h.requests().length;
    const spent = await h.spentToday();
    const balance = h.sandbox.credits(TEST_KEY);
    const found = await h.type('find 1');
    // One free v2 search by the post's username: no profile bought, no credit spent.
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect(since(from)[0]?.query).toEqual({ username, perPage: '25' });
    expect(await h.spentToday()).toBe(spent);
    expect(h.sandbox.credits(TEST_KEY)).toBe(balance);
    // One hit, whose handle the search does not tell: a numbered match, not "the creator".
    expect(found).toContain(
      `The service found 1 creator whose handle matches @${username} (free search: nothing spent).`,
    );
    expect(found).toContain('Match 1 · creator id ');
    expect(found).toMatch(/\[1\] Add to list {2}\[2\] Details · 1 credit/);
    creatorId = /creator id (\S+)/.exec(found)?.[1] as string;
    expect(creatorId).toMatch(/\S/);
  });

  it('adds the creator found to a list for free', async () => {
    const list = (await h.app.service.crm.createList({ name: 'Viral Finds' })).data;
    const from = h.requests().length;
    const spent = await h.spentToday();
    const added = await h.type('add 1 to Viral Finds');
    expect(added).toContain(`Added ${creatorId} to Viral Finds.`);
    const post = since(from).find((r) => r.method === 'POST');
    expect(post?.path).toBe(`/api/v2/crm/lists/${list.id}/creators`);
    expect(post?.body).toEqual({ userIds: [creatorId], status: 'TO_OUTREACH' });
    const contacts = (await h.app.service.crm.listCreators({ listId: list.id })).data.items;
    expect(contacts.map((c) => [c.user_id, c.handle])).toEqual([[creatorId, username]]);
    expect(await h.spentToday()).toBe(spent);
  });

  it('buys the profile only when Details, which states its cost, is pressed; then Find shows it for free', async () => {
    later();
    await h.type('/scout viral categories:Fitness');
    await h.type('find 1');
    let from = h.requests().length;
    const spent = await h.spentToday();
    const details = await h.type('details 1');
    expect(paths(from)).toEqual(['POST /api/v2/creators/get']);
    expect(since(from)[0]?.body).toEqual({ userIds: [creatorId] });
    expect(details).toContain(`Creator id: ${creatorId}`);
    expect(await h.spentToday()).toBe(spent + 1);

    later();
    await h.type('/scout viral categories:Fitness');
    from = h.requests().length;
    const before = await h.spentToday();
    const cached = await h.type('find 1');
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect(cached).toContain(
      `The creator of this post, @${username} (profile already bought: nothing spent):`,
    );
    expect(cached.split('\n').some((line) => line.startsWith(`@${username} · `))).toBe(true);
    expect(cached).toMatch(/\[1\] Add to list {2}\[2\] Details\n/);
    expect(await h.spentToday()).toBe(before);
  });

  it('calls a single hit whose handle differs a match, not the creator of the post', async () => {
    later();
    await h.type('/scout viral categories:Fitness');
    const { items } = (await h.app.service.creators.search({ perPage: 5 })).data;
    const other = items.find((id) => id !== creatorId) as string;
    // The search matches handles containing the username: its one hit can be someone else entirely.
    const hit = { message: 'OK', response: { data: [other], page: 1, next_page: 0, total_pages: 1 } };
    h.sandbox.injectFaults(TEST_KEY, { kind: 'error-shape', status: 200, body: hit });
    const spent = await h.spentToday();
    const out = await h.type('find 1');
    expect(out).toContain(`The service found 1 creator whose handle matches @${username}`);
    expect(out).not.toContain(`the creator @${username}`);
    expect(out.split('\n')).not.toContain(`@${username} · creator id ${other}`);
    expect(out).toContain(`Match 1 · creator id ${other}`);
    expect(await h.spentToday()).toBe(spent);

    // Its profile bought, with another handle: still a match, shown as its own card.
    const bought = /^@(\S+) · /m.exec(await h.type(`/scout creators show ${other}`))?.[1] as string;
    expect(bought).not.toBe(username);
    later();
    await h.type('/scout viral categories:Fitness');
    h.sandbox.injectFaults(TEST_KEY, { kind: 'error-shape', status: 200, body: hit });
    const shown = await h.type('find 1');
    expect(shown).toContain(`The service found 1 creator whose handle matches @${username}`);
    expect(shown).not.toContain(`the creator @${username}`);
    expect(shown.split('\n').some((line) => line.startsWith(`@${bought} · `))).toBe(true);
  });

  it('says so when the service knows no such creator, spending nothing', async () => {
    later();
    await h.type('/scout viral categories:Fitness');
    h.sandbox.injectFaults(TEST_KEY, {
      kind: 'error-shape',
      status: 200,
      body: { message: 'OK', response: { data: [], page: 1, next_page: 0, total_pages: 0 } },
    });
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type('find 2');
    expect(out).toMatch(/The service has no creator with the handle @\S+\. Nothing was spent\./);
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect(await h.spentToday()).toBe(spent);
  });
});
