/**
 * Choosing several creators of a result page at once, through the terminal against the sandbox: `add 1,3,5 to
 * <list>`, `add 1-3`, `add 1 and 3`, the page's multi-select pressed as `13.2,13.4`, Add all N results, and Create
 * "<name>" and add for a list no one has. Each adds with one CRM request, spends no credit, adds once however
 * often it is pressed, and bad numbers are answered before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/core/clock.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

const clock = createManualClock(Date.now());
let h: Harness;

beforeAll(async () => {
  // Many searches and adds in a few seconds: a window wide enough that none waits for the rate limit.
  h = await startHarness({ clock, rateLimitPerMinute: 1000 });
});
afterAll(async () => h.stop());

/** 63 creators: a page of 5, and every result within one session. */
const SEARCH = '/scout creators category:Fitness emailExists:yes';
/** Moves past the repeat window, so the same line or press runs again. */
const later = () => clock.advance(11_000);
const since = (from: number) => h.requests().slice(from);
const calls = (from: number) => since(from).map((r) => `${r.method} ${r.path}`);
const adds = (from: number) =>
  since(from).filter((r) => r.method === 'POST' && /^\/api\/v2\/crm\/lists\/[^/]+\/creators$/.test(r.path));
const addedIds = (from: number, n = 0) =>
  ((adds(from)[n]?.body as { userIds?: string[] } | undefined)?.userIds ?? []).slice();
const members = async (listId: string) =>
  (await h.app.service.crm.listCreators({ listId, perPage: 500 })).data.items.map((c) => c.user_id).sort();
const newList = async (name: string) => (await h.app.service.crm.createList({ name })).data.id;
const listsNamed = async (name: string) =>
  (await h.app.service.crm.listLists()).data.lists.filter((list) => list.name === name);

/** What nothing spent looks like: the ledger and the service's balance as they were. */
async function wallet() {
  const spent = await h.spentToday();
  const credits = h.sandbox.credits(TEST_KEY);
  return {
    unchanged: async () => {
      expect(await h.spentToday()).toBe(spent);
      expect(h.sandbox.credits(TEST_KEY)).toBe(credits);
    },
  };
}

/** The page's creator ids in card order: the profiles bought for it (none cached yet). */
let ids: string[] = [];
const at = (...cards: number[]) => cards.map((n) => ids[n - 1] as string);

describe('creators: several at once, in words', () => {
  it('before any page, says there is nothing to press, and sends nothing', async () => {
    for (const line of [
      'add 1,3 to Spring Launch',
      'add 1-3 to Spring Launch',
      'add all results to Spring Launch',
    ]) {
      const from = h.requests().length;
      expect(await h.type(line)).toContain('The last answer here has no such button to press.');
      expect(since(from)).toHaveLength(0);
    }
  });

  it('shows Add all N results and the multi-select of the page’s creators', async () => {
    const from = h.requests().length;
    const page = await h.type(SEARCH);
    const get = since(from).find((r) => r.path === '/api/v2/creators/get');
    ids = ((get?.body as { userIds?: string[] } | undefined)?.userIds ?? []).slice();
    expect(ids).toHaveLength(5);
    expect(page).toContain('[11] Add all on this page  [12] Add all 63 results\n');
    expect(page).toContain('[13] Choose creators to add…');
    expect(page).toMatch(/ {4}13\.1 @[\w.]+ · .+\n {4}13\.2 @/);
    expect(page).toContain('13.5 @');
  });

  it('`add 1,3,5 to <list>` adds exactly those three in one free request', async () => {
    const listId = await newList('Spring Launch');
    await h.type(SEARCH);
    const from = h.requests().length;
    const purse = await wallet();
    const out = await h.type('add 1,3,5 to Spring Launch');
    expect(out).toContain('Added 3 of the 3 chosen creators to Spring Launch.');
    expect(out).toContain('Added: 3 · Reactivated: 0 · Already there: 0');
    expect(calls(from)).toEqual(['GET /api/v2/crm/lists', `POST /api/v2/crm/lists/${listId}/creators`]);
    expect(adds(from)[0]?.body).toEqual({ userIds: at(1, 3, 5), status: 'TO_OUTREACH' });
    expect(await members(listId)).toEqual(at(1, 3, 5).sort());
    await purse.unchanged();
  });

  it('`add 1-3`, `add 1 and 3`, `add the first two`: one request each, with exactly those creators', async () => {
    const cases: Array<[string, string[]]> = [
      ['add 1-3 to Range List', at(1, 2, 3)],
      ['add 2 and 4 to Pair List', at(2, 4)],
      ['add the first two to First List', at(1, 2)],
      ['add 4, 2-3 to Mixed List', at(4, 2, 3)],
    ];
    for (const [line, expected] of cases) {
      later();
      const name = line.replace(/^.* to /, '');
      const listId = await newList(name);
      await h.type(SEARCH);
      const from = h.requests().length;
      const purse = await wallet();
      const out = await h.type(line);
      expect(out).toContain(`Added ${expected.length} of the ${expected.length} chosen creators to ${name}.`);
      expect(adds(from)).toHaveLength(1);
      expect(addedIds(from)).toEqual(expected);
      expect(await members(listId)).toEqual([...expected].sort());
      await purse.unchanged();
    }
  });

  it('adds once when the same line comes twice', async () => {
    later();
    const listId = await newList('Twice Typed');
    await h.type(SEARCH);
    const from = h.requests().length;
    const first = await h.type('add 2,4 to Twice Typed');
    const second = await h.type('add 2,4 to Twice Typed');
    expect(first).toContain('Added 2 of the 2 chosen creators to Twice Typed.');
    // The repeat is answered as one: the first answer, or that it is already done.
    expect(second).toMatch(/Added 2 of the 2 chosen creators to Twice Typed\.|Already done/);
    expect(adds(from)).toHaveLength(1);
    expect(await members(listId)).toEqual(at(2, 4).sort());
  });

  it('answers numbers the page does not have, naming the mistake, before anything is sent', async () => {
    later();
    await h.type(SEARCH);
    const wrong: Array<[string, string | RegExp]> = [
      ['add 0,2 to Spring Launch', 'There is no "add" number 0 here (1-5).'],
      ['add 3-1 to Spring Launch', '3-1 counts down: write 1-3.'],
      ['add 1,9 to Spring Launch', 'There is no "add" number 9 here (1-5).'],
      ['add 1-12 to Spring Launch', 'There is no "add" number 12 here (1-5).'],
      ['add 0 to Spring Launch', /There is no .*\b0\b/],
      ['13.1,13.9', '[13] has options 1 to 5.'],
    ];
    for (const [line, message] of wrong) {
      const from = h.requests().length;
      const purse = await wallet();
      const out = await h.type(line);
      if (typeof message === 'string') expect(out.trim()).toBe(message);
      else expect(out).toMatch(message);
      expect(since(from)).toHaveLength(0);
      await purse.unchanged();
    }
  });
});

describe('creators: the multi-select', () => {
  it('chosen as 13.2,13.4, asks which list as Add to list does, then adds those two in one request', async () => {
    later();
    const listId = await newList('Chosen Ones');
    await h.type(SEARCH);
    let from = h.requests().length;
    const picker = await h.type('13.2,13.4');
    expect(picker).toContain('Add the 2 chosen creators to which list?');
    expect(adds(from)).toHaveLength(0);
    const option = /(1\.\d+) Chosen Ones/.exec(picker)?.[1];
    expect(option).toBeDefined();

    from = h.requests().length;
    const purse = await wallet();
    const added = await h.type(option as string);
    expect(added).toContain('Added 2 of the 2 chosen creators to Chosen Ones.');
    expect(adds(from)).toHaveLength(1);
    expect(addedIds(from)).toEqual(at(2, 4));
    expect(await members(listId)).toEqual(at(2, 4).sort());
    await purse.unchanged();
  });

  it('one creator chosen is that creator, by handle', async () => {
    later();
    await h.type(SEARCH);
    const picker = await h.type('13.3');
    expect(picker).toMatch(/Add @[\w.]+ to which list\?/);
  });
});

describe('creators: Add all N results', () => {
  it('adds every result the search holds in one request, buying nothing', async () => {
    later();
    const listId = await newList('Every Result');
    await h.type(SEARCH);
    const from = h.requests().length;
    const purse = await wallet();
    const out = await h.type('add all results to Every Result');
    expect(out).toContain('Added 63 of the 63 results of this search to Every Result.');
    expect(calls(from)).toEqual(['GET /api/v2/crm/lists', `POST /api/v2/crm/lists/${listId}/creators`]);
    const sent = addedIds(from);
    expect(sent).toHaveLength(63);
    expect(new Set(sent).size).toBe(63);
    expect(sent.slice(0, 5)).toEqual(ids);
    expect((await members(listId)).length).toBe(63);
    await purse.unchanged();

    // Pressed again within the window: the first answer, nothing sent.
    const again = h.requests().length;
    expect(await h.type('add all results to Every Result')).toMatch(/Added 63 of the 63|Already done/);
    expect(adds(again)).toHaveLength(0);
  });

  it('without a list, asks which one, then adds them all', async () => {
    later();
    const listId = await newList('Asked Results');
    await h.type(SEARCH);
    const picker = await h.type('12');
    expect(picker).toContain('Add the 63 results of this search to which list?');
    const option = /(1\.\d+) Asked Results/.exec(picker)?.[1];
    const from = h.requests().length;
    expect(await h.type(option as string)).toContain(
      'Added 63 of the 63 results of this search to Asked Results.',
    );
    expect(adds(from)).toHaveLength(1);
    expect((await members(listId)).length).toBe(63);
  });

  it('says "the first" when the search has more, and never sends more ids than one request takes', async () => {
    later();
    const listId = await newList('Far Page');
    // Page 110 of 5 collects 551 ids (free searches) and buys only that page's 5 profiles.
    const page = await h.type('/scout creators platform:tiktok perPage:5 page:110');
    expect(page).toContain('Add the first 500 results');
    const from = h.requests().length;
    const purse = await wallet();
    const out = await h.type('add the first 500 results to Far Page');
    expect(out).toContain('Added 500 of the first 500 results of this search to Far Page.');
    expect(adds(from)).toHaveLength(1);
    expect(addedIds(from)).toHaveLength(500);
    expect((await members(listId)).length).toBe(500);
    await purse.unchanged();
  });
});

describe('creators: a list no one has', () => {
  it('offers Create "<name>" and add; one press creates it and adds the creators, once', async () => {
    later();
    await h.type(SEARCH);
    let from = h.requests().length;
    const offer = await h.type('add 1,2 to Brand New');
    expect(offer).toContain('There is no list "Brand New".');
    expect(offer).toContain('[1] Create "Brand New" and add');
    expect(calls(from)).toEqual(['GET /api/v2/crm/lists']);
    expect(await listsNamed('Brand New')).toHaveLength(0);

    from = h.requests().length;
    const purse = await wallet();
    const made = await h.type('1');
    expect(made).toContain('Created the list Brand New.');
    expect(made).toContain('Added 2 of the 2 chosen creators to Brand New.');
    expect(calls(from).filter((c) => c === 'POST /api/v2/crm/lists')).toHaveLength(1);
    expect(adds(from)).toHaveLength(1);
    const [list] = await listsNamed('Brand New');
    expect(await members(list?.id as string)).toEqual(at(1, 2).sort());
    await purse.unchanged();

    // A double press: the first answer, nothing sent.
    from = h.requests().length;
    expect(await h.type('1')).toMatch(/Created the list Brand New\.|Already done/);
    expect(since(from)).toHaveLength(0);

    // Pressed again later: the list is there now, so it is used, not made twice.
    later();
    from = h.requests().length;
    const again = await h.type('1');
    expect(again).toContain('The list Brand New exists already');
    expect(again).toContain('All 2 chosen creators are already in Brand New: nothing changed.');
    expect(calls(from)).not.toContain('POST /api/v2/crm/lists');
    expect(await listsNamed('Brand New')).toHaveLength(1);
  });

  it('for one card and for every result too', async () => {
    later();
    await h.type(SEARCH);
    const one = await h.type('add 3 to Solo New');
    expect(one).toContain('[1] Create "Solo New" and add');
    const made = await h.type('1');
    expect(made).toMatch(/Added @[\w.]+ to Solo New\./);
    const [solo] = await listsNamed('Solo New');
    expect(await members(solo?.id as string)).toEqual(at(3));

    later();
    await h.type(SEARCH);
    const all = await h.type('add all results to Results New');
    expect(all).toContain('[1] Create "Results New" and add');
    const from = h.requests().length;
    expect(await h.type('1')).toContain('Added 63 of the 63 results of this search to Results New.');
    expect(adds(from)).toHaveLength(1);
    const [results] = await listsNamed('Results New');
    expect((await members(results?.id as string)).length).toBe(63);
  });
});
