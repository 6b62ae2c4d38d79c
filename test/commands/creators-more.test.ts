import { afterAll, beforeAll, expect, it } from 'vitest';
import { createManualClock } from '../../src/core/clock.js';
import { sql } from '../../src/core/store/sql.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const DAY = 86_400_000;
const clock = createManualClock(new Date());
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock, settings: { elementTtlMs: 30 * DAY } });
});
afterAll(() => h.stop());

it('offers to run an expired search again, and the rerun works', async () => {
  expect(await h.type('creators category:Fitness followers:10k-100k')).toContain('1-5 of');
  clock.advance(29 * DAY);
  // The next-page button made on day 29 outlives the search session made on day 0.
  expect(await h.type('next')).toContain('6-10 of');
  clock.advance(2 * DAY);
  const expired = await h.type('previous');
  expect(expired).toContain('These results have expired.');
  expect(expired).toMatch(/\[1\] Run it again/);
  expect(await h.type('1')).toContain('1-5 of');
});

it('counts spend from page buttons toward the command that made them', async () => {
  const rows = (
    await h.app.store.db.all<{ command: string | null }>(sql`SELECT DISTINCT command FROM credit_ledger`)
  ).map((row) => row.command);
  expect(rows).toEqual(['creators search']);
});

it('accepts the short hair colour and race words people type, sending the contract spelling', async () => {
  const before = h.requests().length;
  expect(await h.type('creators hairColor:blonde race:latino followers:>1k')).not.toContain('Error');
  const sent = h
    .requests()
    .slice(before)
    .find((r) => r.path === '/api/v2/creators/search');
  expect(sent?.query).toMatchObject({ hairColor: 'Blonde hair', race: 'Latino Hispanic' });
});
