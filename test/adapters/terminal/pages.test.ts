/**
 * Every page shown in the terminal stays addressable: a page's cards are numbered on the card (`2. @name`), and
 * `details 4` or `add 2 to <list>` act on card 4 or 2 of the latest page with such buttons even after other answers
 * have come, while `[n]` numbers (`1`) press a button of the latest answer. Driven through the shell's streams.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;
/** The handles of the first page of the search, card 1 first. */
let page: string[] = [];

/** The numbered cards printed: `[number, handle]` of each. */
const cards = (out: string) => [...out.matchAll(/^(\d+)\. @(\S+) · /gm)].map((m) => [Number(m[1]), m[2]]);
const LIST = 'Fitness Ambassadors';

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

describe('terminal: pages stay addressable', () => {
  it('numbers the cards of a page on the card, apart from the [n] of their buttons', async () => {
    const out = await h.type('creators category:Fitness followers:10k-2m');
    const shown = cards(out);
    expect(shown.map(([n]) => n)).toEqual([1, 2, 3, 4, 5]);
    page = shown.map(([, handle]) => handle as string);
    // Card 2's buttons are [3] and [4]: the numbers are told apart by how they are printed.
    const second = out.split('\n\n').find((block) => block.startsWith(`2. @${page[1]} · `));
    expect(second).toContain('  [3] Add to list  [4] Details');
  });

  it('opens the details of card 4 of the results after another answer', async () => {
    const lists = await h.type('lists');
    expect(lists).toContain(`1.1 ${LIST} — `);
    const out = await h.type('details 4');
    expect(out.startsWith(`@${page[3]} · `)).toBe(true);
    expect(out).toContain('Bio:');
  });

  it('adds card 2 of the results to a list after the details of another creator', async () => {
    const out = await h.type(`add 2 to ${LIST}`);
    expect(out).toContain(`Added @${page[1]} to ${LIST}`);
  });

  it('presses [n] on the latest answer: the profile’s own Add to list', async () => {
    await h.type('details 3');
    const out = await h.type('1');
    expect(out).toContain(`Add @${page[2]} to which list?`);
  });

  it('says which numbers the page has, sending nothing, for a card it does not have', async () => {
    const from = h.requests().length;
    const out = await h.type('details 9');
    expect(out).toContain('There is no "details" number 9 on the latest page with one (1-5).');
    expect(h.requests()).toHaveLength(from);
  });

  it('goes on to the next page of the results with `more` after other answers', async () => {
    await h.type('lists');
    const out = await h.type('more');
    expect(out).toContain('6-10 of');
    expect(cards(out).map(([n]) => n)).toEqual([1, 2, 3, 4, 5]);
    // The new page is now the one `details 1` means.
    const next = cards(out)[0]?.[1] as string;
    await h.type('lists');
    expect((await h.type('details 1')).startsWith(`@${next} · `)).toBe(true);
  });

  it('names a mistake in several numbers on the results after another answer, sending nothing', async () => {
    await h.type('lists');
    const from = h.requests().length;
    expect(await h.type(`add 3-1 to ${LIST}`)).toContain('3-1 counts down: write 1-3.');
    expect(h.requests()).toHaveLength(from);
  });

  it('names a card number of four digits as one the page does not have, sending nothing', async () => {
    await h.type('creators category:Fitness followers:10k-2m');
    const from = h.requests().length;
    expect(await h.type('details 1000')).toContain('There is no "details" number 1000');
    expect(await h.type(`add 1000 to ${LIST}`)).toContain('number 1000');
    expect(h.requests()).toHaveLength(from);
  });

  it('names a negative card number as one the page does not have, sending nothing', async () => {
    await h.type('creators category:Fitness followers:10k-3m');
    const from = h.requests().length;
    expect(await h.type('details -1')).toContain('There is no "details" number -1 here (1-5).');
    expect(await h.type(`add -2 to ${LIST}`)).toContain('There is no "add" number -2 here (1-5).');
    await h.type('lists');
    expect(await h.type('details -1')).toContain(
      'There is no "details" number -1 on the latest page with one',
    );
    expect(h.requests()).toHaveLength(from + 1);
  });

  it('says there is no page after the last one, instead of showing it again', async () => {
    let out = await h.type('creators category:Fitness country:France perPage:2');
    for (let turns = 0; /Next ›/.test(out) && turns < 20; turns++) out = await h.type('next');
    expect(out).not.toMatch(/Next ›/);
    const from = h.requests().length;
    expect(await h.type('next')).toBe('There is no "next" here.\n');
    expect(h.requests()).toHaveLength(from);
  });

  it('keeps a number on the latest answer: `1.2` after the lists opens the second list of its menu', async () => {
    const lists = await h.type('lists');
    const second = /^ +1\.2 (.+) — \d+ contacts$/m.exec(lists)?.[1] as string;
    expect(second).toBeDefined();
    const out = await h.type('1.2');
    expect(out).toContain(second);
    expect(out).not.toContain('Bio:');
  });
});
