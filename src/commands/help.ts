/** `/scout help`: every command, or one family in detail with options, examples and costs. */
import { z } from 'zod';
import { SAY_IT } from '../core/chat/guide.js';
import { commandFormId, formButton, hasForm } from '../core/command/forms/index.js';
import type { ParamSpec } from '../core/command/params.js';
import { didYouMean, matchChoice } from '../core/command/suggest.js';
import type { CommandDef, CommandFamily, CommandRegistry } from '../core/command/types.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import { paramNames, shortName, usageLine } from '../core/command/usage.js';
import {
  bold,
  buttons,
  code,
  codeBlock,
  divider,
  fields,
  notice,
  type Reply,
  reply,
  text,
} from '../core/ui/index.js';
import { valuesCommand } from './help-values.js';

function overview(registry: CommandRegistry): Reply {
  return reply([
    text(
      bold('Just say what you want'),
      ', in /scout, a direct message or a mention: ',
      ...SAY_IT.flatMap((example, i) => [i === 0 ? '' : ', ', code(example)]),
      '. What costs credits or changes something is shown first, as the exact command it runs, with Run and Edit.',
    ),
    text(bold('Scout'), ': find creators, run outreach lists, follow replies and watch viral content.'),
    ...fieldGroups(
      registry.families
        .filter((family) => family.name !== 'help')
        .map((family) => ({ label: `/scout ${family.name}`, value: family.description })),
    ),
    text(
      'The exact form, for speed: options are written ',
      code('key:value'),
      ' (quote values with spaces: ',
      code('country:"United States"'),
      '); numbers take k/m (',
      code('followers:10k-100k'),
      '). Details of one command: ',
      code('/scout help creators'),
      '. Commands with options have a form: on Slack one that needs an option opens it when typed alone (',
      code('/scout list update'),
      '); a usage message and the help of one command (',
      code('/scout help creators search'),
      ') have a Form button; on Discord add ',
      code('form:true'),
      ', or leave out an option the command needs.',
    ),
  ]);
}

/** The allowed values of a choice in help: all of a short list, the start of a long one, or their words. */
function allowedValues(name: string, spec: ParamSpec): string | null {
  if (spec.kind !== 'choice' && spec.kind !== 'choices') return null;
  if (spec.valuesText !== undefined) return spec.valuesText;
  if (spec.values.length <= 12) return spec.values.join(', ');
  return `${spec.values.slice(0, 8).join(', ')}, … ${spec.values.length} values, all with /scout help values ${spec.aliases?.[0] ?? name}`;
}

function optionFields(command: CommandDef<unknown>) {
  const entries = Object.entries(command.params).map(([name, spec]) => {
    const allowed = allowedValues(name, spec);
    return {
      label: paramNames(name, spec),
      value: allowed === null ? spec.description : `${spec.description} (${allowed})`,
    };
  });
  return fieldGroups(entries);
}

/** How ranges are written, for commands that have one. */
function rangeHelp(command: CommandDef<unknown>) {
  const ranges = Object.entries(command.params).filter(([, spec]) => spec.kind === 'range');
  const [first] = ranges;
  if (first === undefined) return null;
  const [option, spec] = first;
  const name = shortName(option, spec);
  const decimal = ranges.find(([, s]) => s.kind === 'range' && !s.integer);
  const bound = spec.kind === 'range' ? spec.min : `${option}Min`;
  return text(
    'Ranges: ',
    code(`${name}:10k-100k`),
    ' (both ends included), ',
    code(`${name}:>=10k`),
    ' or ',
    code(`${name}:10k+`),
    ' (at least), ',
    code(`${name}:>10k`),
    ' (more than: from 10,001 on whole numbers',
    decimal === undefined
      ? ''
      : `; on decimals such as ${shortName(...decimal)}, > and < mean at least and at most`,
    '), ',
    code(`${name}:<=1m`),
    ', ',
    code(`${name}:<1m`),
    '; ',
    code(`${bound}:10k`),
    ' sets one bound. A minimum of 0 or less, or a maximum at the top of a scale (100%), filters nothing: leave it out.',
  );
}

/** Fields in nodes of at most 10 pairs (Slack's section limit). */
function fieldGroups(entries: ReadonlyArray<{ label: string; value: string }>) {
  const groups = [];
  for (let i = 0; i < entries.length; i += 10) groups.push(fields(entries.slice(i, i + 10)));
  return groups;
}

function commandDetail(family: CommandFamily, command: CommandDef<unknown>) {
  return [
    divider(),
    text(bold(`${family.name} ${command.name}`), ` — ${command.description} (cost: ${command.cost})`),
    codeBlock(usageLine(command, 100)),
    ...optionFields(command),
    rangeHelp(command),
    command.examples.length === 0
      ? null
      : text('Examples: ', ...command.examples.flatMap((e, i) => [i ? ', ' : '', code(`/scout ${e}`)])),
  ];
}

/** A family in detail, or one of its commands; the help of one command has a button that opens its form. */
function detail(family: CommandFamily, only?: CommandDef<unknown>): Reply {
  const shown = only === undefined ? family.commands : [only];
  const [one] = shown.length === 1 ? shown : [];
  return reply([
    text(bold(`/scout ${family.name}`), ` — ${family.description}`),
    ...shown.flatMap((command) => commandDetail(family, command)),
    one !== undefined && hasForm(one) ? buttons(formButton('Form', commandFormId(one))) : null,
  ]);
}

/** Help on `topic` (a family) and `command`, from the registry alone. */
function answer(
  input: { topic?: string | undefined; command?: string | undefined },
  registry: CommandRegistry,
): Reply {
  if (input.topic === undefined) return overview(registry);
  const family = registry.family(input.topic);
  if (family !== undefined) {
    const command = input.command === undefined ? undefined : registry.command(family.name, input.command);
    if (input.command !== undefined && command === undefined) {
      return reply([
        notice('warning', `/scout ${family.name} has no command "${input.command}".`),
        ...detail(family).nodes,
      ]);
    }
    return detail(family, command);
  }
  const guess = matchChoice(
    input.topic,
    registry.families.map((f) => f.name),
  );
  return reply([
    notice(
      'warning',
      `There is no command "${input.topic}".${guess.ok ? '' : didYouMean(guess.suggestions)}`,
    ),
    ...overview(registry).nodes,
  ]);
}

/** The help family. */
export const helpFamily = defineFamily({
  name: 'help',
  aliases: ['?'],
  description: 'Every command, or one family in detail.',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      name: 'show',
      description: 'Show every command, or one family in detail with options, examples and costs.',
      params: {
        topic: { kind: 'text', positional: true, description: 'A command family, e.g. creators.' },
        command: { kind: 'text', positional: true, description: 'One of its commands, e.g. search.' },
      },
      schema: z.object({ topic: z.string().max(40).optional(), command: z.string().max(40).optional() }),
      examples: ['help', 'help creators', 'help creators search'],
      account: 'optional',
      answer,
      run: async (ctx, input) => answer(input, ctx.registry),
    }),
    valuesCommand,
  ],
});
