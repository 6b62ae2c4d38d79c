/**
 * `/scout help values <option>`: every value an option takes, in full, where help of a command shows only how many
 * a long list has (the 58 categories). Read from the declarations, so a value list changes in one place; options and
 * values in people's words (help-words.ts).
 */
import { z } from 'zod';
import { type ParamSpec, resolveOption } from '../core/command/params.js';
import { didYouMean, fold, matchChoice } from '../core/command/suggest.js';
import { type CommandRegistry, defineCommand } from '../core/command/types.js';
import { bold, code, notice, type Reply, reply, TEXT_MAX, text } from '../core/ui/index.js';
import { peopleName, valueWord } from './help-words.js';

/** One list of values and the commands whose option takes it. */
interface ValueList {
  name: string;
  commands: string[];
  values: readonly string[];
}

/** The value lists of every option named `typed` (its name or an alias), one per distinct list. */
function valueLists(registry: CommandRegistry, typed: string): ValueList[] {
  const lists = new Map<string, ValueList>();
  for (const family of registry.families) {
    for (const def of family.commands) {
      const found = resolveOption(def.params, typed);
      const spec: ParamSpec | undefined = found?.spec;
      if (found === null || spec === undefined || (spec.kind !== 'choice' && spec.kind !== 'choices'))
        continue;
      const key = JSON.stringify(spec.values);
      const list = lists.get(key) ?? {
        name: peopleName(found.name, spec),
        commands: [],
        values: spec.values.map(valueWord),
      };
      list.commands.push(`/scout ${def.family} ${def.name}`);
      lists.set(key, list);
    }
  }
  return [...lists.values()];
}

/** Every option name (and alias) that has a list of values, for the answer to `help values` alone. */
function optionsWithValues(registry: CommandRegistry): string[] {
  const names = new Set<string>();
  for (const family of registry.families)
    for (const def of family.commands)
      for (const [name, spec] of Object.entries(def.params))
        if (spec.kind === 'choice' || spec.kind === 'choices') names.add(peopleName(name, spec));
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** Values joined by commas, in as many text nodes as the platforms' text limit needs. */
function chunks(values: readonly string[]) {
  const nodes = [];
  let line = '';
  for (const value of values) {
    const next = line === '' ? value : `${line}, ${value}`;
    if (next.length > TEXT_MAX - 10) {
      nodes.push(text(line));
      line = value;
    } else line = next;
  }
  if (line !== '') nodes.push(text(line));
  return nodes;
}

/** The answer to `help values [option]`, from the declarations alone. */
export function valuesAnswer(input: { option?: string | undefined }, registry: CommandRegistry): Reply {
  const known = optionsWithValues(registry);
  if (input.option === undefined) {
    return reply([
      text(
        'Options with a list of values: ',
        ...known.flatMap((name, i) => [i === 0 ? '' : ', ', code(name)]),
      ),
      text('All of one: ', code('/scout help values category')),
    ]);
  }
  const lists = valueLists(registry, input.option);
  if (lists.length === 0) {
    const guess = matchChoice(fold(input.option), known);
    return reply([
      notice(
        'warning',
        `"${input.option.slice(0, 40)}" is not an option with a list of values.${guess.ok ? '' : didYouMean(guess.suggestions)}`,
      ),
    ]);
  }
  return reply(
    lists.flatMap((list) => [
      text(bold(`${list.name} (${list.values.length} values)`), ` — ${list.commands.join(', ')}:`),
      ...chunks(list.values),
    ]),
  );
}

/** `help values`: every value of an option, in full. */
export const valuesCommand = defineCommand({
  name: 'values',
  description: 'Every value an option takes, in full: help values category.',
  params: {
    option: { kind: 'text', positional: true, description: 'e.g. category' },
  },
  schema: z.object({ option: z.string().max(40).optional() }),
  examples: ['help values category', 'help values country'],
  account: 'optional',
  answer: valuesAnswer,
  run: async (ctx, input) => valuesAnswer(input, ctx.registry),
});
