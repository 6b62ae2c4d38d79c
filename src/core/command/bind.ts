/** Binds the tokens of a command line to a command's option table, producing the raw input for its schema. */
import {
  coerceBound,
  coerceParam,
  knownKeys,
  type OptionTarget,
  ParamError,
  type ParamSpec,
  type ParamTable,
  resolveOption,
  StrayWordsError,
} from './params.js';
import { fieldName, isSpelling, peopleName } from './people-names.js';
import { didYouMean, fold, matchChoice } from './suggest.js';
import type { Token } from './tokenize.js';

/** Longest stray value quoted whole in an error: a longer one may be a key pasted without its name. */
const QUOTED_MAX = 16;

/** Longest option quoted whole when two options disagree. */
const SOURCE_MAX = 40;

/** A stray value as an error quotes it: whole when short, else only its start (never a whole secret). */
const shown = (source: string) => (source.length <= QUOTED_MAX ? source : `${source.slice(0, 4)}…`);

/** Who set an input field: the option as typed (a secret by its name only) and the value it gave. */
interface SetBy {
  shown: string;
  value: string;
}

/** The name each field of an input made by bindTokens was set by, as typed (`rate` for proposedRate). */
const TYPED_AS = new WeakMap<object, Map<string, string>>();

/**
 * The name a field of `input` was typed by, when bindTokens made `input` and the field was set by an option
 * (`rate` for proposedRate, `followers` for followersMin); null otherwise. Messages about the field name it so.
 */
export function typedName(input: object, field: string): string | null {
  return TYPED_AS.get(input)?.get(field) ?? null;
}

/** The option of an input made by bindTokens that took several bare words as one name (`list Spring Launch`). */
const JOINED = new WeakMap<object, string>();

/**
 * The option whose value was several bare words, read as one name without quotes (`list Spring Launch`), when
 * bindTokens made `input`; null otherwise.
 */
export function joinedName(input: object): string | null {
  return JOINED.get(input) ?? null;
}

/** The bare words from `start` up to the next `key:value` or the end of the line. */
function wordsFrom(tokens: readonly Token[], start: number): Token[] {
  const words: Token[] = [];
  for (let i = start; i < tokens.length && tokens[i]?.key === null; i++) words.push(tokens[i] as Token);
  return words;
}

/** The options typed as `key:value` somewhere in the line. */
function keyedNames(table: ParamTable, tokens: readonly Token[]): Set<string> {
  const names = new Set<string>();
  for (const token of tokens) {
    const target = token.key === null ? null : resolveOption(table, token.key);
    if (target !== null) names.add(target.name);
  }
  return names;
}

/**
 * The names a key that names nothing is offered, as people know them (`category` for a near miss of it); the
 * service's spellings only to someone typing one (`folowersMin` is close to `followersMin`).
 */
function suggested(table: ParamTable, key: string, names: readonly string[]): string[] {
  if (isSpelling(key)) return [...names];
  const said = names.flatMap((name) => {
    const target = resolveOption(table, name);
    if (target === null || !isSpelling(name)) return [name];
    return target.bound === null ? [peopleName(target.name, target.spec)] : [];
  });
  return [...new Set(said)];
}

/** Turns tokens into the command's input fields; throws ParamError naming the problem. */
export function bindTokens(table: ParamTable, tokens: readonly Token[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const typed = new Map<string, string>();
  TYPED_AS.set(input, typed);
  const given = new Set<string>();
  const keyed = keyedNames(table, tokens);
  // The names each option was typed by, folded, and how each was first written: the same name twice is a mistake,
  // whatever the values.
  const typedAs = new Map<string, Map<string, string>>();
  // Which option set each input field: a name and its alias (followers, followersMin) must agree.
  const setBy = new Map<string, SetBy>();
  const positional = Object.entries(table).filter(([, spec]) => spec.positional === true);
  const rest = Object.entries(table).find(([, spec]) => spec.rest === true);
  const restValues: string[] = [];
  const assign = (target: OptionTarget, raw: string, key: string, source: string) => {
    const { name, spec } = target;
    const names = typedAs.get(name) ?? new Map<string, string>();
    const first = names.get(fold(key));
    if (first === key) throw new ParamError(name, `${key} is given twice.`);
    if (first !== undefined) throw new ParamError(name, `${first} and ${key} are one option; keep one.`);
    names.set(fold(key), key);
    typedAs.set(name, names);
    given.add(name);
    const values =
      target.bound === null || spec.kind !== 'range'
        ? coerceParam(name, spec, raw, key)
        : coerceBound(spec, target.bound, raw, key);
    const shownAs =
      spec.secret === true ? key : source.length <= SOURCE_MAX ? source : `${source.slice(0, SOURCE_MAX)}…`;
    for (const [field, value] of Object.entries(values)) {
      const before = setBy.get(field);
      const written = JSON.stringify(value);
      if (before !== undefined && before.value !== written) {
        const said = fieldName(table, field) ?? field;
        throw new ParamError(
          name,
          `${before.shown} and ${shownAs} both set ${said}, to different values; keep one.`,
        );
      }
      setBy.set(field, { shown: shownAs, value: written });
      typed.set(field, key);
    }
    Object.assign(input, values);
  };

  /**
   * A trailing name goes on over the bare words that follow it when nothing else takes bare words: no rest option,
   * and every other positional option given already or typed as `key:value`.
   */
  const goesOn = (name: string, spec: ParamSpec) =>
    spec.kind === 'text' &&
    spec.trailing === true &&
    rest === undefined &&
    positional.every(([other]) => other === name || given.has(other) || keyed.has(other));
  /** Assigns a value with the bare words that go on from it (from `next`), and says how many it took. */
  const assignName = (target: OptionTarget, first: Token, next: number, key: string) => {
    const words = target.bound === null && goesOn(target.name, target.spec) ? wordsFrom(tokens, next) : [];
    const all = [first, ...words];
    if (first.key === null && all.length > 1) JOINED.set(input, target.name);
    const value = all.map((token) => token.value).join(' ');
    assign(target, value, key, all.map((token) => token.source).join(' '));
    return words.length;
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.key === null) {
      const next = positional.find(([name]) => !given.has(name));
      if (next !== undefined) {
        const [name, spec] = next;
        // A bare word is typed by no name: messages name its option as people know it.
        i += assignName({ name, spec, bound: null }, token, i + 1, peopleName(name, spec));
      } else if (rest !== undefined) restValues.push(token.value);
      else
        throw new StrayWordsError(
          `"${shown(token.value)}" is not understood here: options are written key:value.`,
        );
      continue;
    }
    const target = resolveOption(table, token.key);
    if (target === null) {
      const known = knownKeys(table);
      // Compared with the names people type too (`categry` is close to category, not to mainCategory).
      const aliases = Object.values(table).flatMap((spec) => spec.aliases ?? []);
      const guess = matchChoice(token.key, [...known, ...aliases]);
      const hint = guess.ok ? '' : didYouMean(suggested(table, token.key, guess.suggestions));
      throw new ParamError(
        token.key,
        `Unknown option "${token.key}".${hint}${known.length > 0 ? '' : ' This command takes no options.'}`,
      );
    }
    if (target.spec.rest === true) {
      restValues.push(token.value);
      given.add(target.name);
      continue;
    }
    i += assignName(target, token, i + 1, token.key);
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
      const said = peopleName(name, spec);
      throw new ParamError(
        name,
        `${said} is required${spec.example === undefined ? '' : `, e.g. ${said}:${spec.example}`}.`,
      );
    }
  }
  return input;
}
