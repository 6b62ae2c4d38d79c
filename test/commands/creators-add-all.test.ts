/**
 * Add all on this page, through the terminal against the sandbox: one CRM add request with every creator of the
 * page shown, the service's counters in the reply, a double press that adds once, the list picker, and no credit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/core/clock.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const clock = createManualClock(Date.now());
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => h.stop());

const SEARCH = '/scout creators category:Fitness emailExists:yes';
/** Moves past the repeat window, so the same line or press runs again. */
const later = () => clock.advance(11_000);
const since = (from: number) => h.requests().slice(from);
const adds = (from: number) =>
  since(from).filter((r) => r.method === 'POST' && /^\/api\/v2\/crm\/lists\/[^/]+\/creators$/.test(r.path));
/** The ids of the profiles bought for the page just shown (the creators-get request of the search). */
const pageIds = (from: number): string[] => {
  const get = since(from).find((r) => r.path === '/api/v2/creators/get');
  return ((get?.body as { userIds?: string[] } | undefined)?.userIds ?? []).slice();
};
const members = async (listId: string) =>
  (await h.app.service.crm.listCreators({ listId, perPage: 500 })).data.items.map((c) => c.user_id).sort();

describe('creators: Add all on this page', () => {
  let listId = '';
  let ids: string[] = [];

  it('offers Add all beside the cards, and adds the whole page in one free request', async () => {
    listId = (await h.app.service.crm.createList({ name: 'Page Picks' })).data.id;
    let from = h.requests().length;
    const page = await h.type(SEARCH);
    ids = pageIds(from);
    expect(ids).toHaveLength(5);
    expect((page.match(/\[\d+\] Add to list/g) ?? []).length).toBe(5);
    expect(page).toMatch(/\[11\] Add all on this page {2}\[12\] Add all 63 results\n/);

    from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type('add all to "page picks"');
    expect(out).toContain('Added 5 of the 5 creators on this page to Page Picks.');
    expect(out).toContain('Added: 5 · Reactivated: 0 · Already there: 0');
    const [add] = adds(from);
    expect(adds(from)).toHaveLength(1);
    expect(add?.path).toBe(`/api/v2/crm/lists/${listId}/creators`);
    // Every id of the page in one request, and nothing a single-creator add alone may carry.
    expect(add?.body).toEqual({ userIds: ids, status: 'TO_OUTREACH' });
    expect(await members(listId)).toEqual([...ids].sort());
    expect(await h.spentToday()).toBe(spent);
  });

  it('a second press adds nothing new: the service gets exactly one add request', async () => {
    later();
    await h.type(SEARCH);
    const otherList = (await h.app.service.crm.createList({ name: 'Twice Pressed' })).data.id;

    const from = h.requests().length;
    const first = await h.type('add all to Twice Pressed');
    const second = await h.type('add all to Twice Pressed');
    expect(first).toContain('Added 5 of the 5 creators on this page to Twice Pressed.');
    // The repeat is answered as one: the first answer, or that it is already done.
    expect(second).toMatch(/Added 5 of the 5 creators on this page to Twice Pressed\.|Already done/);
    expect(adds(from)).toHaveLength(1);
    expect(await members(otherList)).toEqual([...ids].sort());
  });

  it('pressed again later, reports the creators already there and those reactivated', async () => {
    later();
    await h.type(SEARCH);
    let from = h.requests().length;
    const again = await h.type('add all to Page Picks');
    expect(again).toContain('All 5 creators on this page are already in Page Picks: nothing changed.');
    expect(again).toContain('Added: 0 · Reactivated: 0 · Already there: 5');
    expect(adds(from)).toHaveLength(1);

    await h.app.service.crm.removeCreator({ listId, userId: ids[2] as string });
    later();
    from = h.requests().length;
    const back = await h.type('add all to Page Picks');
    expect(back).toContain('Added 1 of the 5 creators on this page to Page Picks.');
    expect(back).toContain('Added: 1 · Reactivated: 1 · Already there: 4');
    expect(back).toContain('Reactivated creators had been removed from the list before');
    expect(adds(from)).toHaveLength(1);
    expect(await members(listId)).toEqual([...ids].sort());
  });

  it('without a list, offers the lists as Add to list does, the last one first; a choice adds the page', async () => {
    later();
    await h.type(SEARCH);
    const next = await h.type('next');
    expect(next).toContain('6-10 of');
    const fresh = (await h.app.service.crm.createList({ name: 'Second Page' })).data.id;
    let from = h.requests().length;
    const picker = await h.type('add all');
    expect(picker).toContain('Add the 5 creators on this page to which list?');
    expect(picker).toMatch(/1\.1 Page Picks — \d+ contacts \(selected\)/);
    expect(adds(from)).toHaveLength(0);
    const option = /(1\.\d+) Second Page/.exec(picker)?.[1];
    expect(option).toBeDefined();

    from = h.requests().length;
    const added = await h.type(option as string);
    expect(added).toContain('Added 5 of the 5 creators on this page to Second Page.');
    expect(adds(from)).toHaveLength(1);
    const secondPage = (adds(from)[0]?.body as { userIds?: string[] } | undefined)?.userIds ?? [];
    expect(secondPage).toHaveLength(5);
    expect(secondPage.some((id) => ids.includes(id))).toBe(false);
    expect(await members(fresh)).toEqual([...secondPage].sort());
  });

  it('keeps `add <n>` for the cards: Add all is not counted among them', async () => {
    later();
    await h.type(SEARCH);
    const from = h.requests().length;
    expect(await h.type('add 6 to Page Picks')).toMatch(/There is no .*\b6\b.*\(?1.*5/);
    expect(since(from)).toHaveLength(0);
  });
});
