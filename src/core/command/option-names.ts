/**
 * What a typed key names: an option by its own name or an alias, or one bound of a range by the service's name of
 * that bound, found loosely (`followers_min`, `FOLLOWERSMIN` and `followersMin` are one); the names offered when a
 * key names nothing.
 */
import type { ParamSpec, ParamTable } from './param-spec.js';
import { fold } from './suggest.js';

/** What a typed key reaches: an option, or one bound of a range option by the service's name of that bound. */
export interface OptionTarget {
  name: string;
  spec: ParamSpec;
  bound: 'min' | 'max' | null;
}

/** Every name that reaches an option: its own name and its aliases, folded. */
export function namesOf(name: string, spec: ParamSpec): string[] {
  return [name, ...(spec.aliases ?? [])].map(fold);
}

interface KeyIndex {
  targets: Map<string, { name: string; bound: 'min' | 'max' | null }>;
  /** The names help and suggestions offer: each option's own name, and the service's names of range bounds. */
  known: string[];
}

// Option tables are declared once per command: index their names once.
const KEY_INDEX = new WeakMap<ParamTable, KeyIndex>();

function indexOf(table: ParamTable): KeyIndex {
  let index = KEY_INDEX.get(table);
  if (index !== undefined) return index;
  const targets = new Map<string, { name: string; bound: 'min' | 'max' | null }>();
  const known: string[] = [];
  const add = (typed: string, name: string, bound: 'min' | 'max' | null) => {
    const folded = fold(typed);
    if (!targets.has(folded)) targets.set(folded, { name, bound });
  };
  for (const [name, spec] of Object.entries(table)) {
    known.push(name);
    for (const typed of [name, ...(spec.aliases ?? [])]) add(typed, name, null);
  }
  for (const [name, spec] of Object.entries(table)) {
    if (spec.kind !== 'range') continue;
    known.push(spec.min, spec.max);
    add(spec.min, name, 'min');
    add(spec.max, name, 'max');
  }
  index = { targets, known };
  KEY_INDEX.set(table, index);
  return index;
}

/**
 * Finds what a typed key means, loosely (`followers_min`, `FOLLOWERSMIN` and `followersMin` are one): an option by
 * its name or an alias, or one bound of a range by the service's name of that bound.
 */
export function resolveOption(table: ParamTable, key: string): OptionTarget | null {
  const found = indexOf(table).targets.get(fold(key));
  const spec = found === undefined ? undefined : table[found.name];
  return found === undefined || spec === undefined ? null : { ...found, spec };
}

/** Finds the option a typed key names by its name or an alias (not a range's bound), or null. */
export function resolveKey(table: ParamTable, key: string): string | null {
  const found = resolveOption(table, key);
  return found === null || found.bound !== null ? null : found.name;
}

/** The names an unknown key is compared with for a suggestion: options, and the service's names of bounds. */
export function knownKeys(table: ParamTable): readonly string[] {
  return indexOf(table).known;
}
