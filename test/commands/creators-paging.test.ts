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

const handles = (out: string) => [...out.matchAll(/^@(\S+) · /gm)].map((m) => m[1]);
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
