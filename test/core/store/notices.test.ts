/**
 * Notices told once a day: the first claim of a person's notice on a UTC day wins, in whichever process (stores on
 * one database claiming together), and the day stays claimed after the database is opened again (a restart).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/core/store/index.js';
import { freshLocation } from './engine.js';

const ana = { platform: 'slack' as const, workspaceId: 'T1', userId: 'U1' };
const bob = { ...ana, userId: 'U2' };

let stores: Store[] = [];
let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  for (const store of stores) await store.close();
  stores = [];
  await drop?.();
  drop = undefined;
});

describe('once-a-day notices', () => {
  it('are claimed once per person and day by all processes, and stay claimed across a restart', async () => {
    const place = await freshLocation({ shared: true });
    drop = place.drop;
    stores = [await openStore(place.location), await openStore(place.location)];
    const [one, two] = stores as [Store, Store];

    const together = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? one : two).notices.claimDaily(ana, 'trial-account', '2026-06-10'),
      ),
    );
    expect(together.filter(Boolean)).toHaveLength(1);
    // Another person, or the same person another day, is told on their own.
    expect(await two.notices.claimDaily(bob, 'trial-account', '2026-06-10')).toBe(true);
    expect(await one.notices.claimDaily({ ...ana, workspaceId: 'T2' }, 'trial-account', '2026-06-10')).toBe(
      true,
    );
    expect(await one.notices.claimDaily({ ...ana, platform: 'discord' }, 'trial-account', '2026-06-10')).toBe(
      true,
    );

    for (const store of stores) await store.close();
    stores = [await openStore(place.location)];
    const again = stores[0] as Store;
    expect(await again.notices.claimDaily(ana, 'trial-account', '2026-06-10')).toBe(false);
    expect(await again.notices.claimDaily(bob, 'trial-account', '2026-06-10')).toBe(false);
    expect(await again.notices.claimDaily(ana, 'trial-account', '2026-06-11')).toBe(true);
    expect(await again.notices.claimDaily(ana, 'trial-account', '2026-06-11')).toBe(false);
    // A clock set back a day never tells it again for a day already past.
    expect(await again.notices.claimDaily(ana, 'trial-account', '2026-06-10')).toBe(false);
  });
});
