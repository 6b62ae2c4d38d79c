import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/core/clock.js';
import { callback, createWorld, edited, messageOf, press, slash, titles, type World } from './harness.js';

let world: World;
let folder: string;

beforeAll(async () => {
  world = await createWorld();
  folder = mkdtempSync(join(tmpdir(), 'scout-discord-'));
});

afterAll(async () => {
  await world?.stop();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe('Discord components across a restart', () => {
  it('pages an old message through a new process after its interaction token expired', async () => {
    const databasePath = join(folder, 'scout.db');
    const { fake } = world;
    const first = await world.startBot({ databasePath });
    const search = slash(fake, 'creators', 'search', [{ type: 3, name: 'followers', value: '>1k' }]);
    const page1 = await messageOf(fake.waitFor(edited(search.token), 'page 1'));
    expect(titles(page1)).toHaveLength(5);
    await first.stop();
    // Everything the first process answered is over, as after Discord's 15 minutes.
    fake.expireInteractions();

    const clock = createManualClock(Date.now() + 20 * 60_000);
    await world.startBot({ databasePath, clock });
    const seen = fake.requests.length;
    const next = press(fake, page1, /^Next/);
    expect((await fake.waitFor(callback(next.id), 'deferUpdate')).body).toMatchObject({ type: 6 });
    const page2 = await messageOf(fake.waitFor(edited(next.token), 'page 2'));
    expect(titles(page2)).toHaveLength(5);
    expect(titles(page2)).not.toEqual(titles(page1));
    // Where we are: on the pager, or said under the page when the cards' buttons need the pager's room.
    expect(JSON.stringify(page2.components)).toContain('Page 2');
    const later = fake.requests.slice(seen);
    expect(later.some((r) => r.path.includes(search.token) || r.path.includes(search.id))).toBe(false);
    expect(later.every((r) => !r.path.startsWith('/webhooks/') || r.path.includes(next.token))).toBe(true);
  });
});
