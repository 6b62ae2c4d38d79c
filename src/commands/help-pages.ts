/**
 * The pages behind a command's help card: every option (`/scout help creators filters`, `/scout help remix video
 * options`), under headings where help-groups.ts gives them, and the examples its Examples button shows.
 */
import { commandFormId, formButton, hasForm } from '../core/command/forms/index.js';
import type { ParamSpec } from '../core/command/params.js';
import type { CommandDef } from '../core/command/types.js';
import {
  bold,
  buttons,
  code,
  type Inline,
  type Reply,
  reply,
  type TextNode,
  text,
} from '../core/ui/index.js';
import { GROUP_HEADINGS, groupsOf, type OptionGroup } from './help-groups.js';
import { byUse, exampleInWords, optionHelp, peopleName } from './help-words.js';

/** Options share a line of an options page up to this many characters, so that the page fits a screen. */
const LINE_MAX = 100;

/** Options as `name: what it is`, packed into lines of at most LINE_MAX characters, ` · ` between two. */
function packed(def: CommandDef<unknown>, options: ReadonlyArray<[string, ParamSpec]>): Inline[] {
  const parts: Inline[] = [];
  let width = 0;
  for (const [name, spec] of options) {
    const shown = peopleName(name, spec);
    const help = optionHelp(name, spec, def.params);
    const size = shown.length + 2 + help.length;
    if (width > 0 && width + 3 + size <= LINE_MAX) {
      parts.push(' · ');
      width += 3 + size;
    } else {
      if (width > 0) parts.push('\n');
      width = size;
    }
    parts.push(code(shown), `: ${help}`);
  }
  return parts;
}

/** How a range is written, for a command that has one: its first range option's name in the examples. */
function rangeNote(def: CommandDef<unknown>): Inline[] {
  const ranges = byUse(def.params).filter(([, spec]) => spec.kind === 'range');
  const [first] = ranges;
  if (first === undefined) return [];
  const name = peopleName(...first);
  const decimal = ranges.find(([, spec]) => spec.kind === 'range' && !spec.integer);
  return [
    '\nRanges: ',
    code(`${name}:10k-100k`),
    ' (both ends included), ',
    code('>=10k'),
    ' or ',
    code('10k+'),
    ' (at least), ',
    code('>10k'),
    ' (more than), ',
    code('<=1m'),
    ', ',
    code('<1m'),
    decimal === undefined
      ? '.'
      : `; on decimals (${peopleName(...decimal)}), > and < mean at least and at most.`,
  ];
}

/** The options of `def` under its headings, in the order of use within each; one block of all where it has none. */
function groupedBlocks(def: CommandDef<unknown>): TextNode[] {
  const options = byUse(def.params);
  const groups = groupsOf(def);
  if (groups === undefined) return [text(bold('Options'), '\n', ...packed(def, options))];
  const headings = Object.keys(GROUP_HEADINGS) as OptionGroup[];
  return headings.flatMap((group) => {
    const inGroup = options.filter(([name]) => groups[name] === group);
    return inGroup.length === 0 ? [] : [text(bold(GROUP_HEADINGS[group]), '\n', ...packed(def, inGroup))];
  });
}

/** Every option of `def`: under headings where it has them, with how ranges are written. */
export function optionsPage(def: CommandDef<unknown>): Reply {
  const count = Object.keys(def.params).length;
  if (count === 0) return reply([text(bold(`/scout ${def.family} ${def.name}`), ' takes no options.')]);
  return reply([
    text(
      bold(`/scout ${def.family} ${def.name}`),
      `: every option (${count}), written `,
      code('name:value'),
      '; quote a value with spaces.',
      ...rangeNote(def),
    ),
    ...groupedBlocks(def),
  ]);
}

/** The examples of `def`, each as typed, its options named as help names them. */
export function examplesPage(def: CommandDef<unknown>): Reply {
  const lines = def.examples.flatMap((example, i) => [
    i === 0 ? '' : '\n',
    code(`/scout ${exampleInWords(example, def.params)}`),
  ]);
  return reply([
    text(bold(`Examples of /scout ${def.family} ${def.name}`), ':\n', ...lines),
    hasForm(def) ? buttons(formButton('Form', commandFormId(def))) : null,
  ]);
}
