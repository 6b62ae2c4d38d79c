import { describe, expect, it } from 'vitest';
import {
  buildCommandJson,
  COMMAND_LIMITS,
  commandTextLength,
  mapCommand,
} from '../../../src/adapters/discord/commands.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';

const registry = createRegistry(FAMILIES);

type Opt = {
  name: string;
  description: string;
  type: number;
  options?: Opt[];
  choices?: unknown[];
  required?: boolean;
};

describe('buildCommandJson', () => {
  const [command] = buildCommandJson(registry);
  const groups = (command?.options ?? []) as Opt[];

  it('mirrors the families as groups and commands as subcommands within Discord limits', () => {
    expect(command?.name).toBe('scout');
    expect(groups.map((g) => g.name)).toEqual(FAMILIES.map((f) => f.name));
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
    for (const g of groups) walk(g);
  });

  it('registers no secret option: /scout connect key takes its key in a private form', () => {
    const connect = groups.find((g) => g.name === 'connect')?.options?.find((s) => s.name === 'key');
    expect(connect).toBeDefined();
    expect(connect?.options ?? []).toEqual([]);
    const secrets = registry.families.flatMap((f) =>
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

  it('maps commands with too many options to typed options plus filters and a form', () => {
    const search = registry.command('creators', 'search');
    if (search === undefined) throw new Error('no creators search');
    const { typed, overflow } = mapCommand(search);
    expect(typed.length + overflow.length).toBe(Object.keys(search.params).length);
    expect(typed.map((t) => t.param)).toEqual(expect.arrayContaining(['country', 'language', 'followers']));
    const sub = groups.find((g) => g.name === 'creators')?.options?.find((s) => s.name === 'search');
    const names = sub?.options?.map((o) => o.name) ?? [];
    expect(names.slice(-2)).toEqual(['filters', 'form']);
    const country = sub?.options?.find((o) => o.name === 'country') as { autocomplete?: boolean } | undefined;
    expect(country?.autocomplete).toBe(true);
    const sortOrder = sub?.options?.find((o) => o.name === 'sort_order');
    expect(sortOrder?.choices).toEqual([
      { name: 'asc', value: 'asc' },
      { name: 'desc', value: 'desc' },
    ]);
  });
});
