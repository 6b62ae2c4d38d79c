import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ASK_SUBCOMMAND,
  buildCommandJson,
  COMMAND_LIMITS,
  commandTextLength,
  mapCommand,
  STATIC_CHOICES_MAX,
} from '../../../src/adapters/discord/commands.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { type CatalogueCommand, catalogueOf, MESSAGE_MAX } from '../../../src/core/chat/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { type CommandDef, defineCommand, defineFamily } from '../../../src/core/command/types.js';
import { reply } from '../../../src/core/ui/index.js';

const catalogue = catalogueOf(createRegistry(FAMILIES));

/** A declared command, as the catalogue gives it. */
function commandOf(family: string, name: string): CatalogueCommand {
  const found = catalogue.families.find((f) => f.name === family)?.commands.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no ${family} ${name}`);
  return found;
}

type Opt = {
  name: string;
  description: string;
  type: number;
  options?: Opt[];
  choices?: unknown[];
  required?: boolean;
};

/** The subcommand groups of a built command: its top level without `/scout ask`. */
const groupsOf = (command: { options?: unknown } | undefined) =>
  ((command?.options ?? []) as Opt[]).filter((o) => o.type === ApplicationCommandOptionType.SubcommandGroup);

describe('buildCommandJson', () => {
  const [command] = buildCommandJson(catalogue);
  const groups = groupsOf(command);

  it('mirrors the families as groups and commands as subcommands within Discord limits', () => {
    expect(command?.name).toBe('scout');
    expect(groups.map((g) => g.name)).toEqual(FAMILIES.map((f) => f.name));
    // The top level is `ask` and the groups: nothing else.
    expect(((command?.options ?? []) as Opt[]).map((o) => o.name)).toEqual([
      ASK_SUBCOMMAND,
      ...FAMILIES.map((f) => f.name),
    ]);
    expect(commandTextLength(command)).toBeLessThanOrEqual(COMMAND_LIMITS.TOTAL_TEXT_MAX);
    const walk = (o: Opt) => {
      expect(o.name).toMatch(/^[-_a-z0-9]{1,32}$/);
      expect(o.description.length).toBeGreaterThan(0);
      expect(o.description.length).toBeLessThanOrEqual(100);
      expect((o.options ?? []).length).toBeLessThanOrEqual(25);
      expect((o.choices ?? []).length).toBeLessThanOrEqual(25);
      const required = (o.options ?? []).map((x) => x.required === true);
      expect(required).toEqual([...required].sort((a, b) => Number(b) - Number(a)));
      for (const child of o.options ?? []) walk(child);
    };
    for (const g of (command?.options ?? []) as Opt[]) walk(g);
  });

  it('offers /scout ask first, beside the groups: one required text option taking a request in words', () => {
    const [ask] = (command?.options ?? []) as Array<Opt & { options?: Array<Opt & { max_length?: number }> }>;
    expect(ask).toEqual({
      type: ApplicationCommandOptionType.Subcommand,
      name: 'ask',
      description: 'Ask in your own words',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'request',
          description: 'What you want, in your own words: fitness creators in France',
          required: true,
          // What a message is read to: Discord's client refuses more.
          max_length: MESSAGE_MAX,
        },
      ],
    });
  });

  it('refuses a family that would take the name of /scout ask', () => {
    const family = defineFamily({
      name: 'ask',
      description: 'Clashes.',
      commands: [
        defineCommand({
          name: 'show',
          description: 'Shows.',
          params: {},
          schema: z.unknown(),
          examples: [],
          run: async () => reply([]),
        }),
      ],
    });
    expect(() => buildCommandJson(catalogueOf(createRegistry([family])))).toThrow(/may not be named ask/);
  });

  it('marks no option required on a command with a form, so that the form opens without them', () => {
    let required = 0;
    for (const family of catalogue.families) {
      for (const def of family.commands) {
        const sub = groups.find((g) => g.name === family.name)?.options?.find((o) => o.name === def.name);
        required += Object.values(def.params).filter((spec) => spec.required === true).length;
        if (!def.form) continue;
        for (const option of sub?.options ?? [])
          expect(option.required, `${def.family} ${def.name} ${option.name}`).not.toBe(true);
      }
    }
    // Commands do declare required options: Scout, not Discord's client, asks for them.
    expect(required).toBeGreaterThan(20);
  });

  it('registers no secret option: /scout connect key takes its key in a private form', () => {
    const connect = groups.find((g) => g.name === 'connect')?.options?.find((s) => s.name === 'key');
    expect(connect).toBeDefined();
    expect(connect?.options ?? []).toEqual([]);
    const secrets = catalogue.families.flatMap((f) =>
      f.commands.flatMap((c) =>
        Object.entries(c.params)
          .filter(([, spec]) => spec.secret === true)
          .map(([name]) => ({ def: c, name })),
      ),
    );
    expect(secrets.map((s) => `${s.def.family} ${s.def.name} ${s.name}`)).toContain('connect key key');
    for (const { def, name } of secrets) {
      const mapping = mapCommand(def);
      expect([...mapping.typed, ...mapping.overflow].map((m) => m.param)).not.toContain(name);
    }
  });

  it('types the long enumerations of a command with many options; the rest go to filters and a form', () => {
    const search = commandOf('creators', 'search');
    const { typed, overflow } = mapCommand(search);
    expect(typed.length + overflow.length).toBe(Object.keys(search.params).length);
    expect(typed.map((t) => t.param)).toEqual(['mainCategory', 'country', 'language']);
    expect(overflow.map((t) => t.param)).toEqual(expect.arrayContaining(['followers', 'sortOrder', 'bio']));
    const sub = groups.find((g) => g.name === 'creators')?.options?.find((s) => s.name === 'search');
    const names = sub?.options?.map((o) => o.name) ?? [];
    expect(names).toEqual(['category', 'country', 'language', 'filters', 'form']);
    const country = sub?.options?.find((o) => o.name === 'country') as { autocomplete?: boolean } | undefined;
    expect(country?.autocomplete).toBe(true);
  });

  it('types every option of a command whose options take fewer characters than filters', () => {
    const help = commandOf('help', 'show');
    expect(mapCommand(help)).toMatchObject({ overflow: [] });
    expect(mapCommand(help).typed.map((t) => t.param)).toEqual(['topic', 'command', 'part']);
  });

  it('reaches the options of a command whose options cost more than filters through filters', () => {
    const rankings = commandOf('songs', 'rankings');
    // The long enumerations people filter by most stay typed.
    expect(mapCommand(rankings).typed.map((t) => t.param)).toEqual(['country']);
    expect(mapCommand(rankings).overflow.map((t) => t.param)).toEqual(['week']);
  });
});

/**
 * Every subcommand's options as registered, in order: `name:Type`, `!` when required, `~` when it autocompletes,
 * `=a|b` its static choices. Which options a command types, and in which order, is decided by the declarations.
 */
const REGISTERED: Record<string, string> = {
  'creators search': 'category:String~ country:String~ language:String~ filters:String~ form:Boolean',
  'creators profiles': 'category:String~ country:String~ language:String~ filters:String~ form:Boolean',
  'creators show': 'who:String filters:String~ form:Boolean',
  'creators link': 'url:String form:Boolean',
  'lists show': '',
  'lists create': 'name:String filters:String~ form:Boolean',
  'lists rename': 'list:String~ name:String form:Boolean',
  'lists describe': 'list:String~ description:String form:Boolean',
  'lists get': 'list:String~ form:Boolean',
  'list show': 'list:String~ filters:String~ form:Boolean',
  'list export': 'list:String~ filters:String~ form:Boolean',
  'list add': 'list:String~ user-ids:String filters:String~ form:Boolean',
  'list check': 'list:String~ user-ids:String form:Boolean',
  'list remove': 'list:String~ creator:String form:Boolean',
  'list update': 'list:String~ creator:String filters:String~ form:Boolean',
  'viral search': 'categories:String~ countries:String~ filters:String~ form:Boolean',
  'songs countries': '',
  'songs weeks': 'country:String form:Boolean',
  'songs date-ranges': '',
  'songs rankings': 'country:String filters:String~ form:Boolean',
  'songs global': 'filters:String~ form:Boolean',
  'songs new-entries': 'country:String form:Boolean',
  'songs search': 'q:String form:Boolean',
  'songs history': 'song:String country:String form:Boolean',
  'songs compare': 'country:String filters:String~ form:Boolean',
  'videos search': 'filters:String~ form:Boolean',
  'outreach projects': '',
  'outreach messages': 'filters:String~ form:Boolean',
  'outreach conversation': 'thread:String form:Boolean',
  'outreach contacted': 'filters:String~ form:Boolean',
  'remix image': 'urls:String filters:String~ form:Boolean',
  'remix video': 'url:String filters:String~ form:Boolean',
  'notify on': 'filters:String~ form:Boolean',
  'notify off': 'filters:String~ form:Boolean',
  'notify list': '',
  'digest add': 'time:String tz:String categories:String~ countries:String~ filters:String~ form:Boolean',
  'digest list': '',
  'digest remove': 'id:Integer form:Boolean',
  'digest preview': 'categories:String~ countries:String~ filters:String~ form:Boolean',
  'credits show': '',
  'credits cap': 'who:String amount:String form:Boolean',
  'connect show': '',
  'connect key': '',
  'disconnect key': '',
  'admins list': '',
  'admins add': 'who:String form:Boolean',
  'admins remove': 'who:String form:Boolean',
  'help show': 'topic:String command:String part:String form:Boolean',
  'help values': 'option:String form:Boolean',
};

describe('the options each subcommand registers', () => {
  const [command] = buildCommandJson(catalogue);
  type Registered = Omit<Opt, 'choices'> & { autocomplete?: boolean; choices?: { value: string }[] };
  const shown = (o: Registered) =>
    `${o.name}:${ApplicationCommandOptionType[o.type]}${o.required === true ? '!' : ''}` +
    `${o.autocomplete === true ? '~' : ''}${o.choices === undefined ? '' : `=${o.choices.map((c) => c.value).join('|')}`}`;

  it('are the declared ones the command types, in declared order, then filters and form', () => {
    const registered = Object.fromEntries(
      groupsOf(command).flatMap((group) =>
        (group.options ?? []).map((sub) => [
          `${group.name} ${sub.name}`,
          ((sub.options ?? []) as Registered[]).map(shown).join(' '),
        ]),
      ),
    );
    expect(registered).toEqual(REGISTERED);
  });
});

describe('enumerations', () => {
  const command = (params: CommandDef<unknown>['params']) =>
    defineCommand({
      name: 'pick',
      description: 'Pick values.',
      params,
      schema: z.unknown(),
      examples: [],
      run: async () => reply([]),
    });
  const values = (n: number) => Array.from({ length: n }, (_, i) => `value${i}`);
  const [built] = buildCommandJson(
    catalogueOf(
      createRegistry([
        defineFamily({
          name: 'test',
          description: 'Test family.',
          commands: [
            command({
              order: { kind: 'choice', values: ['asc', 'desc'], description: 'Sort order.', required: true },
              tone: {
                kind: 'choice',
                values: values(5),
                description: 'A tone.',
                required: true,
              },
              tones: { kind: 'choices', values: ['a', 'b'], description: 'Tones.', required: true },
            }),
          ],
        }),
      ]),
    ),
  );
  const options = groupsOf(built)[0]?.options?.[0]?.options ?? [];

  it('lists the values of a short enumeration as static choices', () => {
    expect(options.find((o) => o.name === 'order')?.choices).toEqual([
      { name: 'asc', value: 'asc' },
      { name: 'desc', value: 'desc' },
    ]);
  });

  it('completes an enumeration of five values, and any comma list, as it is typed instead', () => {
    expect(STATIC_CHOICES_MAX).toBeLessThan(5);
    for (const name of ['tone', 'tones']) {
      const option = options.find((o) => o.name === name) as Opt & { autocomplete?: boolean };
      expect(option.choices).toBeUndefined();
      expect(option.autocomplete).toBe(true);
    }
  });
});
