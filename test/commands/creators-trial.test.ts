/**
 * A trial account: the service answers profile purchases with `is_trial: true` (the sandbox's key is made a trial
 * key). The person who bought them is told once a UTC day, at the end of the answer that bought them, whichever
 * command bought them (creators show, a search page, creators profiles); answers that bought nothing, or a key that
 * is not a trial, say nothing of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIAL_NOTICE } from '../../src/commands/creators/profiles-cache.js';
import { creatorsFamily } from '../../src/commands/creators.js';
import { createManualClock } from '../../src/core/clock.js';
import { type Harness, startHarness, TEST_KEY, TEST_TEAM } from '../helpers/harness.js';

const clock = createManualClock(Date.parse('2026-06-10T09:00:00Z'));
let h: Harness;
let ids: string[] = [];

beforeAll(async () => {
  h = await startHarness({ families: [creatorsFamily], clock });
  ids = (await h.app.service.creators.search({ perPage: 10 })).data.items;
});
afterAll(async () => h.stop());

const nextDay = () => clock.advance(86_400_000);
const told = (output: string) => output.split(TRIAL_NOTICE).length - 1;

describe('a trial account', () => {
  it('is not mentioned while the service does not say the account is a trial', async () => {
    const output = await h.type(`creators show ${ids[0]}`);
    expect(output).toContain(`Creator id: ${ids[0]}`);
    expect(told(output)).toBe(0);
  });

  it('is told once a day, after the profile that was bought', async () => {
    h.sandbox.addKey({ key: TEST_KEY, teamId: TEST_TEAM, credits: 100_000, trial: true });
    const first = await h.type(`creators show ${ids[1]}`);
    expect(told(first)).toBe(1);
    expect(first.indexOf(TRIAL_NOTICE)).toBeGreaterThan(first.indexOf(`Creator id: ${ids[1]}`));
    // Later purchases that day, and answers from the cache, say nothing more.
    expect(told(await h.type(`creators show ${ids[2]}`))).toBe(0);
    expect(told(await h.type(`creators show ${ids[1]}`))).toBe(0);
  });

  it('is told again the next day by a search page that buys profiles, and by creators profiles the day after', async () => {
    nextDay();
    const page = await h.type('creators followers:10k-2m');
    expect(page).toMatch(/Creators · .* — 1-\d+ of/);
    expect(told(page)).toBe(1);
    expect(told(await h.type('next'))).toBe(0);

    nextDay();
    const bought = await h.type('creators profiles followers:10k-2m perPage:2');
    expect(bought).toMatch(/^2 credits$/m);
    expect(told(bought)).toBe(1);
    expect(told(await h.type('creators profiles followers:10k-2m perPage:3 page:3'))).toBe(0);
  });
});
