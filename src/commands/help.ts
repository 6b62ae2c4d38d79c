/**
 * `/scout help`: every family on one screen; a family as a card listing its commands; one command as a compact card
 * with Form and Examples buttons; behind it, every option of a command (`help creators filters`) and its examples.
 */
import { z } from 'zod';
import { SAY_IT } from '../core/chat/guide.js';
import { didYouMean, fold, matchChoice } from '../core/command/suggest.js';
import type { CommandDef, CommandFamily, CommandRegistry } from '../core/command/types.js';
import { defineCommand, defineFamily } from '../core/command/types.js';
import { bold, code, fields, notice, type Reply, reply, text } from '../core/ui/index.js';
import { commandCard, familyCard } from './help-card.js';
import { examplesPage, optionsPage } from './help-pages.js';
import { valuesCommand } from './help-values.js';

/** Families listed in one fields node each (Slack's section takes 10 fields). */
const FIELDS_PER_NODE = 10;

function overview(registry: CommandRegistry): Reply {
  const families = registry.families
    .filter((family) => family.name !== 'help')
    .map((family) => ({ label: `/scout ${family.name}`, value: family.description }));
  const groups = [];
  for (let i = 0; i < families.length; i += FIELDS_PER_NODE)
    groups.push(fields(families.slice(i, i + FIELDS_PER_NODE)));
  return reply([
    text(
      bold('Just say what you want'),
      ', in /scout, a direct message or a mention:\n',
      ...SAY_IT.flatMap((example, i) => [i === 0 ? '' : ', ', code(example)]),
      '.\nWhat costs credits or changes something is shown first, as the exact command it runs, with Run and Edit.',
    ),
    ...groups,
    text(
      'The exact form, for speed: ',
      code('/scout creators category:Fitness followers:10k-100k'),
      ' (options ',
      code('key:value'),
      ', quotes around spaces, k/m in numbers).\nOne family or command, with its form and examples: ',
      code('/scout help creators'),
      ', ',
      code('/scout help creators search'),
      '.',
    ),
  ]);
}

/** What a third word of help asks of a command: every option, or its examples. */
type Part = 'options' | 'examples';

/** The words that ask for a part, folded. */
const PARTS: Readonly<Record<string, Part>> = {
  options: 'options',
  option: 'options',
  filters: 'options',
  filter: 'options',
  examples: 'examples',
  example: 'examples',
};

const partOf = (word: string): Part | undefined => PARTS[fold(word)];

function partAnswer(def: CommandDef<unknown>, part: Part): Reply {
  return part === 'options' ? optionsPage(def) : examplesPage(def);
}

/** The help of a family: the card of its one command, or a card listing its commands. */
function familyHelp(family: CommandFamily): Reply {
  const [only] = family.commands;
  return reply(
    family.commands.length === 1 && only !== undefined ? [commandCard(family, only)] : familyCard(family),
  );
}

/** The command of a family that a part asked of the family alone stands for: its default, or its only one. */
function commandFor(family: CommandFamily, registry: CommandRegistry) {
  const name = family.defaultCommand ?? (family.commands.length === 1 ? family.commands[0]?.name : undefined);
  return name === undefined ? undefined : registry.command(family.name, name);
}

/** Help of one command of `family`: its card, or the part asked (`help creators search examples`). */
function commandHelp(family: CommandFamily, def: CommandDef<unknown>, part: string | undefined): Reply {
  if (part === undefined) return reply([commandCard(family, def)]);
  const asked = partOf(part);
  if (asked !== undefined) return partAnswer(def, asked);
  return reply([
    notice('warning', `Help of one command shows its options or its examples, not "${part.slice(0, 40)}".`),
    commandCard(family, def),
  ]);
}

/** Help on `topic` (a family), `command` and `part`, from the registry alone. */
function answer(
  input: { topic?: string | undefined; command?: string | undefined; part?: string | undefined },
  registry: CommandRegistry,
): Reply {
  if (input.topic === undefined) return overview(registry);
  const family = registry.family(input.topic);
  if (family === undefined) {
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
  if (input.command === undefined) return familyHelp(family);
  const def = registry.command(family.name, input.command);
  if (def !== undefined) return commandHelp(family, def, input.part);
  const part = partOf(input.command);
  const standsFor = part === undefined || input.part !== undefined ? undefined : commandFor(family, registry);
  if (part !== undefined && standsFor !== undefined) return partAnswer(standsFor, part);
  return reply([
    notice('warning', `/scout ${family.name} has no command "${input.command}".`),
    ...familyHelp(family).nodes,
  ]);
}

/** The help family. */
export const helpFamily = defineFamily({
  name: 'help',
  aliases: ['?'],
  description: 'Every command, or one family or command in detail.',
  defaultCommand: 'show',
  commands: [
    defineCommand({
      name: 'show',
      description: 'Show every command, or one in detail: its options, form, examples and cost.',
      params: {
        topic: { kind: 'text', positional: true, description: 'A command family, e.g. creators.' },
        command: { kind: 'text', positional: true, description: 'One of its commands, e.g. search.' },
        part: {
          kind: 'text',
          positional: true,
          description: 'options (or filters) for every option, examples for examples.',
        },
      },
      schema: z.object({
        topic: z.string().max(40).optional(),
        command: z.string().max(40).optional(),
        part: z.string().max(40).optional(),
      }),
      examples: ['help', 'help creators', 'help creators search', 'help creators filters'],
      account: 'optional',
      answer,
      run: async (ctx, input) => answer(input, ctx.registry),
    }),
    valuesCommand,
  ],
});
