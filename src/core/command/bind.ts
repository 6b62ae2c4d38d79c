/** Binds the tokens of a command line to a command's option table, producing the raw input for its schema. */
import { coerceParam, ParamError, type ParamTable, resolveKey } from './params.js';
import { didYouMean, matchChoice } from './suggest.js';
import type { Token } from './tokenize.js';

/** Longest stray value quoted whole in an error: a longer one may be a key pasted without its name. */
const QUOTED_MAX = 16;

/** A stray value as an error quotes it: whole when short, else only its start (never a whole secret). */
const shown = (source: string) => (source.length <= QUOTED_MAX ? source : `${source.slice(0, 4)}…`);

/** Turns tokens into the command's input fields; throws ParamError naming the problem. */
export function bindTokens(table: ParamTable, tokens: readonly Token[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const given = new Set<string>();
  const positional = Object.entries(table).filter(([, spec]) => spec.positional === true);
  const rest = Object.entries(table).find(([, spec]) => spec.rest === true);
  const restValues: string[] = [];
  const assign = (name: string, raw: string) => {
    const spec = table[name];
    if (spec === undefined) return;
    if (given.has(name)) throw new ParamError(name, `${name} is given twice.`);
    given.add(name);
    Object.assign(input, coerceParam(name, spec, raw));
  };

  for (const token of tokens) {
    if (token.key === null) {
      const next = positional.find(([name]) => !given.has(name));
      if (next !== undefined) assign(next[0], token.value);
      else if (rest !== undefined) restValues.push(token.value);
      else
        throw new ParamError(
          '',
          `"${shown(token.source)}" is not understood here: options are written key:value.`,
        );
      continue;
    }
    const name = resolveKey(table, token.key);
    if (name === null) {
      const known = Object.keys(table);
      const guess = matchChoice(token.key, known);
      const hint = guess.ok ? '' : didYouMean(guess.suggestions);
      throw new ParamError(
        token.key,
        `Unknown option "${token.key}".${hint}${known.length > 0 ? '' : ' This command takes no options.'}`,
      );
    }
    if (table[name]?.rest === true) {
      restValues.push(token.value);
      given.add(name);
      continue;
    }
    assign(name, token.value);
  }
  if (rest !== undefined && restValues.length > 0) {
    const [name, spec] = rest;
    const values = restValues.flatMap((raw) => {
      const coerced = coerceParam(name, spec, raw)[name];
      return Array.isArray(coerced) ? coerced : [coerced];
    });
    input[name] = values;
  }
  for (const [name, spec] of Object.entries(table)) {
    if (spec.required === true && !given.has(name)) {
      throw new ParamError(
        name,
        `${name} is required${spec.example === undefined ? '' : `, e.g. ${name}:${spec.example}`}.`,
      );
    }
  }
  return input;
}
