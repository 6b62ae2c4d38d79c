/** `/scout credits`: the balance the service reports, my spend, and the team's spend by person, command and day. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TEST_KEY } from '../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

describe('credits', () => {
  it('shows the balance and what each command cost, counted in calls', async () => {
    await h.type('creators category:Fitness');
    await h.type('next');
    await h.type('viral categories:Food');
    const out = await h.type('credits');

    expect(out).toContain(`Service balance: ${h.sandbox.credits(TEST_KEY)} credits`);
    expect(out).toContain(`You today: ${await h.spentToday()} credits`);
    expect(out).toContain('Your daily cap: none');
    // Two pages of five profiles; one viral search.
    expect(out).toMatch(/creators search: 10 credits \(2 calls\)/);
    expect(out).toMatch(/viral search: \d+ credits \(1 call\)/);
    expect(out).toMatch(new RegExp(`me: ${await h.spentToday()} credits \\(3 calls\\)`));
  });
});
