/**
 * A paid answer that says what it used (songs' `credits_used`) is recorded at that, not at the price list's figure:
 * the sandbox charges and reports a songs request at another price than the contract's 10 credits. The call is set
 * aside and written at its estimate before it is sent, and settled at what was used, so the daily cap counts what
 * the service took and nothing stays set aside.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creditsFamily } from '../../../src/commands/credits.js';
import { songsFamily } from '../../../src/commands/songs.js';
import { sql } from '../../../src/core/store/sql.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';

const CREDITS = 10_000;

const rows = (h: Harness) =>
  h.app.store.db.all<{ operation: string; units: number; credits: number; state: string }>(
    sql`SELECT operation, units, credits, state FROM credit_ledger ORDER BY id`,
  );

const setAside = async (h: Harness) =>
  (
    await h.app.store.db.one<{ n: number }>(
      sql`SELECT COALESCE(SUM(credits), 0) AS n FROM credit_reservations`,
    )
  )?.n;

describe('credits the service says a call used', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const start = (songRequestCredits: number, dailyCap: number | null = null) =>
    startHarness({
      families: [songsFamily],
      credits: CREDITS,
      sandbox: { songRequestCredits },
      settings: { repeatWindowMs: 0, defaultDailyCap: dailyCap },
    });

  it('records fewer credits than the price list when the answer says so, and the cap counts them', async () => {
    // A cap of 30: at the price list's 10 per request, a fourth request would be refused.
    h = await start(4, 30);
    for (const line of ['songs countries', 'songs date-ranges', 'songs global']) {
      expect(await h.type(line)).toMatch(/^4 credits?$/m);
    }
    expect(await h.spentToday()).toBe(12);
    expect(CREDITS - h.sandbox.credits(TEST_KEY)).toBe(12);
    const fourth = await h.type('songs weeks country:US');
    expect(fourth).toMatch(/^4 credits?$/m);
    expect(await rows(h)).toEqual(
      Array.from({ length: 4 }, () => ({
        operation: 'songs.query',
        units: 1,
        credits: 4,
        state: 'confirmed',
      })),
    );
    expect(await h.spentToday()).toBe(16);
    expect(await setAside(h)).toBe(0);
  });

  it('records more credits than the price list when the answer says so', async () => {
    h = await start(25);
    expect(await h.type('songs countries')).toMatch(/^25 credits?$/m);
    expect(await rows(h)).toEqual([{ operation: 'songs.query', units: 1, credits: 25, state: 'confirmed' }]);
    expect(await h.spentToday()).toBe(25);
    expect(CREDITS - h.sandbox.credits(TEST_KEY)).toBe(25);
    expect(await setAside(h)).toBe(0);
  });

  it('keeps no charge for a request the service says was free', async () => {
    h = await start(0);
    const free = await h.type('songs countries');
    expect(free).toContain('Countries with song charts');
    expect(free).not.toContain('0 credits');
    expect(await rows(h)).toEqual([]);
    expect(await h.spentToday()).toBe(0);
    expect(await setAside(h)).toBe(0);
  });

  it('says one credit in the singular, in the answer and in /scout credits', async () => {
    h = await startHarness({
      families: [songsFamily, creditsFamily],
      credits: CREDITS,
      sandbox: { songRequestCredits: 1 },
      settings: { repeatWindowMs: 0, defaultDailyCap: 11 },
    });
    expect(await h.type('songs countries')).toMatch(/^1 credit$/m);
    const view = await h.type('credits');
    expect(view).toContain('You today: 1 credit · You this month: 1 credit');
    expect(view).toMatch(/^@me +1 +1$/m);
    expect(view).toMatch(/^songs countries +1 +1$/m);
    expect(view).toContain('█  1 credit, ');
    expect(view).not.toMatch(/\b1 credits\b/);
  });

  it('falls back to the price list when the answer says nothing', async () => {
    h = await start(10);
    h.sandbox.injectFaults(TEST_KEY, {
      kind: 'error-shape',
      status: 200,
      body: {
        message: 'OK',
        action: 'countries',
        response: { data: [{ code: 'US', name: 'United States' }] },
      },
    });
    expect(await h.type('songs countries')).toMatch(/^10 credits?$/m);
    expect(await rows(h)).toEqual([{ operation: 'songs.query', units: 1, credits: 10, state: 'confirmed' }]);
  });
});
