/**
 * Registering `/scout` through discord.js's REST client against the fake Discord, which counts a command's size the
 * way Discord does and refuses one beyond Discord's limits: the command stays within Scout's 6,000-character
 * budget, every option carries its declared description, and long enumerations autocomplete instead of taking
 * characters as static choices.
 */
import { REST, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_TEXT_BUDGET,
  commandTextLength,
  STATIC_CHOICES_MAX,
} from '../../../src/adapters/discord/commands.js';
import { registerCommands } from '../../../src/adapters/discord/registration.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { catalogueOf } from '../../../src/core/chat/index.js';
import type { ParamSpec } from '../../../src/core/command/params.js';
import { peopleName } from '../../../src/core/command/people-names.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { createFakeDiscord, discordCommandSize, type FakeDiscord } from '../../fakes/discord-fake.js';

const APP_ID = '100000000000000001';
const GUILD = '300000000000000001';

type Option = {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: Array<{ name: string; value: string }>;
  options?: Option[];
};

const registry = createRegistry(FAMILIES);
let fake: FakeDiscord;
let registered: { name: string; description: string; options: Option[] };

beforeAll(async () => {
  fake = createFakeDiscord({ applicationId: APP_ID, guildId: GUILD, channelId: '400000000000000001' });
  await fake.start();
  const config = { token: 'fake-token', applicationId: APP_ID, apiUrl: fake.apiUrl, guildIds: [GUILD] };
  expect(await registerCommands(config, catalogueOf(registry), GUILD)).toBe(1);
  const put = await fake.waitFor((r) => r.method === 'PUT', 'the command overwrite');
  expect(put.refused).toBeUndefined();
  const [command] = put.body as Array<typeof registered>;
  if (command === undefined) throw new Error('No command registered');
  registered = command;
});

afterAll(async () => {
  await fake?.stop();
});

/** The registered subcommand groups, one per family: the top level without `/scout ask`. */
const groups = () => registered.options.filter((o) => o.type === 2);

/** Each registered option with the declaration it came from (a subcommand's options, group by group). */
function declaredOptions() {
  const found: Array<{ where: string; option: Option; spec: ParamSpec | undefined }> = [];
  for (const group of groups()) {
    for (const sub of group.options ?? []) {
      const def = registry.families
        .find((f) => f.name === group.name)
        ?.commands.find((c) => c.name === sub.name);
      if (def === undefined) throw new Error(`${group.name} ${sub.name} is not a declared command`);
      const params = new Map(
        // Each option is registered by the name people are given for it (`category` for `mainCategory`).
        Object.entries(def.params).map(([param, spec]) => [peopleName(param, spec), spec]),
      );
      for (const option of sub.options ?? []) {
        found.push({
          where: `${group.name} ${sub.name} ${option.name}`,
          option,
          spec: params.get(option.name),
        });
      }
    }
  }
  return found;
}

const words = (text: string) => text.replace(/…$/, '').split(' ');

describe('the registered /scout command', () => {
  it('takes a request in words through /scout ask, first at the top level beside one group per family', () => {
    expect(registered.options.map((o) => o.name)).toEqual(['ask', ...registry.families.map((f) => f.name)]);
    const [ask] = registered.options;
    expect(ask).toMatchObject({ type: 1, name: 'ask', description: 'Ask in your own words' });
    // Its one option is required (Discord's client sends nothing without it) and described whole.
    expect(ask?.options).toEqual([
      {
        type: 3,
        name: 'request',
        description: 'What you want, in your own words: fitness creators in France',
        required: true,
        max_length: 2000,
      },
    ]);
  });

  it("is within Scout's budget of 6,000 characters as Discord counts them", () => {
    const size = discordCommandSize(registered);
    expect(size).toBeLessThanOrEqual(COMMAND_TEXT_BUDGET);
    expect(COMMAND_TEXT_BUDGET).toBe(6000);
    // Scout's own count, which chooses how long descriptions may be, is Discord's.
    expect(commandTextLength(registered)).toBe(size);
  });

  it('gives every declared option its whole declared description', () => {
    const options = declaredOptions().filter((o) => o.spec !== undefined);
    expect(options.length).toBeGreaterThan(40);
    for (const { where, option, spec } of options) {
      const declared = (spec as ParamSpec).description;
      if (declared.length <= 100) expect(option.description, where).toBe(declared);
      else {
        // Longer than Discord takes: cut where a word ends, never to a stub.
        expect(option.description.length, where).toBeLessThanOrEqual(100);
        expect(option.description.length, where).toBeGreaterThanOrEqual(60);
        expect(declared.startsWith(option.description.replace(/…$/, '')), where).toBe(true);
        expect(declared.split(' ')).toEqual(expect.arrayContaining(words(option.description)));
      }
    }
    // The options that are not declarations (filters, form) describe themselves in full words too.
    for (const { where, option } of declaredOptions().filter((o) => o.spec === undefined)) {
      expect(['filters', 'form'], where).toContain(option.name);
      expect(option.description, where).toMatch(/^[A-Z][a-z]+( [a-z:]+){2,}$/);
    }
  });

  it('describes each subcommand whole, or cut where a word ends and never to a stub', () => {
    for (const group of groups()) {
      for (const sub of group.options ?? []) {
        const declared = registry.command(group.name, sub.name)?.description ?? '';
        const shown = sub.description;
        if (shown === declared) continue;
        expect(shown.endsWith('…'), `${group.name} ${sub.name}`).toBe(true);
        // Cut to 35 characters since /scout ask took its place in the budget, a long word at the cut taking a
        // few more: a description still says what its command does ("Full profiles by filter (v1…").
        expect(shown.length, `${group.name} ${sub.name}`).toBeGreaterThanOrEqual(25);
        const kept = shown.slice(0, -1);
        expect(declared.startsWith(kept), `${group.name} ${sub.name}`).toBe(true);
        // The cut falls between words: the next character of the declaration is a space or punctuation.
        expect(declared.charAt(kept.length), `${group.name} ${sub.name}`).toMatch(/[\s,;:(]/);
      }
    }
  });

  it('lists static choices only for the shortest enumerations; longer ones and comma lists autocomplete', () => {
    const enumerations = declaredOptions().filter(
      (o) => o.spec?.kind === 'choice' || o.spec?.kind === 'choices',
    );
    expect(enumerations.map((o) => o.where)).toEqual(
      expect.arrayContaining([
        'creators search category',
        'viral search categories',
        'creators search country',
      ]),
    );
    for (const { where, option, spec } of enumerations) {
      const values = (spec as ParamSpec & { values: readonly string[] }).values;
      if (spec?.kind === 'choice' && values.length <= STATIC_CHOICES_MAX) {
        expect(
          option.choices?.map((c) => c.value),
          where,
        ).toEqual(values);
      } else {
        expect(option.choices, where).toBeUndefined();
        expect(option.autocomplete, where).toBe(true);
      }
    }
  });

  it('reaches the options without a typed option through filters (completed as typed) and a form', () => {
    const search = groups()
      .find((g) => g.name === 'viral')
      ?.options?.find((s) => s.name === 'search');
    const names = search?.options?.map((o) => o.name) ?? [];
    expect(names.slice(-2)).toEqual(['filters', 'form']);
    expect(search?.options?.find((o) => o.name === 'filters')?.autocomplete).toBe(true);
  });
});

describe('the fake Discord', () => {
  it('refuses a command over 8,000 characters, counting the longest localization of each field', async () => {
    const rest = new REST({ api: fake.apiUrl, retries: 0 }).setToken('fake-token');
    const long = 'x'.repeat(100);
    const option = (name: string) => ({
      type: 3,
      name,
      description: long,
      name_localizations: { de: name.repeat(32) },
    });
    const options = Array.from({ length: 25 }, (_, i) => ({
      type: 1,
      name: `s${String(i).padStart(2, '0')}`,
      description: 'short',
      description_localizations: { fr: long },
      options: [option('a'), option('b')],
    }));
    const body = [{ name: 'big', description: 'A big command', options }];
    // Each localization counts instead of its shorter default: 25 × (3 + 100 + 2 × (32 + 100)) + 3 + 13, where
    // the defaults alone would be 25 × (3 + 5 + 2 × (1 + 100)) + 16 = 5,266.
    expect(discordCommandSize(body[0])).toBe(25 * (3 + 100 + 2 * (32 + 100)) + 16);
    expect(commandTextLength(body[0])).toBe(discordCommandSize(body[0]));
    const before = fake.requests.length;
    await expect(rest.put(Routes.applicationGuildCommands(APP_ID, GUILD), { body })).rejects.toThrow(
      /Invalid Form Body/,
    );
    expect(fake.requests.slice(before).map((r) => r.refused)).toEqual([
      `command big is ${25 * (3 + 100 + 2 * (32 + 100)) + 16} characters, over 8000`,
    ]);
  });
});
