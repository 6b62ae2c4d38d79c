/** `/scout help`: every command, or one family in detail with options, examples and costs. */
import { z } from 'zod';
import { didYouMean, matchChoice } from '../core/command/suggest.js';
import type { CommandFamily, CommandRegistry } from '../core/command/types.js';
import { defineCommand } from '../core/command/types.js';
import { paramNames, usageLine } from '../core/command/usage.js';
import { bold, code, codeBlock, divider, fields, notice, type Reply, reply, text } from '../core/ui/index.js';

function overview(registry: CommandRegistry): Reply {
  return reply([
    text(bold('Scout'), ': find creators, run outreach lists, follow replies and watch viral content.'),
    fields(
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

function detail(family: CommandFamily): Reply {
  return reply(
    [
      text(bold(`/scout ${family.name}`), ` — ${family.description}`),
      ...family.commands.flatMap((command) => [
        divider(),
        text(bold(`${family.name} ${command.name}`), ` — ${command.description} (cost: ${command.cost})`),
        codeBlock(usageLine(command, 100)),
        Object.keys(command.params).length === 0
          ? null
          : fields(
              Object.entries(command.params).map(([name, spec]) => ({
                label: paramNames(name, spec),
                value:
                  spec.kind === 'choice' || spec.kind === 'choices'
                    ? `${spec.description} (${spec.values.length <= 12 ? spec.values.join(', ') : `${spec.values.slice(0, 8).join(', ')}, … ${spec.values.length} values`})`
                    : spec.description,
              })),
            ),
        command.examples.length === 0
          ? null
          : text('Examples: ', ...command.examples.flatMap((e, i) => [i ? ', ' : '', code(`/scout ${e}`)])),
      ]),
    ].filter((node) => node !== null),
  );
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
      params: { topic: { kind: 'text', positional: true, description: 'A command family, e.g. creators.' } },
      schema: z.object({ topic: z.string().max(40).optional() }),
      examples: ['help', 'help creators'],
      cost: 'free',
      estimate: () => 0,
      permission: 'everyone',
      async run(ctx, input) {
        if (input.topic === undefined) return overview(ctx.registry);
        const family = ctx.registry.family(input.topic);
        if (family !== undefined) return detail(family);
        const guess = matchChoice(
          input.topic,
          ctx.registry.families.map((f) => f.name),
        );
        return reply([
          notice(
            'warning',
            `There is no command "${input.topic}".${guess.ok ? '' : didYouMean(guess.suggestions)}`,
          ),
          ...overview(ctx.registry).nodes,
        ]);
      },
    }),
  ],
};
