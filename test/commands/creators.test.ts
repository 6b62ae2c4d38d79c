import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { creatorsFamily } from '../../src/commands/creators.js';
import { helpFamily } from '../../src/commands/help.js';
import { createManualClock } from '../../src/core/clock.js';
import { sql } from '../../src/core/store/sql.js';
import { renderText } from '../../src/core/ui/index.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

const DAY = 86_400_000;
const clock = createManualClock(Date.now());
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    families: [creatorsFamily, helpFamily],
    clock,
    settings: { profileTtlMs: 3 * DAY },
  });
});
afterAll(async () => h.stop());

/** The handles of the cards in a printed reply, in order. */
const handles = (out: string) => [...out.matchAll(/^(?:\d+\. )?@(\S+) · /gm)].map((m) => m[1]);
/** Requests the sandbox received since `from`. */
const since = (from: number) => h.requests().slice(from);
const paths = (from: number) =>
  since(from).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`);
const ledger = () =>
  h.app.store.db.all<{
    operation: string;
    command: string;
    credits: number;
  }>(sql`SELECT operation, command, credits FROM credit_ledger ORDER BY id`);
/** Moves past the repeat window, so the same line or press runs again. */
const later = () => clock.advance(11_000);

describe('creators search: paging and the profile cache', () => {
  let page1: string[] = [];

  it('collects 100 ids for free and buys only the 5 profiles shown', async () => {
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type('/scout creators followers:10k-100k niche:yoga');
    expect(out).toContain('Creators · followers 10,000-100,000 · niche yoga — 1-5 of');
    page1 = handles(out) as string[];
    expect(page1).toHaveLength(5);
    expect(out).toMatch(/Page 1 of \d+/);
    expect(out).toContain('Data: less than a minute old');
    expect((out.match(/Add to list/g) ?? []).length).toBe(5);
    expect((out.match(/Details/g) ?? []).length).toBe(5);
    expect(paths(from)).toEqual(['GET /api/v2/creators/search', 'POST /api/v2/creators/get']);
    const [search, get] = since(from);
    expect(search?.query).toEqual({
      followersMin: '10000',
      followersMax: '100000',
      nichesToPromote: 'yoga',
      page: '1',
      perPage: '100',
    });
    expect(get?.body).toEqual({
      userIds: [
        expect.any(String),
        expect.any(String),
        expect.any(String),
        expect.any(String),
        expect.any(String),
      ],
    });
    expect((await h.spentToday()) - spent).toBe(5);
    expect((await ledger()).at(-1)).toEqual({
      operation: 'creators.get',
      command: 'creators search',
      credits: 5,
    });
  });

  it('pages forward buying only the new page, and back for free, in place', async () => {
    let from = h.requests().length;
    let spent = await h.spentToday();
    const next = await h.type('next');
    expect(next).toMatch(/— 6-10 of \d+/);
    expect(next).toMatch(/Page 2 of \d+/);
    expect(next).toContain('‹ Previous');
    const page2 = handles(next);
    expect(page2).toHaveLength(5);
    expect(page2.some((handle) => page1.includes(handle as string))).toBe(false);
    expect(paths(from)).toEqual(['POST /api/v2/creators/get']);
    expect((await h.spentToday()) - spent).toBe(5);
    expect((await ledger()).at(-1)).toEqual({
      operation: 'creators.get',
      command: 'creators search',
      credits: 5,
    });

    from = h.requests().length;
    spent = await h.spentToday();
    const back = await h.type('previous');
    expect(handles(back)).toEqual(page1);
    expect(since(from)).toHaveLength(0);
    expect(await h.spentToday()).toBe(spent);
  });

  it('shows the data age from the cache, and buys again once the TTL has passed', async () => {
    clock.advance(2 * DAY);
    let from = h.requests().length;
    let spent = await h.spentToday();
    const aged = await h.type('next');
    expect(aged).toContain('Data: 2 days old');
    expect(since(from)).toHaveLength(0);
    expect(await h.spentToday()).toBe(spent);

    clock.advance(2 * DAY);
    from = h.requests().length;
    spent = await h.spentToday();
    const fresh = await h.type('previous');
    expect(handles(fresh)).toEqual(page1);
    expect(fresh).toContain('Data: less than a minute old');
    expect(paths(from)).toEqual(['POST /api/v2/creators/get']);
    expect((await h.spentToday()) - spent).toBe(5);
  });

  it('opens Details from the cache without buying again', async () => {
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type('details 2');
    expect(out.startsWith(`@${page1[1]} · `)).toBe(true);
    for (const label of [
      'Bio:',
      'Categories:',
      'Websites:',
      'Hashtags:',
      'Cadence:',
      'Promotions',
      'Creator id:',
    ]) {
      expect(out).toContain(label);
    }
    expect(out).toMatch(/Email: (\S+@\S+|not known)/);
    expect(out).not.toContain('Details');
    expect(since(from)).toHaveLength(0);
    expect(await h.spentToday()).toBe(spent);
  });

  it('lets another person see the same creators for free', async () => {
    const other = { ...LOCAL_ACTOR, userId: 'colleague' };
    const from = h.requests().length;
    const answer = await h.app.dispatcher.text({
      actor: other,
      channelId: 'terminal',
      text: '/scout creators search niche:yoga followers:10k-100k',
    });
    expect(handles(renderText(answer).text)).toEqual(page1);
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    const today = { from: new Date(clock.now().getTime() - DAY), to: new Date(clock.now().getTime() + DAY) };
    expect(await h.app.store.ledger.spent(other, today)).toBe(0);
  });

  it('heads its results with the options as people type them, on every page', async () => {
    later();
    const out = await h.type('/scout creators search category:Fitness hasEmail:yes perPage:1');
    expect(out).toContain('Creators · category Fitness · has-email yes — 1-1 of');
    expect(await h.type('next')).toContain('Creators · category Fitness · has-email yes — 2-2 of');
  });

  it('says when nothing matches and how to loosen the filters, spending nothing', async () => {
    const from = h.requests().length;
    const spent = await h.spentToday();
    const out = await h.type('/scout creators followers:9m-10m niche:yoga,knitting category:Pets');
    expect(out).toContain('No creators match these filters');
    expect(out).toContain('Loosen or drop some of: followers, category, niche');
    expect(paths(from)).toEqual(['GET /api/v2/creators/search']);
    expect(await h.spentToday()).toBe(spent);
  });
});

describe('creators: Add to list', () => {
  let shown: string[] = [];
  let spring = '';

  it('offers the team lists, most recent first, and adds the chosen one as TO_OUTREACH', async () => {
    spring = (await h.app.service.crm.createList({ name: 'Spring Picks' })).data.id;
    later();
    const results = await h.type('/scout creators category:Fitness emailExists:yes');
    shown = handles(results) as string[];
    expect(shown).toHaveLength(5);
    let from = h.requests().length;
    const picker = await h.type('add 1');
    expect(picker).toContain(`Add @${shown[0]} to which list?`);
    expect(picker).toMatch(/1\.1 Spring Picks — 0 contacts\n/);
    expect(picker).not.toContain('(selected)');
    expect(paths(from)).toEqual(['GET /api/v2/crm/lists']);

    from = h.requests().length;
    const added = await h.type('1.1');
    expect(added).toContain(`Done: Added @${shown[0]} to Spring Picks.`);
    expect(paths(from)).toEqual(['GET /api/v2/crm/lists', 'POST /api/v2/crm/lists/:id/creators']);
    const post = since(from)[1];
    expect(post?.path).toBe(`/api/v2/crm/lists/${spring}/creators`);
    expect(post?.body).toEqual({ userIds: [expect.stringMatching(/\S/)], status: 'TO_OUTREACH' });
  });

  it('adds by list name typed with the press, and explains duplicates and unknown names', async () => {
    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    const byPrefix = await h.type('add 2 to spring');
    expect(byPrefix).toContain(`Added @${shown[1]} to Spring Picks.`);

    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    const again = await h.type('add 1 to SPRING PICKS');
    expect(again).toContain(`@${shown[0]} is already in Spring Picks: nothing changed.`);

    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    const from = h.requests().length;
    const unknown = await h.type('add 1 to Nowhere');
    expect(unknown).toMatch(/There is no list "Nowhere"\. Your lists: .*"Spring Picks"/);
    expect(paths(from)).toEqual(['GET /api/v2/crm/lists']);
  });

  it('puts the list last added to first and preselected', async () => {
    const { lists } = (await h.app.service.crm.listLists()).data;
    const seeded = lists.find((list) => list.id !== spring);
    expect(seeded).toBeDefined();
    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    const added = await h.type(`add 3 to ${seeded?.id}`);
    expect(added).toContain(`Added @${shown[2]} to ${seeded?.name}.`);
    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    const picker = await h.type('add 4');
    expect(picker).toMatch(new RegExp(`1\\.1 ${seeded?.name} — \\d+ contacts \\(selected\\)`));
    expect(picker).toMatch(/1\.2 Spring Picks/);
  });

  it('explains a reactivation of a creator removed from the list before', async () => {
    const contact = (await h.app.service.crm.listCreators({ listId: spring })).data.items.find(
      (c) => c.handle === shown[0],
    );
    expect(contact?.user_id).toBeDefined();
    await h.app.service.crm.removeCreator({ listId: spring, userId: contact?.user_id as string });
    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    const out = await h.type('add 1 to Spring Picks');
    expect(out).toContain(`Added @${shown[0]} to Spring Picks again`);
    expect(out).toContain('reactivated');
  });

  it('says how to create a list when the team has none', async () => {
    later();
    await h.type('/scout creators category:Fitness emailExists:yes');
    h.sandbox.injectFaults(TEST_KEY, {
      kind: 'error-shape',
      status: 200,
      body: { message: 'OK', response: { data: [], total: 0 } },
    });
    const out = await h.type('add 1');
    expect(out).toContain('Your team has no CRM list yet.');
    expect(out).toContain('/scout lists create name:');
  });
});
