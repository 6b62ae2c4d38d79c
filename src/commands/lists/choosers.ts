/**
 * Selects that reach every row of a table with a press: one select per SELECT_OPTIONS_MAX rows, so the 100 rows a
 * table holds take at most four, each naming the rows it offers ("Act on contacts 26–50…").
 */
import type { CommandContext } from '../../core/command/types.js';
import { OPTION_VALUE_MAX, SELECT_OPTIONS_MAX, type SelectNode, select } from '../../core/ui/index.js';

/** One row as a select offers it. */
export interface Choice {
  /** The row's number in the table, from 1. */
  readonly row: number;
  readonly label: string;
  readonly value: string;
  readonly description?: string;
}

/** What the selects say: the placeholder of one alone, and of one of several (rows `from` to `to`). */
export interface ChooserWords {
  readonly one: string;
  readonly some: (from: number, to: number) => string;
}

/**
 * The selects of `choices`, in order: each runs action `kind` with the payload `payloadOf` gives for its choices,
 * the choice as the event's value. A choice whose value no select can carry is left out; none for no choices.
 */
export function choosers<T extends Choice>(
  ctx: CommandContext,
  kind: string,
  choices: readonly T[],
  words: ChooserWords,
  payloadOf: (group: readonly T[]) => unknown,
): SelectNode[] {
  const usable = choices.filter((choice) => choice.value !== '' && choice.value.length <= OPTION_VALUE_MAX);
  const unique = usable.filter((choice, at) => usable.findIndex((c) => c.value === choice.value) === at);
  const groups: T[][] = [];
  for (let at = 0; at < unique.length; at += SELECT_OPTIONS_MAX) {
    groups.push(unique.slice(at, at + SELECT_OPTIONS_MAX));
  }
  return groups.map((group) =>
    select({
      placeholder: groups.length === 1 ? words.one : words.some(group[0]?.row ?? 1, group.at(-1)?.row ?? 1),
      actionId: ctx.token(kind, payloadOf(group)),
      options: group.map(({ label, value, description }) => ({
        label,
        value,
        ...(description === undefined ? {} : { description }),
      })),
    }),
  );
}
