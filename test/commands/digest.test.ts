import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestFamily } from '../../src/commands/digest.js';
import { createManualClock } from '../../src/core/clock.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({
    families: [digestFamily],
    clock: createManualClock('2026-06-01T12:00:00Z'),
    sandbox: { now: () => Date.parse('2026-06-01T12:00:00Z') },
  });
});
afterEach(async () => {
  await harness.stop();
});

describe('/scout digest', () => {
  it('schedules a digest in a time zone, lists it and removes it', async () => {
    const added = await harness.type('digest 9:00 europe/paris categories:Food top:3 since:7d');
    // Paris is UTC+2 in June: 09:00 there is 07:00 UTC, already past today.
    expect(added).toContain('every day at 09:00 Europe/Paris, the top 3 viral posts');
    expect(added).toContain('First post: 2026-06-02 07:00 UTC');
    expect(added).toContain('dateCreatedFrom:7d');
    const [digest] = harness.app.store.digests.active();
    expect(digest).toMatchObject({ localTime: '09:00', timeZone: 'Europe/Paris', top: 3, createdBy: 'me' });
    expect(digest?.filters).toEqual({ categories: ['Food'], dateCreatedFrom: '7d' });
    expect(await harness.type('digest list')).toContain(
      '#1 · 09:00 Europe/Paris · #terminal (this channel) · top 3',
    );
    expect(await harness.type('digest remove 1')).toContain('Digest #1 removed');
    expect(await harness.type('digest remove 7')).toContain('There is no digest #7');
    expect(harness.app.store.digests.active()).toEqual([]);
    expect(harness.requests()).toEqual([]);
  });

  it('defaults to UTC and refuses bad times, zones and sizes before storing anything', async () => {
    expect(await harness.type('digest 18:30 country:Japan')).toContain('every day at 18:30 UTC');
    expect(await harness.type('digest 25:00')).toContain('24-hour time HH:MM');
    expect(await harness.type('digest 09:00 Mars/Olympus')).toContain('is not an IANA time zone');
    expect(await harness.type('digest 09:00 top:11')).toContain('top is at most 10');
    expect(await harness.type('digest 09:00 categories:Nope')).toContain('is not a valid categories');
    expect(harness.app.store.digests.active()).toHaveLength(1);
  });

  it('previews one now, ranked by virality and charged to the person', async () => {
    const shown = await harness.type('digest preview categories:Food top:3');
    expect(shown).toContain('Viral digest preview');
    expect(harness.spentToday()).toBe(20);
    const scores = [...shown.matchAll(/Virality[^\d]*(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
    expect(scores.length).toBeGreaterThan(0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
