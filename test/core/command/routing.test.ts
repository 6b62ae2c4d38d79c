import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CommandInputError } from '../../../src/core/command/errors.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import {
  commandNameOf,
  familyOfElement,
  familyOfLine,
  keyedTokens,
  lineOf,
  resolveText,
} from '../../../src/core/command/routing.js';
import { TokenizeError, tokenize } from '../../../src/core/command/tokenize.js';
import { type CommandDef, defineCommand, defineFamily } from '../../../src/core/command/types.js';
import { reply } from '../../../src/core/ui/index.js';

const command = (family: string, name: string) =>
  defineCommand({
    name,
    description: `${family} ${name}`,
    params: { query: { kind: 'text', positional: true, description: 'What to look for.' } },
    schema: z.object({ query: z.string().optional() }),
    examples: [`${family} ${name}`],
    run: async () => reply([]),
  });

const families = [
  defineFamily({ name: 'help', description: 'Help.', commands: [command('help', 'show')] }),
  defineFamily({
    name: 'creators',
    aliases: ['creator'],
    description: 'Creators.',
    defaultCommand: 'search',
    commands: [command('creators', 'search'), command('creators', 'show')],
  }),
  defineFamily({
    name: 'list',
    description: 'Lists.',
    commands: [command('list', 'show'), command('list', 'create')],
  }),
];
const registry = createRegistry(families);
const routed = (line: string) => {
  const { def, tokens, text } = resolveText(registry, line);
  return { command: `${def.family} ${def.name}`, tokens: tokens.map((t) => t.source), text };
};
const refusal = (line: string) => {
  try {
    resolveText(registry, line);
  } catch (error) {
    expect(error).toBeInstanceOf(CommandInputError);
    return (error as Error).message;
  }
  throw new Error(`"${line}" resolved`);
};

describe('routing a command line', () => {
  it('finds the command a line names, with or without /scout, by family alias, and its option tokens', () => {
    expect(routed('/scout creators show 42 extra')).toEqual({
      command: 'creators show',
      tokens: ['42', 'extra'],
      text: 'creators show 42 extra',
    });
    expect(routed('  SCOUT creator show x')).toMatchObject({ command: 'creators show', tokens: ['x'] });
    expect(routed('list create name:"Spring Launch"')).toMatchObject({
      command: 'list create',
      tokens: ['name:"Spring Launch"'],
    });
  });

  it("runs the family's default command when the second word names none", () => {
    expect(routed('creators')).toMatchObject({ command: 'creators search', tokens: [] });
    expect(routed('creators fitness country:US')).toMatchObject({
      command: 'creators search',
      tokens: ['fitness', 'country:US'],
    });
  });

  it('shows help for an empty line or one of options only', () => {
    expect(routed('/scout')).toEqual({ command: 'help show', tokens: [], text: '' });
    expect(routed('page:2')).toMatchObject({ command: 'help show', tokens: ['page:2'] });
    expect(() => resolveText(createRegistry([]), '')).toThrow('Type a command, such as /scout help.');
  });

  it('says what comes closest to an unknown family or subcommand, and what the family offers', () => {
    expect(refusal('craetors')).toBe(
      'Unknown command "craetors". Did you mean "creators"? Type /scout help to see every command.',
    );
    expect(refusal('list shwo')).toBe(
      'Unknown subcommand "shwo". Did you mean "show"? Try: /scout list show, /scout list create.',
    );
    expect(refusal('list')).toBe(
      '/scout list needs a subcommand. Try: /scout list show, /scout list create.',
    );
    expect(() => resolveText(registry, 'list show name:"open')).toThrow(TokenizeError);
  });

  it('names the command of a line, and null for none', () => {
    expect(commandNameOf(registry, 'creators fitness')).toBe('creators search');
    expect(commandNameOf(registry, 'nothing here')).toBeNull();
    expect(commandNameOf(registry, '')).toBeNull();
    expect(commandNameOf(registry, null)).toBeNull();
  });

  it('counts a line by its first word, and an element by the command that made it, else its kind', () => {
    expect(familyOfLine(registry, '/scout creator show 1')).toBe('creators');
    expect(familyOfLine(registry, '  ')).toBe('help');
    expect(familyOfLine(registry, 'tets')).toBe('unknown');
    expect(familyOfElement(registry, 'list.status', 'creators search fitness')).toBe('creators');
    expect(familyOfElement(registry, 'list.status', null)).toBe('list');
    expect(familyOfElement(registry, 'nope.page', 'not a command')).toBe('unknown');
  });

  it('writes a command and its tokens as a line that tokenizes back to them', () => {
    const def = registry.command('list', 'create') as CommandDef<unknown>;
    const values = { name: 'Spring "Launch" 2026', notes: "it's: here", empty: '' };
    const line = lineOf(def, [...tokenize('first'), ...keyedTokens(values)]);
    const [family, name, ...rest] = tokenize(line);
    expect([family?.value, name?.value]).toEqual(['list', 'create']);
    expect(rest.map((t) => [t.key, t.value])).toEqual([[null, 'first'], ...Object.entries(values)]);
  });
});
