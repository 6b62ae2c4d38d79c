/**
 * Several creators of a result page over Discord, through discord.js against the fake gateway and REST and the
 * sandbox: the page's string select of creators ("Choose creators to add…") arrives as the interaction's `values`,
 * asks which list as Add to list does and adds exactly the chosen creators in one CRM request, once however often
 * it is chosen; one creator chosen is that creator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../fakes/discord-fake.js';
import { answered, type Bot, createWorld, KEY, messageOf, slash, text, type World } from './harness.js';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
});

afterAll(async () => {
  await world?.stop();
});

type Component = {
  type: number;
  custom_id?: string;
  placeholder?: string;
  max_values?: number;
  options?: Array<{ value: string; label: string }>;
  components?: Component[];
  accessory?: Component;
};

/** Every component of a message, however nested (rows, containers, sections' accessories). */
function allComponents(message: Record<string, unknown>): Component[] {
  const out: Component[] = [];
  const walk = (list: readonly Component[] | undefined) => {
    for (const c of list ?? []) {
      out.push(c);
      walk(c.components);
      if (c.accessory !== undefined) walk([c.accessory]);
    }
  };
  walk(message.components as Component[] | undefined);
  return out;
}

/** What a message says, embeds and text displays alike, without markdown escapes. */
const said = (message: FakeMessage) =>
  `${text(message)} ${JSON.stringify(message.components ?? [])} ${String(message.content ?? '')}`.replace(
    /\\+/g,
    '',
  );

const requests = () => world.sandbox.requests(KEY);
const adds = (from: number) =>
  requests()
    .slice(from)
    .filter((r) => r.method === 'POST' && /^\/api\/v2\/crm\/lists\/[^/]+\/creators$/.test(r.path));
const members = async (listId: string) =>
  (await bot.app.service.crm.listCreators({ listId, perPage: 500 })).data.items.map((c) => c.user_id).sort();

/** Chooses `values` in the select `select` of `message`; resolves with the answer and a way to choose again. */
async function choose(message: FakeMessage, select: Component, values: string[]) {
  const data = { custom_id: select.custom_id, component_type: 3, values };
  const chosen = world.fake.interact(3, data, { message });
  const answer = await messageOf(world.fake.waitFor(answered(chosen.token), 'choice answered'));
  return { answer, again: () => world.fake.interact(3, data, { message }) };
}

/** A creators search page, its multi-select of creators and their ids in card order. */
async function searchPage(category: string) {
  const search = slash(world.fake, 'creators', 'search', [{ type: 3, name: 'category', value: category }]);
  const page = await messageOf(world.fake.waitFor(answered(search.token), 'creators page'));
  const chooser = allComponents(page).find(
    (c) => c.type === 3 && c.placeholder === 'Choose creators to add…',
  );
  expect(chooser).toBeDefined();
  const ids = chooser?.options?.map((o) => o.value) ?? [];
  expect(ids).toHaveLength(5);
  return { page, chooser: chooser as Component, ids };
}

describe('Discord: choosing creators of a page', () => {
  it('adds exactly the chosen creators in one request, after asking which list, once', async () => {
    const list = (await bot.app.service.crm.createList({ name: 'Discord Chosen' })).data;
    const { page, chooser, ids } = await searchPage('Fitness');
    const balance = world.sandbox.credits(KEY);

    let from = requests().length;
    const { answer: picker } = await choose(page, chooser, [
      ids[0] as string,
      ids[2] as string,
      ids[4] as string,
    ]);
    expect(picker.flags).toBe(64);
    expect(said(picker)).toContain('the 3 chosen creators');
    expect(adds(from)).toHaveLength(0);

    const lists = allComponents(picker).find((c) => c.type === 3);
    expect(lists?.options?.map((o) => o.value)).toContain(list.id);
    from = requests().length;
    const { answer, again } = await choose(picker, lists as Component, [list.id]);
    expect(said(answer)).toContain('Added 3 of the 3 chosen creators to Discord Chosen.');
    expect(adds(from)).toHaveLength(1);
    expect((adds(from)[0]?.body as { userIds?: string[] } | undefined)?.userIds).toEqual([
      ids[0],
      ids[2],
      ids[4],
    ]);
    expect(await members(list.id)).toEqual([ids[0], ids[2], ids[4]].sort());

    const second = again();
    await world.fake.waitFor(answered(second.token), 'second choice answered');
    expect(adds(from)).toHaveLength(1);
    expect(world.sandbox.credits(KEY)).toBe(balance);
  });

  it('one creator chosen is that creator, named by handle', async () => {
    const { page, chooser, ids } = await searchPage('Food');
    const handle = chooser.options?.find((o) => o.value === ids[1])?.label.split(' · ')[0];
    expect(handle).toMatch(/^@/);
    const from = requests().length;
    const { answer: picker } = await choose(page, chooser, [ids[1] as string]);
    expect(said(picker)).toMatch(
      new RegExp(`Add (\\*\\*)?${handle?.replace(/[.]/g, '\\.')}(\\*\\*)? to which list\\?`),
    );
    expect(adds(from)).toHaveLength(0);
  });
});
