/**
 * The help of one command as a compact card (what it does, how it is typed, its most used options, its cost, and
 * Form and Examples buttons), and of a family as a card listing its commands. Slack and Discord show the cards as
 * they show any; the terminal prints the same reply as text, the buttons numbered.
 */
import { answerButton } from '../core/command/answer-ids.js';
import { commandFormId, formButton, hasForm } from '../core/command/forms/index.js';
import type { ParamTable } from '../core/command/params.js';
import type { CommandDef, CommandFamily } from '../core/command/types.js';
import {
  type Button,
  CARD_FIELDS_MAX,
  type CardNode,
  card,
  fields,
  type ReplyNode,
} from '../core/ui/index.js';
import { groupsOf } from './help-groups.js';
import { byUse, inWords, optionHelp, peopleName, usageInWords } from './help-words.js';

/** A card lists every option of a command that has at most this many; of a longer table, the first CARD_OPTIONS. */
const ALL_ON_CARD = 8;

/** The options a card lists of a command that has more than ALL_ON_CARD, the most used first. */
const CARD_OPTIONS = 6;

/** Optional options a card's usage line names before "…". */
const USAGE_OPTIONS = 3;

/** A cost worth saying beside a command in a family's list (what is free goes without saying there). */
const costNote = (def: CommandDef<unknown>) =>
  def.cost === 'free' ? '' : ` Cost: ${inWords(def.cost, def.params)}.`;

/** Whether `def` is the command its family runs when named alone. */
const isDefault = (family: CommandFamily, def: CommandDef<unknown>) =>
  family.defaultCommand === def.name || family.commands.length === 1;

/**
 * The line that lists every option of `def`: `/scout help creators filters` for a family's default command,
 * `/scout help creators profiles filters` for another; `options` where its options have no headings.
 */
function optionsLine(family: CommandFamily, def: CommandDef<unknown>): string {
  const word = groupsOf(def) === undefined ? 'options' : 'filters';
  return isDefault(family, def)
    ? `/scout help ${def.family} ${word}`
    : `/scout help ${def.family} ${def.name} ${word}`;
}

/** Form (where the command has one) and Examples: the buttons of a command's help. */
function helpButtons(def: CommandDef<unknown>): Button[] {
  return [
    ...(hasForm(def) ? [formButton('Form', commandFormId(def))] : []),
    answerButton('Examples', `help ${def.family} ${def.name} examples`),
  ];
}

/** The help of one command: a card with its usage, most used options, cost and buttons. */
export function commandCard(family: CommandFamily, def: CommandDef<unknown>): CardNode {
  const options = byUse(def.params);
  const shown = options.length <= ALL_ON_CARD ? options : options.slice(0, CARD_OPTIONS);
  const more =
    shown.length < options.length
      ? ` · ${options.length - shown.length} more options: ${optionsLine(family, def)}`
      : '';
  return card({
    title: `/scout ${def.family} ${def.name}`,
    body: [inWords(def.description, def.params), usageInWords(def, USAGE_OPTIONS)],
    fields: shown.map(([name, spec]) => ({
      label: peopleName(name, spec),
      value: optionHelp(name, spec, def.params),
    })),
    footnote: `Cost: ${inWords(def.cost, def.params)}${more}`,
    actions: helpButtons(def),
  });
}

/** Every option name of a family's commands, to read its description in people's words. */
const familyParams = (family: CommandFamily): ParamTable =>
  Object.assign({}, ...family.commands.map((def) => def.params));

/** The help of a family of several commands: a card listing them, each with what it does and what it costs. */
export function familyCard(family: CommandFamily): ReplyNode[] {
  const entries = family.commands.map((def) => ({
    label: `/scout ${def.family} ${def.name}`,
    value: `${inWords(def.description, def.params)}${costNote(def)}`,
  }));
  const first = family.commands.find((def) => isDefault(family, def)) ?? family.commands[0];
  const head = card({
    title: `/scout ${family.name}`,
    body: [inWords(family.description, familyParams(family))],
    fields: entries.slice(0, CARD_FIELDS_MAX),
    footnote:
      first === undefined
        ? null
        : `One command in detail, with its form and examples: /scout help ${family.name} ${first.name}`,
  });
  // A family of more commands than a card has fields goes on in fields of its own.
  const rest = [];
  for (let i = CARD_FIELDS_MAX; i < entries.length; i += CARD_FIELDS_MAX)
    rest.push(fields(entries.slice(i, i + CARD_FIELDS_MAX)));
  return [head, ...rest];
}
