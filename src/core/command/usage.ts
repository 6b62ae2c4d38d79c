/** Usage lines and option descriptions of commands, shared by error messages and `/scout help`. */
import type { ParamSpec } from './params.js';
import { isSpelling, peopleName, valueWord } from './people-names.js';
import type { CommandDef } from './types.js';

/**
 * The name usage lines show for an option: its first alias when that is shorter (`er` for `engagementRate`), and
 * never a service spelling (`hasEmail`, `userIds`): then the name people are given (`has-email`, `user-ids`).
 */
export function shortName(name: string, spec: ParamSpec): string {
  const short =
    spec.aliases?.[0] !== undefined && spec.aliases[0].length < name.length ? spec.aliases[0] : name;
  return isSpelling(short) ? peopleName(name, spec) : short;
}

/** How an option is written, e.g. `followers:<range>` or `<handle>`. */
export function paramSyntax(name: string, spec: ParamSpec): string {
  const shown = shortName(name, spec);
  const placeholder = spec.example ?? placeholderOf(spec);
  if (spec.positional === true) return `<${peopleName(name, spec)}>`;
  if (spec.rest === true) return `<${peopleName(name, spec)}>...`;
  return `${shown}:${placeholder}`;
}

/** What an option's value looks like in a usage line, without an example: `<number>`, `yes|no`. */
export function placeholderOf(spec: ParamSpec): string {
  switch (spec.kind) {
    case 'text':
      return '<text>';
    case 'integer':
    case 'number':
      return '<number>';
    case 'boolean':
      return 'yes|no';
    case 'choice':
      return spec.values.length <= 4 && spec.valuesText === undefined
        ? spec.values.map(valueWord).join('|')
        : '<choice>';
    case 'choices':
      return '<a,b>';
    case 'texts':
      return '<a,b>';
    case 'range':
      return '<min-max>';
    default: {
      const unknownKind: never = spec;
      return String(unknownKind);
    }
  }
}

/** The one-line usage of a command: `/scout creators search [followers:10k-100k] ...`. */
export function usageLine(def: CommandDef<unknown>, maxOptional = 6): string {
  const entries = Object.entries(def.params);
  const required = entries.filter(([, s]) => s.required === true || s.positional === true || s.rest === true);
  const optional = entries.filter(
    ([, s]) => !(s.required === true || s.positional === true || s.rest === true),
  );
  const parts = [
    `/scout ${def.family} ${def.name}`,
    ...required.map(([n, s]) => (s.required === true ? paramSyntax(n, s) : `[${paramSyntax(n, s)}]`)),
    ...optional.slice(0, maxOptional).map(([n, s]) => `[${paramSyntax(n, s)}]`),
  ];
  if (optional.length > maxOptional) parts.push('...');
  return parts.join(' ');
}

/**
 * Every name an option answers to, for help, the service's own first: `nichesToPromote (niche, niches)`, and for a
 * range the service's names of its two bounds, `followersMin, followersMax (followers, subscribers)`.
 */
export function paramNames(name: string, spec: ParamSpec): string {
  const service = spec.kind === 'range' ? `${spec.min}, ${spec.max}` : name;
  const others = [...(spec.kind === 'range' ? [name] : []), ...(spec.aliases ?? [])];
  return others.length > 0 ? `${service} (${others.join(', ')})` : service;
}
