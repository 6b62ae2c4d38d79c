/**
 * A full disk: SQLite's page limit makes the database stop growing, as a full disk would. Whatever write fails
 * first, the person is told Scout's storage is full (never "Something went wrong"), no paid call is sent that the
 * ledger could not hold, and once there is room again the ledger equals what the sandbox charged, to the credit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from '../../../src/core/store/sql.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';

const CREDITS = 100_000;

const ledgerCredits = async (h: Harness) =>
  (await h.app.store.db.one<{ n: number }>(sql`SELECT COALESCE(SUM(credits), 0) AS n FROM credit_ledger`))?.n;

describe('when the disk is full', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it('says so, charges nothing it cannot record, and keeps every charge', async () => {
    h = await startHarness({ credits: CREDITS, settings: { repeatWindowMs: 0, confirmAbove: 1_000 } });
    const { db } = h.app.store;
    await h.type('viral pageSize:2 views:>1k');
    // A few pages of room left, then the database cannot grow.
    const pages = (await db.one<{ page_count: number }>(sql`PRAGMA page_count`))?.page_count as number;
    await db.one(sql.raw(`PRAGMA max_page_count = ${pages + 2}`));

    const answers: string[] = [];
    for (let i = 0; i < 200 && !answers.some((a) => a.includes('storage is full')); i++) {
      const sent = h.requests().length;
      const answer = await h.type(`viral pageSize:${1 + (i % 9)} views:>${i + 2}k`);
      // "Nothing was sent" is said only when nothing was.
      if (answer.includes('nothing was sent')) expect(h.requests().length).toBe(sent);
      answers.push(answer);
    }
    const full = answers.filter((a) => a.includes('storage is full'));
    expect(full.length).toBeGreaterThan(0);
    expect(answers.join('\n')).not.toContain('Something went wrong');
    // Nothing was charged that the ledger does not count (at its estimate while the disk is full).
    expect(await ledgerCredits(h)).toBeGreaterThanOrEqual(CREDITS - h.sandbox.credits(TEST_KEY));
    // Each failure is said once, to the point.
    for (const answer of full)
      expect(answer).toMatch(/Scout’s storage is full, so (nothing was sent|this could not finish)/);

    // Room again: the next command works, and what was kept in memory is written.
    await db.one(sql`PRAGMA max_page_count = 1000000`);
    expect(await h.type('songs countries')).toContain('Countries with song charts');
    expect(await ledgerCredits(h)).toBe(CREDITS - h.sandbox.credits(TEST_KEY));
  });
});
