/**
 * Forms on Discord through real discord.js against the fake gateway and REST: `form:true` on any command with
 * options opens its form (a modal of at most five inputs, what was typed filled in), a submission runs the command
 * as typed, and a wrong value is answered privately, naming the field, with a button that opens the form again as
 * it was filled in. Every registered command's form fits Discord's modal limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommandJson } from '../../../src/adapters/discord/commands.js';
import { commandModal, TEXT_INPUT_LIMITS } from '../../../src/adapters/discord/forms.js';
import { DISCORD } from '../../../src/adapters/discord/limits.js';
import { registerCommands } from '../../../src/adapters/discord/registration.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { catalogueOf } from '../../../src/core/chat/index.js';
import { commandFormId, formSpec, hasForm } from '../../../src/core/command/forms/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { FORM_MORE } from '../../../src/core/ui/index.js';
import type { FakeRequest } from '../../fakes/discord-fake.js';
import {
  APP_ID,
  answered,
  type Bot,
  buttonId,
  callback,
  components,
  createWorld,
  GUILD,
  KEY,
  messageOf,
  slash,
  type World,
} from './harness.js';

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
  // Registered, the fake sends only what Discord's client could: the options registered, each required one given.
  const config = { token: 'fake-token', applicationId: APP_ID, apiUrl: world.fake.apiUrl, guildIds: [GUILD] };
  expect(await registerCommands(config, bot.app.chat.catalogue, GUILD)).toBe(1);
});

afterAll(async () => {
  await world?.stop();
});

type TextInput = {
  type: number;
  custom_id: string;
  label: string;
  style: number;
  required: boolean;
  placeholder?: string;
  value?: string;
};
type Modal = { custom_id: string; title: string; components: Array<{ components: TextInput[] }> };

const modalOf = (request: FakeRequest) => {
  expect(request.body).toMatchObject({ type: 9 });
  return (request.body as { data: Modal }).data;
};
const inputsOf = (modal: Modal) => modal.components.flatMap((row) => row.components);
const serviceCalls = (path: string, since: number) =>
  world.sandbox
    .requests(KEY)
    .slice(since)
    .filter((r) => r.path === path);
/** A modal submission with `values` by input id, as Discord sends it. */
const submit = (customId: string, values: Record<string, string>) =>
  world.fake.interact(5, {
    custom_id: customId,
    components: Object.entries(values).map(([id, value]) => ({
      type: 1,
      components: [{ type: 4, custom_id: id, value }],
    })),
  });

describe('forms on Discord', () => {
  it('form:true opens the form first, filled in with what was typed; its submission searches', async () => {
    const { fake } = world;
    const open = slash(fake, 'creators', 'search', [
      { type: 3, name: 'country', value: 'germany' },
      { type: 3, name: 'filters', value: 'hashtags:vegan' },
      { type: 5, name: 'form', value: true },
    ]);
    const shown = await fake.waitFor(callback(open.id), 'modal');
    // The modal is the first answer: nothing else was sent for this interaction.
    const own = fake.requests.filter((r) => r.path.includes(open.id) || r.path.includes(open.token));
    expect(own).toEqual([shown]);
    const modal = modalOf(shown);
    const inputs = inputsOf(modal);
    expect(inputs.length).toBeLessThanOrEqual(DISCORD.MODAL_COMPONENTS_MAX);
    expect(inputs.map((i) => i.custom_id)).toEqual(['source', 'followers', 'country', 'language', FORM_MORE]);
    expect(inputs.find((i) => i.custom_id === 'country')?.value).toBe('germany');
    expect(inputs.find((i) => i.custom_id === FORM_MORE)?.value).toBe('hashtags:vegan');

    const before = world.sandbox.requests(KEY).length;
    const done = submit(modal.custom_id, {
      followers: '>1k',
      country: 'germany',
      [FORM_MORE]: 'hashtags:vegan hairColor:"Blonde hair" bio:yoga accountType:ugc',
    });
    expect((await fake.waitFor(callback(done.id), 'defer')).body).toMatchObject({ type: 5 });
    await fake.waitFor(answered(done.token), 'search answer');
    const [search] = serviceCalls('/api/v2/creators/search', before);
    expect(search?.query).toMatchObject({
      followersMin: '1001',
      country: 'Germany',
      hairColor: 'Blonde hair',
      bio: 'yoga',
      hashtags: 'vegan',
      accountType: expect.stringMatching('ugc'),
    });
  });

  it('a wrong value is answered privately, naming the field, with a button that opens the form as it was', async () => {
    const { fake } = world;
    const open = slash(fake, 'creators', 'search', [{ type: 5, name: 'form', value: true }]);
    const modal = modalOf(await fake.waitFor(callback(open.id), 'modal'));
    const before = world.sandbox.requests(KEY).length;
    const wrong = submit(modal.custom_id, { followers: 'lots', country: 'Germny', [FORM_MORE]: 'bio:yoga' });
    const answer = await fake.waitFor(callback(wrong.id), 'the refusal');
    const data = (answer.body as { type: number; data: Record<string, unknown> }).data;
    expect((answer.body as { type: number }).type).toBe(4);
    expect(data.flags).toBe(64);
    // The description as read, without the escapes that keep its text from being read as markdown.
    const said = ((data.embeds as Array<{ description: string }>)[0]?.description ?? '').replace(/\\/g, '');
    expect(said).toContain('Followers takes a range such as 10k-100k');
    expect(said).toContain('Country cannot be "Germny". Did you mean "Germany"?');
    expect(said).not.toMatch(/Followers: followers|Country: country/);
    expect(world.sandbox.requests(KEY).length).toBe(before);

    const refusal = await messageOf(Promise.resolve({ ...answer, body: data }));
    const again = fake.interact(
      3,
      { custom_id: buttonId(refusal, /^Fix the form$/), component_type: 2 },
      { message: refusal },
    );
    const reopened = modalOf(await fake.waitFor(callback(again.id), 'the form again'));
    const kept = Object.fromEntries(inputsOf(reopened).map((i) => [i.custom_id, i.value]));
    expect(kept).toMatchObject({ followers: 'lots', country: 'Germny', [FORM_MORE]: 'bio:yoga' });

    const fixed = submit(reopened.custom_id, {
      followers: '10k-100k',
      country: 'Germany',
      [FORM_MORE]: 'bio:yoga',
    });
    await fake.waitFor(answered(fixed.token), 'search answer');
    const [search] = serviceCalls('/api/v2/creators/search', before);
    expect(search?.query).toMatchObject({ followersMin: '10000', followersMax: '100000', bio: 'yoga' });
  });

  it('each problem is one sentence naming its field once, every wrong field at once', async () => {
    const { fake } = world;
    const refusalOf = async (family: string, command: string, values: Record<string, string>) => {
      const open = slash(fake, family, command, [{ type: 5, name: 'form', value: true }]);
      const modal = modalOf(await fake.waitFor(callback(open.id), 'modal'));
      const wrong = submit(modal.custom_id, values);
      const answer = await fake.waitFor(callback(wrong.id), 'the refusal');
      const data = (answer.body as { data: { embeds: Array<{ description: string }> } }).data;
      return (data.embeds[0]?.description ?? '').replace(/\\/g, '');
    };
    expect(await refusalOf('creators', 'search', { followers: '>-5' })).toBe(
      '❌ Followers ">-5" is not a range Scout reads: numbers here are 0 or more, such as 10k-100k.',
    );
    expect(await refusalOf('creators', 'search', { followers: '999999999999999999999' })).toBe(
      '❌ "999999999999999999999" is too large for Followers: the largest number accepted is 9,007,199,254,740,991.',
    );
    expect(await refusalOf('viral', 'search', { views: '>=0' })).toBe(
      '❌ Views ">=0" is no filter at all; leave it out.',
    );
    expect(await refusalOf('lists', 'create', { name: 'Cheap', budget: '-5' })).toBe(
      '❌ Budget must be a number of at least 0.',
    );
    expect((await refusalOf('remix', 'video', { url: 'ftp://x', brightness: '7' })).split('\n')).toEqual([
      '❌ URL must be an http(s) URL such as https://example.com/clip.mp4.',
      'Brightness must be a number from -1 to 1.',
    ]);
    const list = (await bot.app.service.crm.createList({ name: 'Unchanged board' })).data;
    const [creator] = (await bot.app.service.creators.search({ perPage: 1 })).data.items;
    await bot.app.service.crm.addCreators({ listId: list.id, userIds: [creator as string] });
    const nothing = await refusalOf('list', 'update', {
      list: 'Unchanged board',
      creator: creator as string,
    });
    expect(nothing).toMatch(/^❌ Nothing to change: give /);
    expect(nothing).toMatch(/\.$/);
  });

  it('a field’s placeholder gives the bounds and examples the command line takes', async () => {
    const { fake } = world;
    const placeholdersOf = async (family: string, command: string) => {
      const open = slash(fake, family, command, [{ type: 5, name: 'form', value: true }]);
      const modal = modalOf(await fake.waitFor(callback(open.id), 'modal'));
      return Object.fromEntries(inputsOf(modal).map((i) => [i.custom_id, i.placeholder ?? '']));
    };
    const viral = await placeholdersOf('viral', 'search');
    expect(viral.views).not.toContain('10k');
    const list = await placeholdersOf('list', 'add');
    expect(list.userIds).not.toContain('Separate several');
    const songs = await placeholdersOf('songs', 'search');
    expect(songs.q).not.toContain('Separate several');
  });

  it('no option is registered required on a command with a form, which opens it when one is left out', async () => {
    const { fake } = world;
    // What a real client can send: `lists create` with nothing, `credits cap` with only who.
    const bare = slash(fake, 'lists', 'create', []);
    const form = modalOf(await fake.waitFor(callback(bare.id), 'modal'));
    expect(form.custom_id).toBe('scout.form-of:lists.create');
    expect(inputsOf(form)[0]).toMatchObject({ custom_id: 'name', required: true });
    const someone = '200000000000000078';
    const half = slash(fake, 'credits', 'cap', [{ type: 3, name: 'who', value: someone }]);
    const cap = modalOf(await fake.waitFor(callback(half.id), 'modal'));
    expect(Object.fromEntries(inputsOf(cap).map((i) => [i.custom_id, i.value]))).toEqual({
      who: someone,
      amount: undefined,
    });
    // A command that needs nothing more runs as typed.
    const run = slash(fake, 'songs', 'search', [{ type: 3, name: 'q', value: 'midnight' }]);
    expect((await fake.waitFor(callback(run.id), 'defer')).body).toMatchObject({ type: 5 });
  });

  it('a creator search given no filter opens its form, and buys nothing', async () => {
    const { fake } = world;
    const since = world.sandbox.requests(KEY).length;
    const bare = slash(fake, 'creators', 'search', []);
    const form = modalOf(await fake.waitFor(callback(bare.id), 'modal'));
    expect(form.custom_id).toBe('scout.form-of:creators.search');
    // Sorting and paging narrow nothing: asked for a filter, nothing is sent.
    const sorted = slash(fake, 'creators', 'search', [{ type: 3, name: 'filters', value: 'sort:followers' }]);
    const answer = await messageOf(fake.waitFor(answered(sorted.token), 'the question'));
    expect(JSON.stringify(answer)).toContain('Which creators? Add a filter');
    // The form submitted empty asks the same, and sends nothing either.
    const empty = submit(form.custom_id, {});
    expect(JSON.stringify((await fake.waitFor(callback(empty.id), 'the refusal')).body)).toContain(
      'Which creators? Add a filter',
    );
    const creators = world.sandbox
      .requests(KEY)
      .slice(since)
      .filter((r) => r.path.includes('/creators'));
    expect(creators).toEqual([]);
  });

  it('a command with a required option: its form asks for it, and the submission runs the command', async () => {
    const { fake } = world;
    const open = slash(fake, 'lists', 'create', [{ type: 5, name: 'form', value: true }]);
    const modal = modalOf(await fake.waitFor(callback(open.id), 'modal'));
    const inputs = inputsOf(modal);
    expect(inputs.map((i) => [i.custom_id, i.required])).toEqual([
      ['name', true],
      ['description', false],
      ['budget', false],
      ['websiteId', false],
    ]);
    const done = submit(modal.custom_id, { name: 'Form launch', budget: '1.5k' });
    await fake.waitFor(answered(done.token), 'created');
    const lists = (await bot.app.service.crm.listLists()).data.lists;
    expect(lists.find((l) => l.name === 'Form launch')?.budget).toBe(1500);
  });

  it('a field’s text is sent as typed: an apostrophe is not a quote', async () => {
    const { fake } = world;
    const open = slash(fake, 'songs', 'search', [{ type: 5, name: 'form', value: true }]);
    const modal = modalOf(await fake.waitFor(callback(open.id), 'modal'));
    const before = world.sandbox.requests(KEY).length;
    // The search needs words to look for: the form asks for them.
    expect(inputsOf(modal)[0]).toMatchObject({ custom_id: 'q', required: true });
    const done = submit(modal.custom_id, { q: `Don't Stop  Believin'` });
    await fake.waitFor(answered(done.token), 'songs answer');
    const [search] = serviceCalls('/api/v1/songs', before);
    expect(search?.query).toMatchObject({ action: 'search', q: `Don't Stop Believin'` });
  });

  it('a contact’s Edit form with a mistake in More options names that mistake alone', async () => {
    const { fake } = world;
    const list = (await bot.app.service.crm.createList({ name: 'Edit board' })).data;
    const [creator] = (await bot.app.service.creators.search({ perPage: 1 })).data.items;
    await bot.app.service.crm.addCreators({ listId: list.id, userIds: [creator as string] });
    const shown = slash(fake, 'list', 'show', [{ type: 3, name: 'list', value: 'Edit board' }]);
    const board = await messageOf(fake.waitFor(answered(shown.token), 'the list'));
    // The table's menu opens the contact, with its buttons.
    const menu = components(board).find((c) => c.type === 3);
    const choose = fake.interact(
      3,
      { custom_id: menu?.custom_id, component_type: 3, values: [menu?.options?.[0]?.value] },
      { message: board },
    );
    const contact = await messageOf(fake.waitFor(answered(choose.token), 'the contact'));
    const press = fake.interact(
      3,
      { custom_id: buttonId(contact, /^Edit$/), component_type: 2 },
      { message: contact },
    );
    const modal = modalOf(await fake.waitFor(callback(press.id), 'the contact form'));
    expect(inputsOf(modal).map((i) => i.custom_id)).toContain(FORM_MORE);
    const wrong = submit(modal.custom_id, { [FORM_MORE]: 'tiktok:"ana' });
    const answer = await fake.waitFor(callback(wrong.id), 'the refusal');
    const data = (answer.body as { data: { embeds: Array<{ description: string }> } }).data;
    const said = (data.embeds[0]?.description ?? '').replace(/\\/g, '');
    expect(said).toContain('More options: A quote is not closed');
    expect(said.split('\n')).toHaveLength(1);
  });

  it('a person is named by user id in a form: anything else is refused on its field, and the form kept', async () => {
    const { fake } = world;
    const admin = { id: '200000000000000031', username: 'boss', permissions: (1n << 3n).toString() };
    const open = slash(fake, 'credits', 'cap', [{ type: 5, name: 'form', value: true }], { user: admin });
    const modal = modalOf(await fake.waitFor(callback(open.id), 'modal'));
    const who = inputsOf(modal).find((i) => i.custom_id === 'who');
    expect(who?.placeholder).toMatch(/^User ID such as \d{17}.*Copy User ID.*, or everyone, or me$/);

    const wrong = fake.interact(
      5,
      {
        custom_id: modal.custom_id,
        components: [
          { type: 1, components: [{ type: 4, custom_id: 'who', value: '@ana' }] },
          { type: 1, components: [{ type: 4, custom_id: 'amount', value: '100' }] },
        ],
      },
      { user: admin },
    );
    const answer = await fake.waitFor(callback(wrong.id), 'the refusal');
    // Answered at once and privately: nothing was deferred, nothing ran.
    expect((answer.body as { type: number }).type).toBe(4);
    const data = (answer.body as { data: Record<string, unknown> }).data;
    expect(data.flags).toBe(64);
    const said = ((data.embeds as Array<{ description: string }>)[0]?.description ?? '').replace(/\\/g, '');
    expect(said).toBe(
      '❌ Who takes a user id such as 80351110224678912, or everyone, or me; "@ana" is not one.',
    );

    const refusal = await messageOf(Promise.resolve({ ...answer, body: data }));
    const again = fake.interact(
      3,
      { custom_id: buttonId(refusal, /^Fix the form$/), component_type: 2 },
      { message: refusal, user: admin },
    );
    const reopened = modalOf(await fake.waitFor(callback(again.id), 'the form again'));
    expect(Object.fromEntries(inputsOf(reopened).map((i) => [i.custom_id, i.value]))).toEqual({
      who: '@ana',
      amount: '100',
    });
    const fixed = fake.interact(
      5,
      {
        custom_id: reopened.custom_id,
        components: [
          { type: 1, components: [{ type: 4, custom_id: 'who', value: '200000000000000077' }] },
          { type: 1, components: [{ type: 4, custom_id: 'amount', value: '100' }] },
        ],
      },
      { user: admin },
    );
    await fake.waitFor(answered(fixed.token), 'cap set');
    const cap = await bot.app.store.settings.dailyCap({
      platform: 'discord',
      workspaceId: GUILD,
      userId: '200000000000000077',
    });
    expect(cap).toBe(100);
  });

  it('a mistake in typed options offers a Form button, which opens the form', async () => {
    const { fake } = world;
    const run = slash(fake, 'creators', 'search', [{ type: 3, name: 'filters', value: 'followers:lots' }]);
    const answer = await messageOf(fake.waitFor(answered(run.token), 'the usage'));
    const press = fake.interact(
      3,
      { custom_id: buttonId(answer, /^Form$/), component_type: 2 },
      { message: answer },
    );
    const modal = modalOf(await fake.waitFor(callback(press.id), 'modal'));
    expect(modal.custom_id).toBe('scout.form-of:creators.search');
  });

  it('registers form:true on every command that takes an option', () => {
    const registry = createRegistry(FAMILIES);
    const [command] = buildCommandJson(catalogueOf(registry));
    type Opt = { name: string; options?: Opt[] };
    const groups = (command?.options ?? []) as Opt[];
    for (const family of registry.families) {
      for (const def of family.commands) {
        const sub = groups.find((g) => g.name === family.name)?.options?.find((s) => s.name === def.name);
        const names = (sub?.options ?? []).map((o) => o.name);
        expect(names.includes('form'), `${def.family} ${def.name}`).toBe(hasForm(def));
      }
    }
  });

  it('builds a form within Discord’s limits for every registered command with options', () => {
    const registry = createRegistry(FAMILIES);
    let built = 0;
    for (const def of registry.families.flatMap((family) => family.commands)) {
      const spec = formSpec(def);
      if (!hasForm(def)) {
        expect(spec).toBeNull();
        continue;
      }
      if (spec === null) throw new Error(`${def.family} ${def.name} has no form`);
      const modal = commandModal(commandFormId(def), spec) as unknown as Modal;
      const what = `${def.family} ${def.name}`;
      expect(modal.custom_id.length, what).toBeLessThanOrEqual(DISCORD.CUSTOM_ID_MAX);
      expect(modal.title.length, what).toBeLessThanOrEqual(DISCORD.MODAL_TITLE_MAX);
      const inputs = inputsOf(modal);
      expect(inputs.length, what).toBeGreaterThan(0);
      expect(inputs.length, what).toBeLessThanOrEqual(DISCORD.MODAL_COMPONENTS_MAX);
      for (const input of inputs) {
        expect(input.label.length, what).toBeLessThanOrEqual(TEXT_INPUT_LIMITS.LABEL_MAX);
        expect(input.label.length, what).toBeGreaterThan(0);
        expect(input.custom_id.length, what).toBeLessThanOrEqual(DISCORD.CUSTOM_ID_MAX);
        expect((input.placeholder ?? '').length, what).toBeLessThanOrEqual(TEXT_INPUT_LIMITS.PLACEHOLDER_MAX);
      }
      // Every option but secrets is reachable: as an input, or by name in the "more" input.
      const shown = new Set(inputs.map((i) => i.custom_id));
      const more = inputs.find((i) => i.custom_id === FORM_MORE)?.placeholder ?? '';
      for (const field of spec.fields) {
        if (!shown.has(field.name)) expect(shown.has(FORM_MORE), `${what} ${field.name}`).toBe(true);
      }
      if (shown.has(FORM_MORE)) expect(more, what).not.toBe('');
      // The placeholder is the form's help: a field's bounds are in it.
      for (const input of inputs) {
        const field = spec.fields.find((f) => f.name === input.custom_id);
        const bounds = /From (-?[\d.]+) to (-?[\d.]+)\./.exec(field?.allows ?? '');
        if (bounds !== null) {
          expect(input.placeholder, `${what} ${input.custom_id}`).toContain(bounds[1]);
          expect(input.placeholder, `${what} ${input.custom_id}`).toContain(bounds[2]);
        }
      }
      // "More options" names the most used options it takes, and where to read of them all.
      const rest = spec.fields.filter((f) => !shown.has(f.name));
      if (rest.length > 0) {
        expect(more, what).toContain(`${rest[0]?.name}:`);
        const named = rest.filter((f) => more.includes(`${f.name}:`));
        if (named.length < rest.length) expect(more, what).toMatch(/ all in \/scout help \S+ \S+ options$/);
        expect(named.length, what).toBeGreaterThanOrEqual(Math.min(rest.length, 3));
      }
      // Required options come first, so Discord's five inputs always hold them.
      for (const field of spec.fields.filter((f) => f.required))
        expect(shown.has(field.name), what).toBe(true);
      built += 1;
    }
    expect(built).toBeGreaterThan(30);
    const remix = registry.command('remix', 'video');
    const remixSpec = remix === undefined ? null : formSpec(remix);
    if (remix === undefined || remixSpec === null) throw new Error('no remix video form');
    const remixInputs = inputsOf(commandModal(commandFormId(remix), remixSpec) as unknown as Modal);
    expect(remixInputs.find((i) => i.custom_id === 'brightness')?.placeholder).toBe(
      'Brightness, -1 to 1. e.g. 0.1',
    );
    expect(remixInputs.find((i) => i.custom_id === FORM_MORE)?.placeholder).toBe(
      'saturation: hue: zoomFactor: volume: removeAudio: gamma: … all in /scout help remix video options',
    );
    // A secret (a service key) is never a field: a command that takes one has no form, only its private form.
    const create = registry.command('lists', 'create');
    if (create === undefined) throw new Error('no lists create');
    const secret = { kind: 'text', secret: true, description: 'A key.' } as const;
    const withKey = { ...create, params: { ...create.params, key: secret } };
    expect(formSpec(create)).not.toBeNull();
    expect(formSpec(withKey)).toBeNull();
    expect(hasForm(withKey)).toBe(false);
  });
});
