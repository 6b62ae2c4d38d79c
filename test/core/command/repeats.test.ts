/**
 * A command or press repeated within the repeat window, through the dispatcher, the sandbox and the terminal: work
 * that writes or spends runs once and the repeat is told it is already done, nothing changed, with what the first
 * run said (never a copy of an answer that would now be false); a free read runs again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { headlineOf, keptForRepeats, repeatReply } from '../../../src/core/command/repeats.js';
import { bold, card, mention, notice, reply, text } from '../../../src/core/ui/index.js';
import { type Harness, type HarnessOptions, startHarness } from '../../helpers/harness.js';

let h: Harness;
let started: Harness | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

const start = async (options: HarnessOptions = {}) => {
  h = await startHarness(options);
  started = h;
};

const ALREADY = 'Info: Already done (nothing changed).';
const crmWrites = (harness: Harness) =>
  harness.requests().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/v2/crm')).length;

describe('a repeat through the dispatcher', () => {
  it('of add all: adds once, and says nothing changed instead of "Added 3" again', async () => {
    await start();
    expect(await h.type('lists create Spring Launch')).toContain('Created the list Spring Launch.');
    expect(await h.type('creators search category:Fitness perPage:3')).toContain('Add all');
    const writes = crmWrites(h);
    const first = await h.type('add all to Spring Launch');
    expect(first).toMatch(/^Done: Added 3 of the 3 creators on this page to Spring Launch\./);
    const repeat = await h.type('add all to Spring Launch');
    expect(repeat.startsWith(ALREADY)).toBe(true);
    expect(repeat).toContain('First run, ');
    expect(repeat).toContain('“Added 3 of the 3 creators on this page to Spring Launch.”');
    // Only the first run's counters: the repeat gives none of its own.
    expect(repeat).not.toContain('Added: 3');
    expect(crmWrites(h)).toBe(writes + 1);
  });

  it('of a typed write: runs it once and quotes the first answer; a free read runs again', async () => {
    await start();
    expect(await h.type('lists create Summer Push')).toContain('Created the list Summer Push.');
    const repeat = await h.type('lists create Summer Push');
    expect(repeat.startsWith(ALREADY)).toBe(true);
    expect(repeat).toContain('“Created the list Summer Push.”');
    expect(repeat).not.toContain('already exists');
    const lists = (await h.app.service.crm.listLists()).data.lists;
    expect(lists.filter((list) => list.name === 'Summer Push')).toHaveLength(1);
    const reads = () => h.requests().filter((r) => r.path === '/api/v2/crm/lists').length;
    const before = reads();
    const shown = await h.type('lists');
    expect(await h.type('lists')).toBe(shown);
    expect(shown).toContain('Summer Push');
    expect(reads()).toBe(before + 2);
  });

  it('of paid work: spends once, and says the repeat spent nothing, confirmed work included', async () => {
    await start({ settings: { confirmAbove: 5 } });
    expect(await h.type('songs countries')).toContain('Confirm');
    expect(await h.type('confirm')).toContain('Countries with song charts');
    const spent = await h.spentToday();
    const sent = h.requests().length;
    expect(spent).toBeGreaterThan(0);
    const repeat = await h.type('songs countries');
    expect(repeat).toContain('Info: Already done (nothing changed). This repeat spent no credits.');
    expect(repeat).toContain('“Countries with song charts');
    expect(repeat).not.toContain('Confirm');
    expect(h.requests()).toHaveLength(sent);
    expect(await h.spentToday()).toBe(spent);
  });
});

describe('what a repeat is told', () => {
  it('quotes the opening line of the first answer, mentions and styles kept, long ones cut', () => {
    expect(headlineOf(reply([text(bold('Spring Launch'), ' · 3 contacts'), notice('info', 'x')]))).toEqual(
      text(bold('Spring Launch'), ' · 3 contacts').spans,
    );
    expect(headlineOf(reply([notice('success', [mention('U123'), ' is now a Scout admin.'])]))).toEqual(
      notice('success', [mention('U123'), ' is now a Scout admin.']).spans,
    );
    const long = headlineOf(reply([text(`${'word '.repeat(60)}\nsecond line`)]));
    expect(JSON.stringify(long)).toMatch(/…"}]$/);
    expect(JSON.stringify(long).length).toBeLessThan(220);
    expect(headlineOf(reply([text('first line\nsecond line')]))).toEqual([
      { kind: 'plain', text: 'first line' },
    ]);
    const cardOnly = card({ title: 'Anna Fit', body: [], fields: [] });
    expect(headlineOf(reply([cardOnly]))).toEqual([{ kind: 'plain', text: 'Anna Fit' }]);
    expect(headlineOf(reply([]))).toEqual([]);
  });

  it('keeps only that line, and says when the first run ran when it said nothing', () => {
    const kept = keptForRepeats(
      reply([notice('success', 'Added 5.'), text('details')], { visibility: 'channel' }),
    );
    expect(kept).toEqual(reply([text('Added 5.')]));
    expect(repeatReply(reply([]), { agoMs: 61_000, paid: false })).toEqual(
      reply([notice('info', 'Already done (nothing changed).'), text('It ran 61 seconds ago.')]),
    );
    expect(repeatReply(kept, { agoMs: 300_000, paid: true })).toEqual(
      reply([
        notice('info', 'Already done (nothing changed). This repeat spent no credits.'),
        text('First run, 5 minutes ago: “Added 5.”'),
      ]),
    );
  });
});
