/**
 * How help names options and values in people's words: an option by a plain name it answers to (`followers`,
 * `category`, `has-email`), never the service's spelling of it (`followersMin`, `mainCategory`, `emailExists`); a
 * status in words (`to outreach`, not `TO_OUTREACH`). Every name shown still reaches its option when typed: keys
 * are read loosely (option-names.ts), so `has-email` is `hasEmail`.
 */
import { type ParamSpec, type ParamTable, resolveOption } from '../core/command/params.js';
import { isSpelling, peopleName, valueWord } from '../core/command/people-names.js';
import { tokenize } from '../core/command/tokenize.js';
import type { CommandDef } from '../core/command/types.js';
import { placeholderOf } from '../core/command/usage.js';

/** How help names an option and a value: as every answer does (core/command/people-names.ts). */
export { peopleName, valueWord };

/** `text` with each service spelling of an option of `params` (`perPage sets the most`) named as help names it. */
export function inWords(text: string, params: ParamTable): string {
  return text.replace(/\b[A-Za-z][A-Za-z0-9_]*\b/g, (word) => {
    if (!isSpelling(word)) return word;
    const found = resolveOption(params, word);
    return found === null ? word : peopleName(found.name, found.spec);
  });
}

/** An example line with its options named as help names them: `emailExists:yes` → `has-email:yes`. */
export function exampleInWords(example: string, params: ParamTable): string {
  try {
    return tokenize(example)
      .map((token) => {
        const found = token.key === null ? null : resolveOption(params, token.key);
        // A key people type as it is stays; a service spelling (`emailExists`) or a bound's name is renamed.
        if (token.key === null || found === null || !isSpelling(token.key)) return token.source;
        const value = token.source.slice(token.key.length + 1);
        const bound = found.bound === 'min' ? '>=' : found.bound === 'max' ? '<=' : '';
        return `${peopleName(found.name, found.spec)}:${bound}${value}`;
      })
      .join(' ');
  } catch {
    return example;
  }
}

/**
 * A command's options in the order its form shows them: required, positional, the most used (by declared rank),
 * the others as declared, sorting and paging.
 */
export function byUse(params: ParamTable): Array<[string, ParamSpec]> {
  const place = (spec: ParamSpec, index: number): [number, number] => {
    if (spec.required === true) return [0, index];
    if (spec.positional === true || spec.rest === true) return [1, index];
    if (spec.rank === 'paging') return [4, index];
    return spec.rank === undefined ? [3, index] : [2, spec.rank.common];
  };
  return Object.entries(params)
    .map(([name, spec], index) => ({ name, spec, at: place(spec, index) }))
    .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1])
    .map(({ name, spec }): [string, ParamSpec] => [name, spec]);
}

/** How an option is written: `followers:10k-100k`, or `<list>` for one given by position. */
export function optionSyntax(name: string, spec: ParamSpec): string {
  const shown = peopleName(name, spec);
  if (spec.rest === true) return `<${shown}>...`;
  if (spec.positional === true) return `<${shown}>`;
  return `${shown}:${spec.example ?? placeholderOf(spec)}`;
}

/** The usage line of a command in people's words, with its first `optional` optional options, in the order of use. */
export function usageInWords(def: CommandDef<unknown>, optional: number): string {
  const ordered = byUse(def.params);
  const needed = (spec: ParamSpec) => spec.required === true;
  const parts = [`/scout ${def.family} ${def.name}`];
  for (const [name, spec] of ordered.filter(([, spec]) => needed(spec))) parts.push(optionSyntax(name, spec));
  const others = ordered.filter(([, spec]) => !needed(spec));
  for (const [name, spec] of others.slice(0, optional)) parts.push(`[${optionSyntax(name, spec)}]`);
  if (others.length > optional) parts.push('…');
  return parts.join(' ');
}

/** Lists of at most this many values are shown whole; longer ones by their count and where to read them. */
const VALUES_SHOWN = 8;

/** The values an option takes, for help: their words, all of a short list, or how many and where to read them. */
function valuesNote(name: string, spec: ParamSpec, params: ParamTable, description: string): string | null {
  if (spec.kind !== 'choice' && spec.kind !== 'choices') return null;
  if (spec.valuesText !== undefined) return inWords(spec.valuesText, params);
  const words = spec.values.map(valueWord);
  const said = description.toLowerCase();
  if (words.every((word) => said.includes(word.toLowerCase()))) return null;
  if (words.length <= VALUES_SHOWN) return words.join(', ');
  return `${words.length} values: /scout help values ${peopleName(name, spec)}`;
}

/** What an option is, for help: its description in people's words, with the values it takes. */
export function optionHelp(name: string, spec: ParamSpec, params: ParamTable): string {
  const description = inWords(spec.description, params).replace(/\.$/, '');
  const values = valuesNote(name, spec, params, description);
  return values === null ? description : `${description} (${values})`;
}
