/**
 * `creators search` under a daily cap: the search is free and cached profiles cost nothing, so the cap is
 * checked when profiles are bought, at what they cost, and held for searches running at the same time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { creatorsFamily } from '../../src/commands/creators.js';
import { createManualClock } from '../../src/core/clock.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
afterEach(async () => h.stop());

const clock = createManualClock('2026-03-15T12:00:00Z');
/** Moves past the repeat window, so the same line runs again. */
const later = () => clock.advance(11_000);
const purchases = (from: number) =>
  h
    .requests()
    .slice(from)
    .filter((r) => r.path === '/api/v2/creators/get');

const start = (cap: number, confirmAbove = 20) =>
  startHarness({ families: [creatorsFamily], clock, settings: { defaultDailyCap: cap, confirmAbove } });

describe('creators search under a daily cap', () => {
  it('shows a page whose profiles are all cached to a person with less than a page of credits left', async () => {
    h = await start(7);
    expect(await h.type('creators niche:yoga followers:10k-100k')).toMatch(/1-5 of/);
    expect(await h.spentToday()).toBe(5);
    later();
    const from = h.requests().length;
    const again = await h.type('creators niche:yoga followers:10k-100k');
    expect(again).toMatch(/1-5 of/);
    expect(again).not.toMatch(/daily cap/);
    expect(purchases(from)).toEqual([]);
    expect(await h.spentToday()).toBe(5);
  });

  it('refuses the profiles that would pass the cap, saying what they cost, and buys none', async () => {
    h = await start(4);
    // Two creators of the first page are already cached (one credit each): the page needs three more.
    const { data } = await h.app.service.creators.search({ mainCategory: 'Fitness', page: 1, perPage: 100 });
    for (const id of data.items.slice(0, 2)) await h.type(`creators show ${id}`);
    expect(await h.spentToday()).toBe(2);
    later();
    const from = h.requests().length;
    const refused = await h.type('creators category:Fitness');
    expect(refused).toContain('This needs up to 3 credits, and your daily cap is 4 (2 spent today)');
    expect(purchases(from)).toEqual([]);
    expect(await h.spentToday()).toBe(2);
  });

  it('asks to confirm a search above the confirmation threshold rather than refusing its ceiling', async () => {
    h = await start(7, 2);
    expect(await h.type('creators niche:yoga followers:10k-100k')).toContain('Confirm (5 credits)');
    expect(await h.type('confirm')).toMatch(/1-5 of/);
    expect(await h.spentToday()).toBe(5);
    later();
    // Its ceiling would pass the cap, but the page is cached: confirming shows it for nothing.
    expect(await h.type('creators niche:yoga followers:10k-100k')).toContain('Confirm (5 credits)');
    expect(await h.type('confirm')).toMatch(/1-5 of/);
    expect(await h.spentToday()).toBe(5);
  });

  it('says one credit in the singular when it asks to confirm or refuses', async () => {
    h = await start(2, 0);
    const { data } = await h.app.service.creators.search({ mainCategory: 'Food', page: 1, perPage: 3 });
    const [first, second, third] = data.items;
    const ask = await h.type(`creators show ${first}`);
    expect(ask).toContain('This will cost up to 1 credit. You have spent none today.');
    expect(ask).toContain('Confirm (1 credit)');
    await h.type('confirm');
    expect(await h.type(`creators show ${second}`)).toContain(
      'This will cost up to 1 credit. You have spent 1 credit today.',
    );
    await h.type('confirm');
    expect(await h.spentToday()).toBe(2);
    expect(await h.type(`creators show ${third}`)).toContain(
      'This needs up to 1 credit, and your daily cap is 2 (2 spent today).',
    );
    expect(await h.spentToday()).toBe(2);
  });

  it('holds the cap for searches running at the same time', async () => {
    h = await start(10);
    const categories = ['Fitness', 'Food', 'Travel', 'Gaming'];
    const answers = await Promise.all(
      categories.map((category) =>
        h.app.dispatcher
          .text({ actor: LOCAL_ACTOR, channelId: category, text: `creators category:${category}` })
          .then((r) => JSON.stringify(r)),
      ),
    );
    expect(answers.filter((a) => a.includes('1-5 of'))).toHaveLength(2);
    expect(answers.filter((a) => a.includes('daily cap is 10'))).toHaveLength(2);
    expect(await h.spentToday()).toBe(10);
  });
});
