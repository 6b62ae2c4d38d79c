/**
 * Completions of what a person is typing into a command's parameter, for platforms that suggest as people type
 * (Discord's autocomplete): long enumerations (categories, countries, languages; a code or short form suggests the
 * value it means), comma lists of allowed values (completing the last item), the team's CRM lists, read from the
 * service with the tenant's own account (none before it connects one), and free text of `name:value` options,
 * which completes the name of an option as people are given it (showing its description), or, to someone typing
 * the service's spellings, those and the service's name of one bound of a range, and then its value when it is an
 * enumeration or has values the service is known to take. Matching ignores case, accents and punctuation.
 */
import { type ParamSpec, type ParamTable, resolveKey, resolveOption } from '../command/params.js';
import { isSpelling, peopleName } from '../command/people-names.js';
import { fold } from '../command/suggest.js';
import { quoteValue } from '../command/syntax.js';
import type { CommandRegistry } from '../command/types.js';
import type { Tenants } from '../tenancy/index.js';
import type { PersonRef } from './home.js';

/** What is being typed: one parameter's value, or free text naming any of `params` as `name:value`. */
export type CompletionField = { param: string } | { text: readonly string[] };

/** A completion request. */
export interface CompletionRequest {
  /** Who types: their tenant's own account reads the CRM lists. */
  actor: PersonRef;
  family: string;
  command: string;
  field: CompletionField;
  /** What was typed so far. */
  typed: string;
}

/** What a platform takes of an answer: how many completions, and the longest value it can carry. */
export interface CompletionLimits {
  count: number;
  valueMax: number;
}

/** One completion: the text shown (a description may follow the value) and the value it puts in the field. */
export interface Completion {
  label: string;
  value: string;
}

/**
 * Whether a parameter typed on its own completes as it is typed: enumerations, comma lists of them, CRM list names.
 * (A text parameter's known values are offered in free text of options.)
 */
export function completes(spec: ParamSpec): boolean {
  if (spec.kind === 'choice' || spec.kind === 'choices') return true;
  return namesCrmList(spec);
}

/** Whether a parameter's value names one of the team's CRM lists, as its declaration says. */
const namesCrmList = (spec: ParamSpec) => spec.kind === 'text' && spec.completedFrom === 'crm-lists';

/**
 * The allowed values matching what was typed: prefix matches first, then any containing match, in their declared
 * order; all of them when nothing was typed.
 */
export function matchValues(values: readonly string[], typed: string): string[] {
  const wanted = fold(typed);
  if (wanted === '') return [...values];
  const starts = values.filter((v) => fold(v).startsWith(wanted));
  const contains = values.filter((v) => !fold(v).startsWith(wanted) && fold(v).includes(wanted));
  return [...starts, ...contains];
}

type Enumeration = Extract<ParamSpec, { kind: 'choice' | 'choices' }>;

/** Other spellings shorter than this (two-letter codes) are offered only when typed whole. */
const SPELLING_PREFIX_MIN = 3;

/**
 * The values of an enumeration matching what was typed, best first: the value a code or short form means (`PK` is
 * Pakistan, `USA` the United States), then the values as matchValues orders them, then the values whose other
 * spellings start with it (`Holl` reaches the Netherlands). Values in `taken` are left out.
 */
function enumerationMatches(spec: Enumeration, typed: string, taken: ReadonlySet<string>): string[] {
  const wanted = fold(typed);
  const spellings =
    wanted === '' ? [] : Object.entries(spec.synonyms ?? {}).map(([s, v]) => [fold(s), v] as const);
  const meant = spellings.filter(([s]) => s === wanted).map(([, v]) => v);
  const begun =
    wanted.length < SPELLING_PREFIX_MIN
      ? []
      : spellings.filter(([s]) => s !== wanted && s.startsWith(wanted)).map(([, v]) => v);
  const matched = matchValues(spec.values, typed);
  return [...new Set([...meant, ...matched, ...begun])].filter((v) => !taken.has(fold(v)));
}

/**
 * Every value an enumerated parameter (or a text parameter's known values) may take next, given what was typed,
 * best first: for a comma list, the last item is completed and the items before it kept (and not offered again).
 * Each is the parameter's whole value.
 */
function completeValues(spec: ParamSpec, typed: string): string[] {
  if (spec.kind === 'choice') return enumerationMatches(spec, typed, new Set());
  // Free text with values the service is known to take: those are offered, anything else is still accepted.
  if (spec.kind === 'text' && spec.known !== undefined) return matchValues(spec.known, typed);
  if (spec.kind !== 'choices') return [];
  const parts = typed.split(',');
  const last = parts.pop() ?? '';
  const done = parts.map((p) => p.trim()).filter((p) => p !== '');
  const prefix = done.length === 0 ? '' : `${done.join(',')},`;
  return enumerationMatches(spec, last, new Set(done.map(fold))).map((v) => `${prefix}${v}`);
}

/** Where the last word of a free text starts: a quoted value with spaces, even unclosed, is one word. */
function lastWordStart(text: string): number {
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (/\s/.test(ch)) {
      start = i + 1;
    }
  }
  return start;
}

const same = (value: string): Completion => ({ label: value, value });

/** A name free text offers: as shown, the option or bound it sets (as givenNames names it), its description. */
interface OfferedName {
  name: string;
  sets: string;
  description: string;
}

/**
 * The names free text offers, each with its description: every option by the name people are given (`hair`, not
 * `hairColor`); to someone typing a service spelling (`followersM`), the service's own names too, with the names
 * of the two bounds of a range (`followersMin`, `followersMax`), each after its option.
 */
function optionNames(table: ParamTable, spelled: boolean): OfferedName[] {
  const names: OfferedName[] = [];
  for (const [param, spec] of Object.entries(table)) {
    const said = peopleName(param, spec);
    names.push({ name: said, sets: param, description: spec.description });
    if (!spelled) continue;
    if (said !== param) names.push({ name: param, sets: param, description: spec.description });
    if (spec.kind !== 'range') continue;
    names.push({ name: spec.min, sets: spec.min, description: `Lower bound of ${said} (one number).` });
    names.push({ name: spec.max, sets: spec.max, description: `Upper bound of ${said} (one number).` });
  }
  return names;
}

/** The names a key already in the text leaves nothing to set: its option and both bounds, or the one bound it is. */
function givenNames(table: ParamTable, key: string): string[] {
  const target = resolveOption(table, key);
  if (target === null) return [];
  const { name, spec, bound } = target;
  if (spec.kind !== 'range') return [name];
  if (bound === null) return [name, spec.min, spec.max];
  return [bound === 'min' ? spec.min : spec.max];
}

/**
 * Completions of free text naming the options of `table`: what was typed, as it is (so picking a completion never
 * loses it), then the option names (and, once a letter is typed, the names of a range's bounds) matching the last
 * word, with their descriptions, leaving out what the text sets already; or, after `name:`, the values of that
 * option (any of `every`, the command's options) when it is an enumeration. The words before the last one are kept
 * in front of every completion.
 */
function textCompletions(table: ParamTable, typed: string, every: ParamTable = table): Completion[] {
  const text = typed.trimStart();
  const start = lastWordStart(text);
  const head = text.slice(0, start);
  const word = text.slice(start);
  const kept = text === '' ? [] : [same(text)];
  const others = (completions: Completion[]) => [...kept, ...completions.filter((c) => c.value !== text)];
  const separator = /^([A-Za-z][A-Za-z0-9_-]*)[:=](.*)$/s.exec(word);
  if (separator === null) {
    const given = new Set(
      head
        .split(/\s+/)
        .map((part) => /^([A-Za-z][A-Za-z0-9_-]*)[:=]/.exec(part)?.[1])
        .flatMap((key) => (key === undefined ? [] : givenNames(table, key))),
    );
    const offered = optionNames(table, isSpelling(word)).filter((offer) => !given.has(offer.sets));
    const described = new Map(offered.map((offer) => [offer.name, offer.description]));
    const names = matchValues([...described.keys()], word);
    return others(
      names.map((name) => ({ label: `${name}: ${described.get(name) ?? ''}`, value: `${head}${name}:` })),
    );
  }
  const [, key = '', raw = ''] = separator;
  // A value is completed for any option the text may set, typed options included (`country:pk` in filters).
  const param = resolveKey(every, key);
  const spec = param === null ? undefined : every[param];
  if (spec === undefined) return kept;
  const partial = raw.replace(/^["']/, '').replace(/["']$/, '');
  return others(
    completeValues(spec, partial).map((value) => ({
      label: `${key}:${value}`,
      value: `${head}${key}:${quoteValue(value)}`,
    })),
  );
}

/** What the completions are read from. */
export interface CompletionParts {
  registry: CommandRegistry;
  tenants: Pick<Tenants, 'access'>;
}

/** Creates the completer: each answer keeps to `limits`, values too long dropped before the count is taken. */
export function createCompletions(parts: CompletionParts) {
  const { registry, tenants } = parts;

  /** The names of the tenant's CRM lists; none without an account, or once `signal` aborts. */
  const listNames = async (actor: PersonRef, signal: AbortSignal): Promise<string[]> => {
    const access = await tenants.access({ platform: actor.platform, workspaceId: actor.workspaceId });
    if (access.status !== 'ok' || signal.aborted) return [];
    const result = await untilAborted(access.account.service.crm.listLists({ signal }), signal);
    return result === null ? [] : result.data.lists.map((list) => list.name ?? list.id);
  };

  const completionsOf = async (request: CompletionRequest, signal: AbortSignal): Promise<Completion[]> => {
    const def = registry.command(request.family, request.command);
    if (def === undefined) return [];
    const { field, typed } = request;
    if ('text' in field) {
      const table = Object.fromEntries(
        field.text.flatMap((name) => {
          const spec = def.params[name];
          return spec === undefined || spec.secret === true ? [] : [[name, spec] as const];
        }),
      );
      const every = Object.fromEntries(Object.entries(def.params).filter(([, spec]) => spec.secret !== true));
      return textCompletions(table, typed, every);
    }
    const spec = def.params[field.param];
    if (spec === undefined || spec.secret === true) return [];
    if (namesCrmList(spec)) {
      return matchValues(await listNames(request.actor, signal), typed).map(same);
    }
    return completeValues(spec, typed).map(same);
  };

  return async (request: CompletionRequest, limits: CompletionLimits, signal: AbortSignal) =>
    (await completionsOf(request, signal))
      .filter((c) => c.value !== '' && c.value.length <= limits.valueMax)
      .slice(0, limits.count);
}

/** What `work` resolves with; null once `signal` aborts, whatever `work` does then. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  let stop = () => {};
  const aborted = new Promise<null>((resolve) => {
    stop = () => resolve(null);
    signal.addEventListener('abort', stop, { once: true });
  });
  return Promise.race([
    work.catch((error: unknown) => (signal.aborted ? null : Promise.reject(error))),
    aborted,
  ]).finally(() => signal.removeEventListener('abort', stop));
}
