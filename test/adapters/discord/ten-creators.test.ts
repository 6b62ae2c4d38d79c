/**
 * A page of ten creators end to end on Discord: `/scout creators search … perPage:10` against the sandbox and the fake
 * Discord, which refuses what Discord refuses (discord-checks.ts). The page is one Components V2 message with every
 * creator's picture, pages in place staying Components V2, and a card's button gathered in a select still works; an
 * answer without cards that replaces a Components V2 message is laid out the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS_PER_PAGE_MAX } from '../../../src/core/ui/index.js';
import type { FakeMessage } from '../../fakes/discord-fake.js';
import {
  answered,
  callback,
  createWorld,
  edited,
  KEY,
  messageOf,
  press,
  slash,
  type World,
} from './harness.js';
import { allComponents, COMPONENTS_V2, cardTitles, interactive, isV2, textDisplays } from './layout.js';

let world: World;
let folder: string;

beforeAll(async () => {
  world = await createWorld();
  folder = mkdtempSync(join(tmpdir(), 'scout-discord-ten-'));
  await world.startBot({ databasePath: join(folder, 'scout.db') });
});

afterAll(async () => {
  await world?.stop();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** What makes a page of ten: one container of ten sections, each with the creator's picture. */
function expectTenCreators(page: FakeMessage): void {
  expect(isV2(page)).toBe(true);
  expect(page.content ?? '').toBe('');
  expect(page.embeds ?? []).toEqual([]);
  expect(allComponents(page).length).toBeLessThanOrEqual(40);
  const sections = allComponents(page).filter((c) => c.type === 9);
  expect(sections).toHaveLength(CARDS_PER_PAGE_MAX);
  for (const section of sections) expect(section.accessory?.media?.url).toMatch(/^https:\/\//);
  const titles = cardTitles(page);
  expect(titles).toHaveLength(CARDS_PER_PAGE_MAX);
  expect(titles.map((t) => /^(\d+)\. /.exec(t)?.[1])).toEqual(
    Array.from({ length: CARDS_PER_PAGE_MAX }, (_, i) => String(i + 1)),
  );
  expect(textDisplays(page).join('\n')).toContain('**Followers**');
}

describe('Discord: a page of ten creators', () => {
  it('answers with one Components V2 message Discord takes, pages in place, and presses a card’s button', async () => {
    const { fake } = world;
    const from = fake.requests.length;
    const search = slash(fake, 'creators', 'search', [
      { type: 3, name: 'filters', value: 'followers:>1k perPage:10' },
    ]);
    const page1 = await messageOf(fake.waitFor(edited(search.token), 'page 1'));
    expectTenCreators(page1);

    const next = press(fake, page1, /^Next/);
    expect((await fake.waitFor(callback(next.id), 'deferUpdate')).body).toMatchObject({ type: 6 });
    const page2 = await messageOf(fake.waitFor(edited(next.token), 'page 2'));
    // Still a page of ten, the next ten, and still Components V2: Discord never takes the flag away.
    expectTenCreators(page2);
    expect(cardTitles(page2).map((t) => t.replace(/^\d+\. /, ''))).not.toEqual(
      cardTitles(page1).map((t) => t.replace(/^\d+\. /, '')),
    );

    // Ten cards' buttons are options of selects standing for them ("Details…": "3. @name", or "Actions…":
    // "3. Details"); choosing the third card's Details presses that button.
    const found = interactive(page2)
      .filter((c) => c.type === 3 && c.custom_id?.startsWith('scout.more:'))
      .flatMap((select) => (select.options ?? []).map((option) => ({ select, option })))
      .find(({ select, option }) =>
        /^Details/.test(select.placeholder ?? '')
          ? option.label.startsWith('3. ')
          : option.label === '3. Details',
      );
    expect(found).toBeDefined();
    const chosen = fake.interact(
      3,
      { custom_id: found?.select.custom_id, component_type: 3, values: [found?.option.value] },
      { message: page2 },
    );
    const profile = await messageOf(fake.waitFor(answered(chosen.token), 'details'));
    const third = cardTitles(page2)[2]?.replace(/^\d+\. /, '') ?? '';
    expect(cardTitles(profile)[0]).toBe(third);

    // Discord took every message: nothing was refused.
    expect(fake.requests.slice(from).filter((r) => r.refused !== undefined)).toEqual([]);
  });

  it('refuses more than ten creators a page, sending nothing to the service', async () => {
    const { fake } = world;
    const before = world.sandbox.requests(KEY).length;
    const search = slash(fake, 'creators', 'search', [
      { type: 3, name: 'filters', value: 'followers:>1k perPage:11' },
    ]);
    const answer = await messageOf(fake.waitFor(answered(search.token), 'refusal'));
    expect(JSON.stringify(answer)).toMatch(/perPage/);
    expect(JSON.stringify(answer)).toMatch(/10/);
    expect(world.sandbox.requests(KEY).length).toBe(before);
  });
});

describe('Discord: a Components V2 message stays one', () => {
  it('lays out an answer without cards that replaces it with Components V2 too', async () => {
    const { fake } = world;
    const from = fake.requests.length;
    const run = slash(fake, 'songs', 'global', []);
    const table = await messageOf(fake.waitFor(edited(run.token), 'global chart'));
    expect(isV2(table)).toBe(false);
    // As if the message were a page of cards: its flag is one Discord never takes away.
    const shown: FakeMessage = { ...table, flags: COMPONENTS_V2, embeds: [], content: '' };
    const next = press(fake, shown, /^Next/);
    const page2 = await messageOf(fake.waitFor(edited(next.token), 'page 2'));
    expect(isV2(page2)).toBe(true);
    expect(textDisplays(page2).join('\n')).toContain('```');
    expect(fake.requests.slice(from).filter((r) => r.refused !== undefined)).toEqual([]);
  });
});
