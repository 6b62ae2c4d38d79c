/**
 * A repeat within the window is told "Already done" only when the first run did something: an answer that changed
 * nothing (no such list, with an offer to create it) lets the same line run again, and undoing a change (taking a
 * creator off a list) lets the change run again, from whichever family either was made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

const adds = () =>
  h.requests().filter((r) => r.method === 'POST' && /\/crm\/lists\/[^/]+\/creators$/.test(r.path));

describe('repeats after an answer that changed nothing, or after an undo', () => {
  it('runs an add again once the list it named exists', async () => {
    await h.type('creators search category:Fitness');
    expect(await h.type('add 2 to Autumn Push')).toContain('There is no list "Autumn Push"');
    expect(await h.type('lists create Autumn Push')).toContain('Autumn Push');
    const before = adds().length;
    const again = await h.type('add 2 to Autumn Push');
    expect(again).not.toContain('Already done');
    expect(adds().length).toBe(before + 1);
  });

  it('adds a creator again right after it was taken off the list', async () => {
    await h.type('lists create Winter Push');
    await h.type('creators search category:Travel');
    const added = await h.type('add 1 to Winter Push');
    const handle = /@[\w.]+/.exec(added)?.[0];
    expect(handle).toBeDefined();
    await h.type(`list remove Winter Push creator:${handle}`);
    expect(await h.type('confirm')).toMatch(/Removed/);
    const before = adds().length;
    const again = await h.type('add 1 to Winter Push');
    expect(again).not.toContain('Already done');
    expect(adds().length).toBe(before + 1);
  });
});
