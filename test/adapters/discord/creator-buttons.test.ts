/**
 * Find creator on viral posts and Add all on this page over Discord, through discord.js against the fake gateway
 * and REST and the sandbox: Find creator costs nothing and shows the creator with Add to list; Add all adds the
 * page in one CRM request through the same list select as Add to list, once however often it is chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../fakes/discord-fake.js';
import {
  answered,
  type Bot,
  components,
  createWorld,
  KEY,
  messageOf,
  press,
  slash,
  text,
  titles,
  type World,
} from './harness.js';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
});

afterAll(async () => {
  await world?.stop();
});

const requests = () => world.sandbox.requests(KEY);
const calls = (from: number) =>
  requests()
    .slice(from)
    .map((r) => `${r.method} ${r.path}`);
const adds = (from: number) =>
  requests()
    .slice(from)
    .filter((r) => r.method === 'POST' && /^\/api\/v2\/crm\/lists\/[^/]+\/creators$/.test(r.path));
const members = async (listId: string) =>
  (await bot.app.service.crm.listCreators({ listId, perPage: 500 })).data.items.map((c) => c.user_id).sort();

/** A message's embeds as text, without the markdown escapes (`\\@`). */
const plain = (message: FakeMessage) => text(message).replace(/\\+/g, '');

/** Chooses `value` in the select of `message`; resolves with the answer and the interaction. */
async function choose(message: FakeMessage, value: string) {
  const select = components(message).find((c) => c.type === 3);
  expect(select?.options?.map((o) => o.value)).toContain(value);
  const interaction = { custom_id: select?.custom_id, component_type: 3, values: [value] };
  const chosen = world.fake.interact(3, interaction, { message });
  const answer = await messageOf(world.fake.waitFor(answered(chosen.token), 'choice answered'));
  return { answer, again: () => world.fake.interact(3, interaction, { message }) };
}

describe('Discord: Find creator on a viral post', () => {
  it('searches for free by the username and offers Add to list, which adds the creator', async () => {
    const { fake } = world;
    const list = (await bot.app.service.crm.createList({ name: 'Discord Finds' })).data;
    const search = slash(fake, 'viral', 'search', [{ type: 3, name: 'categories', value: 'Fitness' }]);
    const page = await messageOf(fake.waitFor(answered(search.token), 'viral page'));
    const finds = components(page).filter((c) => c.type === 2 && /Find creator$/.test(c.label ?? ''));
    expect(finds).toHaveLength(5);
    const username = /@(\S+)/.exec(titles(page)[0] ?? '')?.[1]?.replace(/\\/g, '');
    expect(username).toBeDefined();

    const from = requests().length;
    const balance = world.sandbox.credits(KEY);
    // The first card's: a page's cards are Components V2 sections, each with its buttons in a row under it.
    const find = press(fake, page, /^Find creator$/);
    const found = await messageOf(fake.waitFor(answered(find.token), 'find answered'));
    expect(found.flags).toBe(64);
    // The one hit's handle is not known before buying: a match, not "the creator".
    expect(text(found)).toContain('found 1 creator whose handle matches');
    expect(text(found)).toContain('Match 1');
    expect(plain(found)).toContain(`@${username}`);
    expect(components(found).map((c) => c.label)).toEqual(['Add to list', 'Details · 1 credit']);
    // One free search by the post's username; no profile bought, no credit spent.
    expect(calls(from)).toEqual(['GET /api/v2/creators/search']);
    expect(requests().at(-1)?.query).toMatchObject({ username });
    expect(world.sandbox.credits(KEY)).toBe(balance);

    const add = press(fake, found, /^Add to list$/);
    const picker = await messageOf(fake.waitFor(answered(add.token), 'picker'));
    const { answer } = await choose(picker, list.id);
    const id = /creator id `?([\w.-]+)/.exec(plain(found))?.[1];
    expect(id).toBeDefined();
    expect(plain(answer)).toContain(`Added ${id} to Discord Finds.`);
    const contacts = (await bot.app.service.crm.listCreators({ listId: list.id })).data.items;
    expect(contacts.map((c) => c.handle)).toEqual([username]);
    expect(calls(from).filter((c) => c.includes('/creators/get') || c.includes('viral'))).toEqual([]);
    expect(world.sandbox.credits(KEY)).toBe(balance);
  });
});

describe('Discord: Add all on this page', () => {
  it('adds every creator of the page in one request, once however often the list is chosen', async () => {
    const { fake } = world;
    const list = (await bot.app.service.crm.createList({ name: 'Discord Page' })).data;
    let from = requests().length;
    const search = slash(fake, 'creators', 'search', [{ type: 3, name: 'followers', value: '>5k' }]);
    const page = await messageOf(fake.waitFor(answered(search.token), 'creators page'));
    const get = requests()
      .slice(from)
      .find((r) => r.path === '/api/v2/creators/get');
    const ids = ((get?.body as { userIds?: string[] } | undefined)?.userIds ?? []).slice().sort();
    expect(ids).toHaveLength(5);

    const addAll = press(fake, page, /^Add all on this page$/);
    const picker = await messageOf(fake.waitFor(answered(addAll.token), 'picker'));
    expect(picker.flags).toBe(64);
    expect(text(picker)).toContain('the 5 creators on this page');

    from = requests().length;
    const { answer, again } = await choose(picker, list.id);
    expect(text(answer)).toContain('Added 5 of the 5 creators on this page to Discord Page.');
    expect(text(answer)).toMatch(/"name":"Added","value":"5"/);
    expect(text(answer)).toMatch(/"name":"Already there","value":"0"/);
    expect(adds(from)).toHaveLength(1);
    expect(adds(from)[0]?.body).toEqual({ userIds: expect.any(Array), status: 'TO_OUTREACH' });
    expect(await members(list.id)).toEqual(ids);

    const second = again();
    await fake.waitFor(answered(second.token), 'second choice answered');
    expect(adds(from)).toHaveLength(1);
    expect(await members(list.id)).toEqual(ids);
  });
});
