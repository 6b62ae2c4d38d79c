/**
 * Money said the same way everywhere: every answer that spent credits ends with one line in one format, whatever
 * the command, and it is what the ledger recorded for that answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costLine } from '../../src/core/ui/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ settings: { confirmAbove: 1_000 } });
});
afterAll(async () => h.stop());

const lastLine = (output: string) => output.trimEnd().split('\n').at(-1);

/** Runs a line and returns its answer with what the ledger recorded for it. */
async function spending(line: string): Promise<{ answer: string; spent: number }> {
  const before = await h.spentToday();
  const answer = await h.type(line);
  return { answer, spent: (await h.spentToday()) - before };
}

describe('the cost line', () => {
  it('is one format: credits, then what was shown free', () => {
    expect(costLine(0, 0)).toBeNull();
    expect(costLine(1, 0)).toBe('1 credit');
    expect(costLine(5, 2)).toBe('5 credits · 2 cached, free');
    expect(costLine(0, 5)).toBe('0 credits · 5 cached, free');
  });

  it.each([
    'creators search category:Fitness',
    'digest preview categories:Food top:3',
    'viral categories:Food',
    'creators profiles category:Fitness perPage:2',
    'songs countries',
    'videos sort:views',
  ])('ends the answer of `%s` with what the ledger recorded for it', async (line) => {
    const { answer, spent } = await spending(line);
    expect(spent).toBeGreaterThan(0);
    expect(lastLine(answer)).toMatch(new RegExp(`^${spent} credits?( · \\d+ cached, free)?$`));
  });

  it('counts the creators shown from profiles paid for before as cached, free', async () => {
    await h.type('creators search category:Beauty');
    await h.type('next');
    const back = await spending('previous');
    expect(back.spent).toBe(0);
    expect(lastLine(back.answer)).toBe('0 credits · 5 cached, free');
    const details = await spending('details 2');
    expect(lastLine(details.answer)).toBe('0 credits · 1 cached, free');
  });

  it('says on Next what the next page may cost, and nothing once it is paid for', async () => {
    const first = await h.type('creators search category:Travel');
    expect(first).toMatch(/\[\d+\] Next › \(up to 5 credits\)/);
    await h.type('next');
    const back = await h.type('previous');
    expect(back).toMatch(/\[\d+\] Next ›$/m);
    const viral = await h.type('viral categories:Travel');
    expect(viral).toMatch(/\[\d+\] Next › \(up to \d+ credits\)/);
  });

  it('still says what was spent when the work fails after paying for part of it', async () => {
    const { answer, spent } = await spending('songs compare XX');
    expect(spent).toBeGreaterThan(0);
    expect(answer).toMatch(/^Error: /);
    expect(lastLine(answer)).toBe(`${spent} credits`);
  });

  it('says nothing of credits on a free answer', async () => {
    const { answer, spent } = await spending('lists');
    expect(spent).toBe(0);
    expect(answer).not.toMatch(/\d+ credits?( ·|$)/m);
  });
});
