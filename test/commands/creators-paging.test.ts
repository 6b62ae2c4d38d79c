import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { creatorsFamily } from '../../src/commands/creators.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// A file of its own: paging to page 21 takes some twenty requests of the client's 60 a minute.
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ families: [creatorsFamily] });
});
afterAll(async () => h.stop());

const handles = (out: string) => [...out.matchAll(/^(?:\d+\. )?@(\S+) · /gm)].map((m) => m[1]);
const since = (from: number) => h.requests().slice(from);
const paths = (from: number) => since(from).map((r) => `${r.method} ${r.path}`);

describe('creators search: collecting more ids', () => {
  it('collects the next service page only when paging past the ids collected', async () => {
    const first = await h.type('/scout creators search followers:>1k sort:followers order:desc');
    expect(first).toMatch(/— 1-5 of 100\+/);
    expect(first).toMatch(/^Page 1$/m);
    const searches = () => h.requests().filter((r) => r.path === '/api/v2/creators/search');
    const before = searches().length;
    for (let page = 2; page <= 19; page++) {
      const out = await h.type('next');
      expect(out).toMatch(new RegExp(`^Page ${page}$`, 'm'));
    }
    expect(searches()).toHaveLength(before);
    const from = h.requests().length;
    const page20 = await h.type('next');
    expect(page20).toMatch(/— 96-100 of 200\+/);
    expect(paths(from)).toEqual(['GET /api/v2/creators/search', 'POST /api/v2/creators/get']);
    expect(since(from)[0]?.query).toMatchObject({ page: '2', perPage: '100', sortBy: 'followers' });
    const page21 = await h.type('next');
    expect(page21).toMatch(/— 101-105 of 200\+/);
    expect(handles(page21)).toHaveLength(5);
  });

  it('refuses a page that would pass the daily cap, before anything is sent', async () => {
    const person = { platform: LOCAL_ACTOR.platform, workspaceId: LOCAL_ACTOR.workspaceId, userId: 'me' };
    await h.app.store.settings.setDailyCap(person, (await h.spentToday()) + 3, 'test', new Date());
    const from = h.requests().length;
    const out = await h.type('next');
    expect(out).toMatch(/cap/i);
    expect(since(from)).toHaveLength(0);
    await h.app.store.settings.setDailyCap(person, null, 'test', new Date());
    const spent = await h.spentToday();
    const fresh = await h.type('/scout creators search followers:>2k');
    expect(handles(fresh)).toHaveLength(5);
    expect((await h.spentToday()) - spent).toBe(5);
  });
});

describe('creators search: page and perPage', () => {
  // Fewest followers first: creators no earlier test has bought, so each page shown buys its own.
  const LINE = '/scout creators search followers:>1k sort:followers order:asc';
  /** The ids the service has for LINE, in its order. */
  const idsOf = async (perPage: number, page = 1) =>
    (
      await h.app.service.creators.search({
        followersMin: 1001,
        sortBy: 'followers',
        sortOrder: 'asc',
        page,
        perPage,
      })
    ).data.items;
  const bought = (from: number) =>
    since(from)
      .filter((r) => r.path === '/api/v2/creators/get')
      .flatMap((r) => (r.body as { userIds: string[] }).userIds);

  it('opens at the page asked, with perPage cards, and the pager keeps that size', async () => {
    const ids = await idsOf(100);
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type(`${LINE} page:4 perPage:2`);
    expect(out).toMatch(/— 7-8 of 100\+/);
    expect(out).toMatch(/^Page 4$/m);
    expect(handles(out)).toHaveLength(2);
    expect(bought(from)).toEqual(ids.slice(6, 8));
    expect(since(from)[0]?.query).toMatchObject({ page: '1', perPage: '100' });
    const next = await h.type('next');
    expect(next).toMatch(/— 9-10 of 100\+/);
    expect(bought(from)).toEqual(ids.slice(6, 10));
    const back = await h.type('previous');
    expect(back).toMatch(/— 7-8 of 100\+/);
    const first = await h.type('previous');
    expect(first).toMatch(/— 5-6 of 100\+/);
    expect(handles(first)).toHaveLength(2);
    expect((await h.spentToday()) - spent).toBe(bought(from).length);
  });

  it('collects the service pages before a far page, free, and buys only that page', async () => {
    const later = await idsOf(100, 2);
    const from = h.requests().length;
    const out = await h.type(`${LINE} page:51 perPage:3`);
    expect(out).toMatch(/— 151-153 of 200\+/);
    expect(paths(from)).toEqual([
      'GET /api/v2/creators/search',
      'GET /api/v2/creators/search',
      'POST /api/v2/creators/get',
    ]);
    expect(bought(from)).toEqual(later.slice(50, 53));
  });

  it('says a page past the results has nothing, buying nothing', async () => {
    // One creator a page: the service's page count is the number of creators.
    const found =
      (await h.app.service.creators.search({ mainCategory: 'Parenting', perPage: 1 })).data.totalPages ?? 0;
    expect(found).toBeGreaterThan(100);
    const past = Math.ceil(found / 5) + 1;
    expect(past).toBeLessThanOrEqual(200);
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type(`/scout creators search category:Parenting page:${past}`);
    expect(out).toContain(`There is no page ${past}: this result has ${found} creators.`);
    const searches = paths(from);
    expect(searches).toEqual(searches.map(() => 'GET /api/v2/creators/search'));
    expect(searches).toHaveLength(Math.ceil(found / 100));
    expect(await h.spentToday()).toBe(spent);
  });

  it('refuses a page size or page it cannot show before anything is sent', async () => {
    const from = h.requests().length;
    expect(await h.type(`${LINE} perPage:20`)).toMatch(
      /^Error: perPage takes a whole number from 1 to 10, not "20"\./,
    );
    expect(await h.type(`${LINE} perPage:0`)).toMatch(/^Error: perPage takes a whole number from 1 to 10/);
    expect(await h.type(`${LINE} page:201`)).toMatch(/^Error: page takes a whole number from 1 to 200/);
    expect(await h.type(`${LINE} page:0`)).toMatch(/^Error: page takes a whole number from 1 to 200/);
    expect(since(from)).toEqual([]);
  });
});
