/** `/scout help`: every command, or one family in detail with options, examples and costs. */
import { z } from 'zod';
import { didYouMean, matchChoice } from '../core/command/suggest.js';
import type { CommandDef, CommandFamily, CommandRegistry } from '../core/command/types.js';
import { defineCommand } from '../core/command/types.js';
import { paramNames, usageLine } from '../core/command/usage.js';
import { bold, code, codeBlock, divider, fields, notice, type Reply, reply, text } from '../core/ui/index.js';

function overview(registry: CommandRegistry): Reply {
  return reply([
    text(bold('Scout'), ': find creators, run outreach lists, follow replies and watch viral content.'),
    ...fieldGroups(
      registry.families
        .filter((family) => family.name !== 'help')
        .map((family) => ({ label: `/scout ${family.name}`, value: family.description })),
    ),
    text(
      'Options are written ',
      code('key:value'),
      ' (quote values with spaces: ',
      code('country:"United States"'),
      '); numbers take k/m (',
      code('followers:10k-100k'),
      '). Details of one command: ',
      code('/scout help creators'),
      '.',
    ),
  ]);
}

function optionFields(command: CommandDef<unknown>) {
  const entries = Object.entries(command.params).map(([name, spec]) => ({
    label: paramNames(name, spec),
    value:
      spec.kind === 'choice' || spec.kind === 'choices'
        ? `${spec.description} (${spec.values.length <= 12 ? spec.values.join(', ') : `${spec.values.slice(0, 8).join(', ')}, … ${spec.values.length} values`})`
        : spec.description,
  }));
  return fieldGroups(entries);
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
    command.examples.length === 0
      ? null
      : text('Examples: ', ...command.examples.flatMap((e, i) => [i ? ', ' : '', code(`/scout ${e}`)])),
  ];
}

function detail(family: CommandFamily, only?: CommandDef<unknown>): Reply {
  return reply([
    text(bold(`/scout ${family.name}`), ` — ${family.description}`),
    ...(only === undefined ? family.commands : [only]).flatMap((command) => commandDetail(family, command)),
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
export const helpFamily: CommandFamily = {
  name: 'help',
  aliases: ['?'],
  description: 'Every command, or one family in detail.',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      family: 'help',
      name: 'show',
      description: 'Show every command, or one family in detail with options, examples and costs.',
      params: {
        topic: { kind: 'text', positional: true, description: 'A command family, e.g. creators.' },
        command: { kind: 'text', positional: true, description: 'One of its commands, e.g. search.' },
      },
      schema: z.object({ topic: z.string().max(40).optional(), command: z.string().max(40).optional() }),
      examples: ['help', 'help creators', 'help creators search'],
      cost: 'free',
      estimate: () => 0,
      permission: 'everyone',
      account: 'optional',
      answer,
      run: async (ctx, input) => answer(input, ctx.registry),
    }),
  ],
};
