/**
 * How each option of a command is typed in chat: its kind, aliases and help. The text parser, `/scout help` and
 * the platform command registrations all read this one table; the command's zod schema then validates bounds.
 */

import { InternalError } from '../errors.js';
import { ParamError } from './param-errors.js';
import type { ChoiceValues, ParamSpec, RangeSpec } from './param-spec.js';
import { optionLabel, peopleName } from './people-names.js';
import { didYouMean, fold, matchChoice } from './suggest.js';

export {
  knownKeys,
  namesOf,
  type OptionTarget,
  resolveKey,
  resolveOption,
} from './option-names.js';
export { ParamError, StrayWordsError } from './param-errors.js';
export type { OptionRank, ParamSpec, ParamTable, RangeSpec } from './param-spec.js';

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

/** The largest number taken: above it, numbers are no longer exact (nor sent as typed). */
const LARGEST_NUMBER = Number.MAX_SAFE_INTEGER;

const LARGEST_TEXT = LARGEST_NUMBER.toLocaleString('en-US');

function numberOf(param: string, raw: string, integer: boolean, percent: boolean, example?: string): number {
  const value = parseHumanNumber(raw, { percent });
  if (value === null) {
    const such = example ?? (percent ? '3' : integer ? '10k' : '2.5');
    if (raw.trim() === '') throw new ParamError(param, `${param} needs a number, such as ${such}.`);
    throw new ParamError(param, `${param} takes a number such as ${such}, not "${raw}".`);
  }
  if (integer && !Number.isInteger(value))
    throw new ParamError(param, `${param} takes a whole number, not "${raw}".`);
  if (value > LARGEST_NUMBER) {
    fail(param, `"${raw.trim()}" is too large for ${param}: the largest number accepted is ${LARGEST_TEXT}.`);
  }
  return value;
}

/** A whole number within the bounds an option declares. */
function boundedInteger(
  label: string,
  raw: string,
  min: number | undefined,
  max: number | undefined,
  example: string | undefined,
): number {
  const value = numberOf(label, raw, true, false, example);
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const accepted =
      min !== undefined && max !== undefined
        ? `from ${min} to ${max}`
        : min !== undefined
          ? `of at least ${min}`
          : `of at most ${max}`;
    fail(label, `${label} takes a whole number ${accepted}, not "${raw.trim()}".`);
  }
  return value;
}

// Synonym tables are module constants: fold each once.
const SYNONYMS = new WeakMap<Readonly<Record<string, string>>, Map<string, string>>();

function synonymOf(raw: string, synonyms: Readonly<Record<string, string>> | undefined): string | undefined {
  if (synonyms === undefined) return undefined;
  let index = SYNONYMS.get(synonyms);
  if (index === undefined) {
    index = new Map(Object.entries(synonyms).map(([typed, value]) => [fold(typed), value]));
    SYNONYMS.set(synonyms, index);
  }
  return index.get(fold(raw));
}

function choiceOf(label: string, raw: string, spec: ChoiceValues, list: boolean): string {
  const { values } = spec;
  // A synonym never folds like another value (tested), so it may be looked up first, and cheaply.
  const synonym = synonymOf(raw, spec.synonyms);
  if (synonym !== undefined) return synonym;
  const match = matchChoice(raw, values);
  if (match.ok) return match.value;
  const allowed =
    spec.valuesText !== undefined
      ? ` Allowed: ${spec.valuesText}.`
      : values.length <= 12
        ? ` Allowed: ${values.join(', ')}.`
        : ` It takes one of ${values.length} values, such as ${values.slice(0, 5).join(', ')}.`;
  return fail(
    label,
    `${label} cannot ${list ? 'include' : 'be'} "${raw}".${didYouMean(match.suggestions)}${match.suggestions.length ? '' : allowed}`,
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
 * two fields). `typed` is the name as written: messages name it, and the name people know the option by beside
 * another alias (`subscribers (followers) takes...`); without it, by that name. Throws ParamError for the author.
 */
export function coerceParam(
  name: string,
  spec: ParamSpec,
  raw: string,
  typed?: string,
): Record<string, unknown> {
  const label = optionLabel(name, spec, typed);
  switch (spec.kind) {
    case 'text':
      if (raw.trim().length === 0) fail(name, `${label} needs a value.`);
      return { [name]: raw.trim() };
    case 'integer':
      return { [name]: boundedInteger(label, raw, spec.min, spec.max, spec.example) };
    case 'number':
      return { [name]: numberOf(label, raw, false, spec.percent === true, spec.example) };
    case 'boolean': {
      const folded = fold(raw);
      if (TRUE.has(folded)) return { [name]: true };
      if (FALSE.has(folded)) return { [name]: false };
      return fail(name, `${label} takes yes or no, not "${raw}".`);
    }
    case 'choice':
      return { [name]: choiceOf(label, raw, spec, false) };
    case 'choices': {
      const items = splitList(raw).map((item) => choiceOf(label, item, spec, true));
      if (items.length === 0) fail(name, `${label} needs at least one value.`);
      const unique = [...new Set(items)];
      return { [name]: spec.join === true ? unique.join(',') : unique };
    }
    case 'texts': {
      const items = splitList(raw);
      if (items.length === 0) fail(name, `${label} needs at least one value.`);
      return { [name]: spec.join === true ? items.join(',') : items };
    }
    case 'range': {
      const said = typed !== undefined && fold(typed) === fold(name) ? typed : peopleName(name, spec);
      const shown = `${typed ?? said}:${raw.trim()}`;
      refuseNegative(name, raw, shown, 'range', rangeExamples(spec));
      return checkedBounds(spec, rangeBounds(spec, raw, label), said, shown);
    }
    default: {
      const unknownKind: never = spec;
      throw new InternalError(`Unknown option kind ${JSON.stringify(unknownKind)}`);
    }
  }
}

const COMPARISON = /^(>=|=>|≥|<=|=<|≤|>|<|=)\s*(.*)$/s;
const BETWEEN = /^(.+?)\s*(?:-|\.\.|–|—|\bto\b)\s*(.+)$/i;

/**
 * A minus sign before a number where a range or bound starts, or after a comparison or a range's separator:
 * `-5k`, `-5k-10k`, `10k--5k`, `>-5`, `10k to -5k`. Every range counts something, so a number in one is 0 or more;
 * a range holding a negative number is refused as a whole, before BETWEEN splits it (`-5k-10k` would otherwise
 * read as -5,000 to 10,000, which drops the minimum and searches "10,000 or fewer").
 */
const NEGATIVE = /(?:^|[<>=≤≥\-−–—]|\.\.|\bto\b)\s*[-−]\s*[\d.]/i;

/** Refuses a range or a bound (`shown`, as typed) holding a negative number, before anything is read of it. */
function refuseNegative(param: string, raw: string, shown: string, what: 'range' | 'number', such: string) {
  if (NEGATIVE.test(raw.trim()))
    fail(param, `${shown} is not a ${what} Scout reads: numbers here are 0 or more, such as ${such}.`);
}

/** A range that fits an option, for messages and help: a percentage's, else the option's own example (`>0.5`). */
export function rangeExamples(spec: RangeSpec & { example?: string }): string {
  if (spec.percent === true) return '2-5, >3 or <=10';
  return spec.example ?? (spec.integer ? '10k-100k, >=10k or <1m' : '2-7, >2 or <=10');
}

/** Reads a range as typed into its bounds (before the checks every bound gets). */
function rangeBounds(spec: RangeSpec, raw: string, label: string): { min?: number; max?: number } {
  const text = raw.trim();
  const percent = spec.percent === true;
  const read = (part: string) => numberOf(label, part.trim(), spec.integer, percent);
  const comparison = COMPARISON.exec(text);
  if (comparison !== null) {
    const value = read(comparison[2] as string);
    switch (comparison[1]) {
      case '>':
        // More than n: a whole number from n+1; a decimal bound includes its value, so > reads as at least.
        return { min: spec.integer ? value + 1 : value };
      case '<':
        return { max: spec.integer ? value - 1 : value };
      case '<=':
      case '=<':
      case '≤':
        return { max: value };
      case '=':
        return { min: value, max: value };
      default:
        return { min: value };
    }
  }
  if (text.endsWith('+')) return { min: read(text.slice(0, -1)) };
  const between = BETWEEN.exec(text);
  if (between !== null && parseHumanNumber(between[1] as string, { percent }) !== null) {
    const low = read(between[1] as string);
    const high = read(between[2] as string);
    if (low > high)
      fail(
        label,
        `The range ${raw} of ${label} goes from high to low; write it as ${between[2]}-${between[1]}.`,
      );
    return { min: low, max: high };
  }
  // A bare number is a minimum: followers:10k means at least 10,000.
  if (parseHumanNumber(text, { percent }) !== null) return { min: read(text) };
  return fail(label, `${label} takes a range such as ${rangeExamples(spec)}, not "${raw}".`);
}

/**
 * The checks every bound gets, however it was written: numbers within what is taken, no maximum below 0, values
 * within the top of a bounded scale, and no bound the service would read as none. A minimum of 0 or less, or a
 * maximum at the top of the scale, is true of everything: within a range it is simply not sent, alone it is refused
 * as no filter at all. Where the service reads 0 as unset, a maximum of 0 would silently drop the filter. `shown`
 * is the option as typed and `name` what people call it, for messages.
 */
function checkedBounds(
  spec: RangeSpec,
  bounds: { min?: number | undefined; max?: number | undefined },
  name: string,
  shown: string,
): Record<string, number> {
  const top = spec.top ?? (spec.percent === true ? 100 : undefined);
  for (const value of [bounds.min, bounds.max]) {
    if (value === undefined) continue;
    if (value > LARGEST_NUMBER) {
      fail(name, `${shown} is too large: the largest number accepted is ${LARGEST_TEXT}.`);
    }
    if (top !== undefined && value > top) {
      fail(
        name,
        `${shown} is out of range: ${name} ${spec.percent === true ? 'is a percentage,' : 'goes'} from 0 to ${top}.`,
      );
    }
  }
  if (bounds.max !== undefined && bounds.max < 0)
    fail(name, `${shown} matches nothing: ${name} is never below 0.`);
  const out: Record<string, number> = {};
  if (bounds.min !== undefined && bounds.min > 0) out[spec.min] = bounds.min;
  if (bounds.max !== undefined && (top === undefined || bounds.max < top)) {
    if (bounds.max === 0 && spec.zeroIsUnset === true) {
      fail(
        name,
        `${shown} cannot be searched: the service reads a maximum of 0 as no bound, so it would match everyone. Leave it out.`,
      );
    }
    out[spec.max] = bounds.max;
  }
  if (Object.keys(out).length === 0) fail(name, `${shown} is no filter at all; leave it out.`);
  return out;
}

/** One bound of a range by its own name (`followersMin:10k`): a single number, which sets only that bound. */
export function coerceBound(
  spec: RangeSpec,
  bound: 'min' | 'max',
  raw: string,
  typed: string,
): Record<string, number> {
  const text = raw.trim();
  const field = bound === 'min' ? spec.min : spec.max;
  const such = spec.integer ? '10k' : '2.5';
  refuseNegative(typed, text, `${typed}:${text}`, 'number', such);
  if (parseHumanNumber(text, { percent: spec.percent === true }) === null && COMPARISON.test(text)) {
    fail(typed, `${typed} takes one number such as ${such}, not "${raw}".`);
  }
  const value = numberOf(typed, text, spec.integer, spec.percent === true);
  const bounds = bound === 'min' ? { min: value } : { max: value };
  const checked = checkedBounds(spec, bounds, typed, `${typed}:${text}`);
  return { [field]: checked[field] as number };
}
