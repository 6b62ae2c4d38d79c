import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIGESTS_PER_CHANNEL, DIGESTS_PER_PERSON, digestFamily } from '../../src/commands/digest.js';
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
    const [digest] = await harness.app.store.digests.active();
    expect(digest).toMatchObject({ localTime: '09:00', timeZone: 'Europe/Paris', top: 3, createdBy: 'me' });
    expect(digest?.filters).toEqual({ categories: ['Food'], dateCreatedFrom: '7d' });
    expect(await harness.type('digest list')).toContain(
      '#1 · 09:00 Europe/Paris · #terminal (this channel) · top 3',
    );
    expect(await harness.type('digest remove 1')).toContain('Digest #1 removed');
    expect(await harness.type('digest remove 7')).toContain('There is no digest #7');
    expect(await harness.app.store.digests.active()).toEqual([]);
    expect(harness.requests()).toEqual([]);
  });

  it('limits digests per person and per channel, and lets only the creator or an admin remove one', async () => {
    for (let i = 0; i < DIGESTS_PER_PERSON; i++) {
      expect(await harness.type(`digest 0${i}:00 country:Japan`)).toContain('scheduled');
    }
    expect(await harness.type('digest 07:00 country:Japan')).toContain(
      `already have ${DIGESTS_PER_PERSON} daily digests`,
    );
    expect(await harness.app.store.digests.active()).toHaveLength(DIGESTS_PER_PERSON);
    // Others fill the channel up to its limit.
    const store = harness.app.store.digests;
    for (let i = DIGESTS_PER_PERSON; i < DIGESTS_PER_CHANNEL; i++) {
      await store.create({
        platform: 'terminal',
        workspaceId: 'local',
        channelId: 'terminal',
        createdBy: `someone-${i}`,
        localTime: '10:00',
        timeZone: 'UTC',
        filters: {},
        top: 5,
        createdAt: harness.app.clock.now(),
      });
    }
    const ana = { platform: 'terminal' as const, workspaceId: 'local', userId: 'ana', isAdmin: false };
    const full = await harness.app.dispatcher.text({
      actor: ana,
      channelId: 'terminal',
      text: 'digest 07:00 country:Japan',
    });
    expect(JSON.stringify(full)).toContain(`This channel already gets ${DIGESTS_PER_CHANNEL} daily digests`);
    const elsewhere = await harness.app.dispatcher.text({
      actor: ana,
      channelId: 'another',
      text: 'digest 07:00 country:Japan',
    });
    expect(JSON.stringify(elsewhere)).toContain('scheduled');
    const member = { platform: 'terminal' as const, workspaceId: 'local', userId: 'member', isAdmin: false };
    const other = (await store.active()).find((d) => d.createdBy !== 'me');
    const answer = await harness.app.dispatcher.text({
      actor: member,
      channelId: 'terminal',
      text: `digest remove ${other?.id}`,
    });
    expect(JSON.stringify(answer)).toContain('someone else');
    expect(await store.active()).toHaveLength(DIGESTS_PER_CHANNEL + 1);
    expect(await harness.type(`digest remove ${other?.id}`)).toContain('removed');
  });

  it('defaults to UTC and refuses bad times, zones and sizes before storing anything', async () => {
    expect(await harness.type('digest 18:30 country:Japan')).toContain('every day at 18:30 UTC');
    expect(await harness.type('digest 25:00')).toContain('24-hour time HH:MM');
    expect(await harness.type('digest 09:00 Mars/Olympus')).toContain('is not an IANA time zone');
    expect(await harness.type('digest 09:00 top:11')).toContain('Error: top must be at most 10.');
    expect(await harness.type('digest 09:00 categories:Nope')).toContain('categories cannot include "Nope"');
    expect(await harness.app.store.digests.active()).toHaveLength(1);
  });

  it('previews one now, ranked by virality and charged to the person', async () => {
    const shown = await harness.type('digest preview categories:Food top:3');
    expect(shown).toContain('Viral digest preview');
    expect(await harness.spentToday()).toBe(20);
    const scores = [...shown.matchAll(/Virality[^\d]*(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
    expect(scores.length).toBeGreaterThan(0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
