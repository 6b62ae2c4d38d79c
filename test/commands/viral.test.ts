import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsFamily } from '../../src/commands/credits.js';
import { resolveRelativeDate, viralFamily } from '../../src/commands/viral.js';
import { createManualClock } from '../../src/core/clock.js';
import { sql } from '../../src/core/store/sql.js';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

const NOW = '2026-03-15T12:00:00.000Z';

let h: Harness;
const clock = createManualClock(NOW);

interface LedgerRow {
  operation: string;
  command: string | null;
  units: number;
  credits: number;
}

const ledgerRows = (): Promise<LedgerRow[]> =>
  h.app.store.db.all<LedgerRow>(
    sql`SELECT operation, command, units, credits FROM credit_ledger ORDER BY id`,
  );

const viralRequests = () => h.requests().filter((r) => r.path === '/api/v1/viral-content');

/** Usernames of the cards shown, in order. */
const handles = (output: string) => [...output.matchAll(/^(?:\d+\. )?@(\S+)$/gm)].map((m) => m[1]);

/** Types a line and checks nothing reached the service and nothing was spent. */
async function rejected(line: string): Promise<string> {
  const before = h.requests().length;
  const spent = await h.spentToday();
  const output = await h.type(line);
  expect(h.requests().length).toBe(before);
  expect(await h.spentToday()).toBe(spent);
  expect(output).toMatch(/^Error:/);
  return output;
}

beforeAll(async () => {
  h = await startHarness({ families: [viralFamily, creditsFamily], clock });
});

afterAll(async () => {
  await h.stop();
});

describe('viral search', () => {
  it('shows five viral post cards with virality labels, paid one credit each', async () => {
    const balance = h.sandbox.credits(TEST_KEY);
    const output = await h.type('/scout viral categories:Fitness');
    expect(viralRequests().at(-1)?.body).toEqual({ categories: ['Fitness'], page: 1, pageSize: 5 });
    expect(output).toMatch(/^Viral posts 1–5 of \d+/m);
    expect(handles(output)).toHaveLength(5);
    expect(output.match(/Category: Fitness/g)).toHaveLength(5);
    expect(output.match(/Virality: [\d.]+ \((Average|Above average|Highly viral|Breakout)\)/g)).toHaveLength(
      5,
    );
    expect(output).toContain('Video: https://');
    expect(output.trimEnd().split('\n').at(-1)).toBe('5 credits');
    expect(h.sandbox.credits(TEST_KEY)).toBe(balance - 5);
    expect(await h.spentToday()).toBe(5);
    expect((await ledgerRows()).at(-1)).toEqual({
      operation: 'viral.search',
      command: 'viral search',
      units: 5,
      credits: 5,
    });
  });

  it('buys the next page, then pages back and forth over bought pages for free', async () => {
    const first = await h.type('viral categories:Food');
    const firstHandles = handles(first);
    const spent = await h.spentToday();

    const second = await h.type('next');
    expect(viralRequests().at(-1)?.body).toEqual({ categories: ['Food'], page: 2, pageSize: 5 });
    expect(second).toMatch(/^Viral posts 6–10 of/m);
    // Each card's Find creator button comes first: [1]-[5].
    expect(second).toContain('[6] ‹ Previous  [7] Next ›');
    expect(await h.spentToday()).toBe(spent + 5);
    expect((await ledgerRows()).at(-1)).toEqual({
      operation: 'viral.search',
      command: 'viral search',
      units: 5,
      credits: 5,
    });
    const secondHandles = handles(second);

    const calls = viralRequests().length;
    const back = await h.type('previous');
    expect(handles(back)).toEqual(firstHandles);
    expect(back).toContain('\n0 credits · 5 cached, free');
    const again = await h.type('6');
    expect(handles(again)).toEqual(secondHandles);
    expect(viralRequests().length).toBe(calls);
    expect(await h.spentToday()).toBe(spent + 5);
  });

  it('shows a page size of up to ten at once, a bigger one shared evenly, buying the next service page only when reached', async () => {
    const ten = await h.type('viral pageSize:7 country:Spain');
    expect(ten).toMatch(/^Viral posts 1–7 of/m);
    expect(handles(ten)).toHaveLength(7);
    const output = await h.type('viral pageSize:11 country:Germany');
    expect(viralRequests().at(-1)?.body).toEqual({ countries: ['Germany'], page: 1, pageSize: 11 });
    expect(output).toMatch(/^Viral posts 1–6 of/m);
    const calls = viralRequests().length;
    const spent = await h.spentToday();
    const rest = await h.type('next');
    expect(rest).toMatch(/^Viral posts 7–11 of/m);
    expect(handles(rest)).toHaveLength(5);
    expect(viralRequests().length).toBe(calls);
    const more = await h.type('next');
    expect(more).toMatch(/^Viral posts 12–17 of/m);
    expect(viralRequests().at(-1)?.body).toEqual({ countries: ['Germany'], page: 2, pageSize: 11 });
    expect(await h.spentToday()).toBe(spent + 11);
  });

  it('shows a shorter last page at once rather than split by the full page size', async () => {
    let out = await h.type('viral pageSize:11 category:Food');
    const total = Number(/^Viral posts 1–6 of (\d+)/m.exec(out)?.[1]);
    expect(total).toBeGreaterThan(22);
    expect(total).toBeLessThanOrEqual(32);
    for (let turn = 0; turn < 4; turn++) out = await h.type('next');
    // Two full service pages of 11 (6 and 5 each), then the rest, up to 10, on one chat page.
    expect(out).toMatch(new RegExp(`^Viral posts 23–${total} of ${total}$`, 'm'));
    expect(out).toContain('Page 5 of 5');
    expect(out).not.toContain('Next ›');
  });

  it('prices the last service page by what is left of the total, and asks no confirmation under the threshold', async () => {
    expect(await h.type('viral pageSize:25 category:Food')).toContain('This will cost up to 25 credits');
    const first = await h.type('confirm');
    const total = Number(/^Viral posts 1–9 of (\d+)/m.exec(first)?.[1]);
    expect(total).toBeGreaterThan(25);
    expect(total).toBeLessThan(45);
    await h.type('next');
    const third = await h.type('next');
    expect(third).toContain(`Next › (up to ${total - 25} credits)`);
    const spent = await h.spentToday();
    const last = await h.type('next');
    expect(last).not.toContain('This will cost');
    expect(last).toMatch(new RegExp(`^Viral posts 26–${total} of ${total}$`, 'm'));
    expect(await h.spentToday()).toBe(spent + total - 25);
  });

  it('sends every body field of the contract, typed with aliases', async () => {
    await h.type(
      'viral categories:Fitness,food countries:"United States",germany views:1k-100m virality:0.2-0.95 ' +
        'followers:>=1k from:2020-01-01 to:2030-12-31 music:a hook:e format:tutorial,POV tone:funny ' +
        'style:cinematic settings:indoor,outdoor audience:gen_z quality:high cta:follow emotion:joy topic:a ' +
        'contentCategory:a product:a brand:a palette:a face:yes hasProduct:no branded:no promo:no ' +
        'overlay:yes trending:no ai:no page:2 pageSize:3',
    );
    expect(viralRequests().at(-1)?.body).toEqual({
      categories: ['Fitness', 'Food'],
      countries: ['United States', 'Germany'],
      viewsMin: 1000,
      viewsMax: 100_000_000,
      viralityScoreMin: 0.2,
      viralityScoreMax: 0.95,
      followersMin: 1000,
      dateCreatedFrom: '2020-01-01',
      dateCreatedTo: '2030-12-31',
      musicTitle: 'a',
      hook: 'e',
      contentFormats: ['tutorial', 'pov'],
      contentTones: ['funny'],
      visualStyles: ['cinematic'],
      videoSettings: ['indoor', 'outdoor'],
      targetDemographics: ['gen_z'],
      productionQualities: ['high'],
      ctaTypes: ['follow'],
      primaryEmotions: ['joy'],
      videoTopicContains: 'a',
      contentCategoryContains: 'a',
      productCategoryContains: 'a',
      brandMentionedContains: 'a',
      colorPaletteContains: 'a',
      hasFace: true,
      hasProduct: false,
      isBranded: false,
      isPromotional: false,
      hasTextOverlay: true,
      isTrendingFormat: false,
      isAiGenerated: false,
      page: 2,
      pageSize: 3,
    });
  });

  it('converts relative dates with the clock', async () => {
    await h.type('viral since:7d to:yesterday category:Travel');
    expect(viralRequests().at(-1)?.body).toMatchObject({
      dateCreatedFrom: '2026-03-08',
      dateCreatedTo: '2026-03-14',
    });
    const now = new Date(NOW);
    expect(resolveRelativeDate('2w', now)).toBe('2026-03-01');
    expect(resolveRelativeDate('3m ago', now)).toBe('2025-12-15');
    expect(resolveRelativeDate('1y', now)).toBe('2025-03-15');
    expect(resolveRelativeDate('today', now)).toBe('2026-03-15');
    expect(resolveRelativeDate('2026-01-02', now)).toBe('2026-01-02');
  });

  it('says so when nothing matches, without a pager', async () => {
    const output = await h.type('viral views:>100b');
    expect(output).toContain('No viral posts match these filters');
    expect(output).not.toContain('Next');
  });

  it('explains a page past the end and goes back to the last page', async () => {
    const output = await h.type('viral page:999 category:Kids');
    expect(output).toMatch(/Page 999 has nothing: the results end at page \d+\./);
    const last = Number(/end at page (\d+)/.exec(output)?.[1]);
    const shown = await h.type('previous');
    expect(viralRequests().at(-1)?.body).toEqual({ categories: ['Kids'], page: last, pageSize: 5 });
    expect(shown).toContain(`Page ${last} of ${last}`);
    expect(shown).not.toContain('Next ›');
  });

  it('asks for confirmation above the threshold and spends only once confirmed', async () => {
    const calls = viralRequests().length;
    const spent = await h.spentToday();
    const question = await h.type('viral pageSize:30 virality:>0.01');
    expect(question).toContain('This will cost up to 30 credits');
    expect(viralRequests().length).toBe(calls);
    const output = await h.type('confirm');
    expect(viralRequests().at(-1)?.body).toEqual({ viralityScoreMin: 0.01, page: 1, pageSize: 30 });
    // Thirty a service page, shown ten at a time.
    expect(output).toMatch(/^Viral posts 1–10 of 2,000$/m);
    expect(output).toContain('Page 1 of 200');
    expect(await h.spentToday()).toBe(spent + 30);
  });

  it('stops at the daily cap before anything is sent', async () => {
    await h.type('credits cap me 1');
    const calls = h.requests().length;
    const output = await h.type('viral category:Pets');
    expect(output).toContain('your daily cap is 1');
    expect(h.requests().length).toBe(calls);
    await h.type('credits cap me off');
  });

  it('declares its command within the platform limits', () => {
    const [command] = viralFamily.commands;
    expect(command?.description.length).toBeLessThanOrEqual(100);
    expect(command?.examples.length).toBeGreaterThan(0);
  });

  it('rejects bad input to its author without calling the service', async () => {
    expect(await rejected('viral category:Fitnes')).toContain('Did you mean "Fitness"');
    expect(await rejected('viral virality:>2')).toContain('virality goes from 0 to 1');
    expect(await rejected('viral from:2026-13-01')).toContain(
      'Error: from must be a real calendar date (YYYY-MM-DD), or relative such as 7d, 2w or 3m.',
    );
    expect(await rejected('viral from:2026-02-01 to:2026-01-01')).toContain('must not be before');
    expect(await rejected('viral since:7d to:2020-01-01')).toContain('must not be before');
    expect(await rejected('viral views:5m-1k')).toContain('goes from high to low');
    expect(await rejected('viral pageSize:500')).toContain('pageSize');
    expect(await rejected('viral format:vlogging')).toMatch(/^Error: format cannot include "vlogging"\./);
    expect(await rejected('viral format:vlogging')).not.toContain('contentFormats');
    expect(await rejected('viral face:maybe')).toContain('yes or no');
    expect(await rejected('viral colour:')).toContain('needs a value');
    expect(await rejected('viral flavour:mint')).toContain('Unknown option "flavour"');
  });

  it('says the results expired when their stored pages are gone, and spends nothing', async () => {
    await h.type('viral pageSize:20 category:Gaming');
    clock.advance(20 * 86_400_000);
    await h.type('next');
    // The pager above is 20 days younger than the stored results: the results expire first.
    clock.advance(11 * 86_400_000);
    const calls = h.requests().length;
    const output = await h.type('previous');
    expect(output).toMatch(/These results have expired.[\s\S]*Run it again/);
    expect(h.requests().length).toBe(calls);
  });
});
