/**
 * A command's form, derived from its declaration (its option table for names, labels, choices and hints, its
 * schema for bounds and defaults): which commands have one, which open it when typed bare or given too little,
 * and its fields, the most used first. Reading a submission back is submission.ts; the ids that open a form are
 * ids.ts.
 */
import { z } from 'zod';
import { InternalError } from '../../errors.js';
import {
  choiceLabel,
  choicesText,
  type FormField,
  type FormInput,
  type FormSpec,
  nameInWords,
} from '../../ui/index.js';
import { type ParamSpec, rangeExamples } from '../params.js';
import { quoteValue, withoutPrefix } from '../syntax.js';
import { type Token, tokenize } from '../tokenize.js';
import type { CommandDef, CommandRegistry } from '../types.js';
import { paramSyntax, shortName } from '../usage.js';
import type { FormRequest } from './ids.js';

/**
 * The options of `def` a form shows: all of them, or none for a command that takes a secret (an API key), which
 * only its private form asks for: what is typed into a form's fields may be kept to open it again.
 */
const formParams = (def: CommandDef<unknown>) => {
  const entries = Object.entries(def.params);
  return entries.some(([, spec]) => spec.secret === true) ? [] : entries;
};

/** Whether `def` has a form: it takes an option, and no secret. */
export function hasForm(def: CommandDef<unknown>): boolean {
  return formParams(def).length > 0;
}

/** What `def` needs to run: whether it runs with nothing given, and the options it cannot run without. */
interface Needs {
  readonly any: boolean;
  readonly options: ReadonlySet<string>;
}

const NEEDS = new WeakMap<CommandDef<unknown>, Needs>();

/**
 * What `def` cannot run without: the options declared required, and those its schema refuses to go without when
 * given nothing (the words a search looks for, the image a remix needs), whatever the option table says.
 */
function needsOf(def: CommandDef<unknown>): Needs {
  const known = NEEDS.get(def);
  if (known !== undefined) return known;
  const options = new Set(
    Object.entries(def.params)
      .filter(([, spec]) => spec.required === true)
      .map(([name]) => name),
  );
  let any = options.size > 0;
  try {
    const empty = def.schema.safeParse({});
    if (!empty.success) {
      any = true;
      for (const issue of empty.error.issues) {
        const [first] = issue.path;
        if (typeof first === 'string' && def.params[first] !== undefined) options.add(first);
      }
    }
  } catch {
    // A schema that cannot be checked at once (an asynchronous refinement) is checked when the command runs.
  }
  const needs = { any, options };
  NEEDS.set(def, needs);
  return needs;
}

/**
 * Whether `def` cannot run with nothing given: an option is required, or its schema refuses an empty input (a
 * search that needs words to look for, a remix that needs an image), whatever the option table says.
 */
export function needsInput(def: CommandDef<unknown>): boolean {
  return needsOf(def).any;
}

/**
 * Whether `def`, given only the options named in `given`, still lacks what it needs to run: a required option, or,
 * with none given, whatever its schema needs (see needsInput). False for a command without a form: its usage says.
 */
export function lacksInput(def: CommandDef<unknown>, given: readonly string[]): boolean {
  if (!hasForm(def)) return false;
  if (given.length === 0) return needsInput(def);
  return Object.entries(def.params).some(([name, spec]) => spec.required === true && !given.includes(name));
}

/**
 * Whether `def` typed bare (`/scout list show`, `/scout creators`) opens its form where a platform can show one:
 * it has one, and it needs something (see needsInput) or filters by ranges (a search), where a form shows what
 * there is to set.
 */
export function opensBare(def: CommandDef<unknown>): boolean {
  const params = formParams(def);
  return params.length > 0 && (needsInput(def) || params.some(([, spec]) => spec.kind === 'range'));
}

/**
 * The command a line names with nothing else (`creators`, `list show`, `/scout viral search`) when that command
 * opens its form bare (see opensBare); null for any other line.
 */
export function bareFormOf(registry: CommandRegistry, line: string): CommandDef<unknown> | null {
  let tokens: Token[];
  try {
    tokens = tokenize(withoutPrefix(line));
  } catch {
    return null;
  }
  const [first, second] = tokens;
  if (first === undefined || tokens.length > 2 || tokens.some((token) => token.key !== null)) return null;
  const family = registry.family(first.value);
  if (family === undefined) return null;
  const name = second?.value ?? family.defaultCommand;
  const def = name === undefined ? undefined : registry.command(family.name, name);
  return def !== undefined && opensBare(def) ? def : null;
}

/**
 * Where an option comes in a form, as [group, place]: required, positional, what people filter by most (by its
 * declared rank), the others, sorting and paging; within a group, in declared order (`index`). The first fields
 * matter most: a Discord form shows only four before its "more" input.
 */
const placeOf = (spec: ParamSpec, index: number): readonly [number, number] => {
  if (spec.required === true) return [0, index];
  if (spec.positional === true || spec.rest === true) return [1, index];
  if (spec.rank === 'paging') return [4, index];
  return spec.rank === undefined ? [3, index] : [2, spec.rank.common];
};

const byPlace = (a: { place: readonly [number, number] }, b: { place: readonly [number, number] }) =>
  a.place[0] - b.place[0] || a.place[1] - b.place[1];

/** A field's label: the option's name in words (an alias when the name is a letter or two), with % for percents. */
function labelOf(name: string, spec: ParamSpec): string {
  const alias = spec.aliases?.find((a) => a.length >= 3);
  const base = nameInWords(name.length < 3 && alias !== undefined ? alias : name);
  const percent = (spec.kind === 'number' || spec.kind === 'range') && spec.percent === true;
  return percent ? `${base} (%)` : base;
}

/** What a schema says of one input field: its numeric bounds and its default. */
type Facts = { min?: number; max?: number; fallback?: string };

const FACTS = new WeakMap<z.ZodType, ReadonlyMap<string, Facts>>();

/** The bounds and defaults of the schema's input fields (`perPage`: 1 to 100, 10 by default), read once. */
function factsOf(schema: z.ZodType): ReadonlyMap<string, Facts> {
  const known = FACTS.get(schema);
  if (known !== undefined) return known;
  const found = new Map<string, Facts>();
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, { minimum?: unknown; maximum?: unknown; default?: unknown }>;
    };
    for (const [key, property] of Object.entries(json.properties ?? {})) {
      const facts: Facts = {};
      if (typeof property.minimum === 'number') facts.min = property.minimum;
      // The largest safe integer is "no bound" in words.
      if (typeof property.maximum === 'number' && property.maximum < Number.MAX_SAFE_INTEGER)
        facts.max = property.maximum;
      const fallback = property.default;
      if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean')
        facts.fallback = typeof fallback === 'boolean' ? (fallback ? 'yes' : 'no') : String(fallback);
      if (Object.keys(facts).length > 0) found.set(key, facts);
    }
  } catch {
    // A schema JSON Schema cannot describe has no bounds to show; it still checks every value.
  }
  FACTS.set(schema, found);
  return found;
}

function boundsText(facts: Facts): string {
  const { min, max } = facts;
  if (min !== undefined && max !== undefined) return `From ${min} to ${max}.`;
  if (min !== undefined) return min === 0 ? '0 or more.' : `At least ${min}.`;
  return max === undefined ? '' : `At most ${max}.`;
}

/** Values a hint lists in full; longer lists give their count and a few examples. */
const HINT_VALUES_MAX = 400;

/**
 * What a field allows, in words (values, bounds, how to write a range or a list, the default), as the text syntax
 * takes it: the option's own example and the bounds its parser declares, else the schema's.
 */
function allowsOf(name: string, spec: ParamSpec, schema: z.ZodType): string {
  const facts = factsOf(schema);
  const parts: string[] = [];
  // How to write several values, unless the description says so already.
  const separate = (how: string) => {
    if (!/separat/i.test(spec.description)) parts.push(`Separate several with ${how}.`);
  };
  switch (spec.kind) {
    case 'choice':
    case 'choices': {
      const listed = choicesText(spec.values, HINT_VALUES_MAX);
      const some = spec.values.slice(0, 5).map(choiceLabel).join(', ');
      const described = spec.description.toLowerCase();
      // A description that already names every value says it once.
      const named = spec.values.every((value) => described.includes(choiceLabel(value).toLowerCase()));
      if (listed === null) parts.push(`${spec.values.length} values, e.g. ${some}; /scout help lists them.`);
      else if (!named) parts.push(`${spec.kind === 'choices' ? 'Any of' : 'One of'}: ${listed}.`);
      if (spec.kind === 'choices') separate('commas');
      break;
    }
    case 'boolean':
      parts.push('yes or no.');
      break;
    case 'range': {
      const examples = rangeExamples(spec);
      if (!spec.description.includes(examples)) parts.push(`A range such as ${examples}.`);
      // A bound is never below 0; a bounded scale (a percentage) has its top.
      const top = spec.top ?? (spec.percent === true ? 100 : pick(facts.get(spec.max), 'max').max);
      parts.push(boundsText({ min: 0, ...(top === undefined ? {} : { max: top }) }));
      break;
    }
    case 'integer':
      parts.push(boundsText({ ...facts.get(name), ...pick(spec, 'min'), ...pick(spec, 'max') }));
      break;
    case 'number':
      parts.push(boundsText(facts.get(name) ?? {}));
      break;
    case 'texts':
      separate('commas');
      break;
    case 'text':
      // Words (of a query) go with spaces as they are written; other values are told how.
      if (spec.rest === true && !/\bwords\b/i.test(spec.description)) separate('spaces');
      break;
    default: {
      const unknownKind: never = spec;
      throw new InternalError(`Unknown option kind ${JSON.stringify(unknownKind)}`);
    }
  }
  const fallback = facts.get(name)?.fallback;
  if (fallback !== undefined) parts.push(`Default: ${fallback}.`);
  return parts.filter((part) => part !== '').join(' ');
}

/** One bound of `facts`, when it has it. */
const pick = (facts: { min?: number; max?: number } | undefined, which: 'min' | 'max'): Facts =>
  facts?.[which] === undefined ? {} : { [which]: facts[which] };

/** An example value, as typed into a field (without the quotes the text syntax needs). */
function placeholderOf(name: string, spec: ParamSpec): string {
  const example = spec.example ?? (spec.kind === 'choice' ? spec.values[0] : undefined);
  if (example !== undefined) return example.replace(/^["'“‘](.*)["'”’]$/, '$1');
  const syntax = paramSyntax(name, { ...spec, positional: false, rest: false });
  const value = syntax.slice(syntax.indexOf(':') + 1);
  // Syntax that only names the kind of value (`<text>`) is no example.
  return /^<[^>]*>$/.test(value) ? '' : value;
}

/** How a field of the option's kind takes its value. */
function inputOf(spec: ParamSpec): FormInput {
  if (spec.kind === 'choice') return 'choice';
  if (spec.kind === 'choices') return 'choices';
  if (spec.kind === 'boolean') return 'yes-no';
  if (spec.kind === 'text' && spec.person !== undefined) return 'person';
  return spec.rest === true ? 'lines' : 'text';
}

/**
 * The form of `def`, the most used options first (required, positional, those ranked common, the others as declared,
 * those ranked paging), with `request`'s fixed options left out and its values filled in; null when it has no form.
 */
export function formSpec(
  def: CommandDef<unknown>,
  request: Partial<Pick<FormRequest, 'title' | 'fixed' | 'values' | 'more'>> = {},
): FormSpec | null {
  const fixed = request.fixed ?? {};
  const values = request.values ?? {};
  const ranked = formParams(def)
    .filter(([name]) => fixed[name] === undefined)
    .map(([name, spec], index) => ({ name, spec, place: placeOf(spec, index) }))
    .sort(byPlace);
  if (ranked.length === 0) return null;
  const needs = needsOf(def).options;
  const fields = ranked.map(({ name, spec }): FormField => {
    const value = values[name];
    const allows = allowsOf(name, spec, def.schema);
    const shown = value === undefined || value.trim() === '' ? undefined : value;
    return {
      name,
      label: labelOf(name, spec),
      hint: [spec.description, allows].filter((part) => part !== '').join(' '),
      description: spec.description,
      allows,
      placeholder: placeholderOf(name, spec),
      required: needs.has(name),
      input: inputOf(spec),
      choices: spec.kind === 'choice' || spec.kind === 'choices' ? spec.values : [],
      also: spec.kind === 'text' ? (spec.person?.also ?? []) : [],
      ...(shown === undefined
        ? {}
        : { value: shown, typed: `${shortName(name, spec)}:${quoteValue(shown)}` }),
    };
  });
  return {
    family: def.family,
    command: def.name,
    title: request.title ?? `${def.family} ${def.name}`,
    line: `/scout ${def.family} ${def.name}`,
    fixed: { ...fixed },
    fields,
    more: request.more ?? '',
  };
}
