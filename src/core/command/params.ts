/**
 * How each option of a command is typed in chat: its kind, aliases and help. The text parser, `/scout help` and
 * the platform command registrations all read this one table; the command's zod schema then validates bounds.
 */
import { didYouMean, fold, matchChoice } from './suggest.js';

interface ParamBase {
  /** One line for help and for platform option descriptions. */
  description: string;
  /** Other names people may type for this option (`niche` for `nichesToPromote`). */
  aliases?: readonly string[];
  /** Bare words fill this option (the first positional option takes the first word, and so on). */
  positional?: boolean;
  /** Every remaining bare word goes to this option, as a list. */
  rest?: boolean;
  required?: boolean;
  /** An example value for help. */
  example?: string;
  /**
   * A secret (an API key): never a platform option and never echoed; chat adapters ask for it in a private form
   * when it was not given.
   */
  secret?: boolean;
}

/** The kinds of option a command can declare. */
export type ParamSpec = ParamBase &
  (
    | { kind: 'text' }
    | { kind: 'integer' }
    | { kind: 'number' /** accepts a trailing % sign */; percent?: boolean }
    | { kind: 'boolean' }
    | { kind: 'choice'; values: readonly string[] }
    /** A comma list of allowed values; `join` sends it as one comma-joined string instead of an array. */
    | { kind: 'choices'; values: readonly string[]; join?: boolean }
    /** A comma list of free words. */
    | { kind: 'texts'; join?: boolean }
    /** `10k-100k`, `>3`, `<1m`, `10k+`: sets the `min` and/or `max` option of the schema. */
    | { kind: 'range'; min: string; max: string; integer: boolean; percent?: boolean }
  );

/** A command's option table, keyed by the option's canonical name (the contract's own parameter name). */
export type ParamTable = Readonly<Record<string, ParamSpec>>;

/** A problem with one option's value, phrased for the person who typed it. */
export class ParamError extends Error {
  override readonly name = 'ParamError';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/** Reads a human number: `12`, `1.5k`, `2M`, `10,000`, `3%` (when percent is allowed). */
export function parseHumanNumber(raw: string, options: { percent?: boolean } = {}): number | null {
  let text = raw.trim().replace(/_/g, '');
  if (options.percent === true && text.endsWith('%')) text = text.slice(0, -1);
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  const match = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))([kmb])?$/i.exec(text);
  if (match === null) return null;
  const value = Number(match[1]) * (match[2] === undefined ? 1 : (SUFFIX[match[2].toLowerCase()] ?? 1));
  return Number.isFinite(value) ? Math.round(value * 1e6) / 1e6 : null;
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);

function numberOf(param: string, raw: string, integer: boolean, percent: boolean): number {
  const value = parseHumanNumber(raw, { percent });
  if (value === null) {
    throw new ParamError(param, `${param} takes a number such as ${integer ? '10k' : '2.5'}, not "${raw}".`);
  }
  if (integer && !Number.isInteger(value))
    throw new ParamError(param, `${param} takes a whole number, not "${raw}".`);
  return value;
}

function choiceOf(param: string, raw: string, values: readonly string[]): string {
  const match = matchChoice(raw, values);
  if (match.ok) return match.value;
  const sample =
    values.length <= 12
      ? ` Allowed: ${values.join(', ')}.`
      : ` See /scout help for the ${values.length} values.`;
  return fail(
    param,
    `"${raw}" is not a valid ${param}.${didYouMean(match.suggestions)}${match.suggestions.length ? '' : sample}`,
  );
}

function fail(param: string, message: string): never {
  throw new ParamError(param, message);
}

const splitList = (raw: string) =>
  raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

/**
 * Converts what was typed for one option into values of the command's input, keyed by input field (a range sets
 * two fields). Throws ParamError with a message for the author.
 */
export function coerceParam(name: string, spec: ParamSpec, raw: string): Record<string, unknown> {
  switch (spec.kind) {
    case 'text':
      if (raw.trim().length === 0) fail(name, `${name} needs a value.`);
      return { [name]: raw.trim() };
    case 'integer':
      return { [name]: numberOf(name, raw, true, false) };
    case 'number':
      return { [name]: numberOf(name, raw, false, spec.percent === true) };
    case 'boolean': {
      const folded = fold(raw);
      if (TRUE.has(folded)) return { [name]: true };
      if (FALSE.has(folded)) return { [name]: false };
      return fail(name, `${name} takes yes or no, not "${raw}".`);
    }
    case 'choice':
      return { [name]: choiceOf(name, raw, spec.values) };
    case 'choices': {
      const items = splitList(raw).map((item) => choiceOf(name, item, spec.values));
      if (items.length === 0) fail(name, `${name} needs at least one value.`);
      const unique = [...new Set(items)];
      return { [name]: spec.join === true ? unique.join(',') : unique };
    }
    case 'texts': {
      const items = splitList(raw);
      if (items.length === 0) fail(name, `${name} needs at least one value.`);
      return { [name]: spec.join === true ? items.join(',') : items };
    }
    case 'range':
      return coerceRange(name, spec, raw);
    default: {
      const unknownKind: never = spec;
      throw new Error(`Unknown option kind ${JSON.stringify(unknownKind)}`);
    }
  }
}

function coerceRange(
  name: string,
  spec: Extract<ParamSpec, { kind: 'range' }>,
  raw: string,
): Record<string, unknown> {
  const text = raw.trim();
  const read = (part: string) => numberOf(name, part, spec.integer, spec.percent === true);
  const comparison = /^(>=|<=|>|<|=)?\s*(.+?)(\+)?$/.exec(text);
  const between = /^(.+?)\s*(?:-|\.\.|–|to)\s*(.+)$/i.exec(text);
  if (between !== null && !/^[<>]/.test(text) && parseHumanNumber(between[1] as string, spec) !== null) {
    const low = read(between[1] as string);
    const high = read(between[2] as string);
    if (low > high)
      fail(name, `${name}: the range ${raw} goes from high to low; write it as ${between[2]}-${between[1]}.`);
    return { [spec.min]: low, [spec.max]: high };
  }
  if (comparison === null)
    return fail(name, `${name} takes a range such as 10k-100k, >10k or <1m, not "${raw}".`);
  const operator = comparison[1];
  const value = read(comparison[2] as string);
  if (operator === '<' || operator === '<=') return { [spec.max]: value };
  if (operator === '=') return { [spec.min]: value, [spec.max]: value };
  return { [spec.min]: value };
}

/** Every name that reaches an option: its own name and its aliases, folded. */
export function namesOf(name: string, spec: ParamSpec): string[] {
  return [name, ...(spec.aliases ?? [])].map(fold);
}

/** Finds the option a typed key means, by name or alias (loosely: `followers_min` = `followersMin`). */
export function resolveKey(table: ParamTable, key: string): string | null {
  let index = KEY_INDEX.get(table);
  if (index === undefined) {
    index = new Map();
    for (const [name, spec] of Object.entries(table)) {
      for (const folded of namesOf(name, spec)) if (!index.has(folded)) index.set(folded, name);
    }
    KEY_INDEX.set(table, index);
  }
  return index.get(fold(key)) ?? null;
}

// Option tables are declared once per command: index their names once.
const KEY_INDEX = new WeakMap<ParamTable, Map<string, string>>();
