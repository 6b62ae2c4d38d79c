/**
 * What an option is for, read from its declaration: a name, a query, a person, a number, a country code, and the
 * shape of the words it takes (a link, an address, a creator, an id, a time).
 */
import type { ParamSpec } from '../params.js';
import { fold } from '../suggest.js';
import type { Word } from './text.js';
import type { ValueHit, Vocabulary } from './vocabulary.js';

export const hasName = (name: string, spec: ParamSpec, pattern: RegExp) =>
  [name, ...(spec.aliases ?? [])].some((typed) => pattern.test(fold(typed)));

/** Options a name goes to: a CRM list, a new list's name; a project when "project" is said. */
export function isNameParam(name: string, spec: ParamSpec, projectSaid: boolean): boolean {
  if (spec.kind !== 'text' || spec.secret === true) return false;
  if (spec.completedFrom !== undefined || name === 'name' || name === 'list') return true;
  return projectSaid && hasName(name, spec, /^project/);
}

export const isQuery = (name: string, spec: ParamSpec) =>
  (spec.kind === 'text' || spec.kind === 'texts') && hasName(name, spec, /^(q|query|artist|title)$/);

export const isAbout = (name: string, spec: ParamSpec) =>
  spec.kind === 'text' && hasName(name, spec, /^(topic|q|query|text|textsearch)$/);

export const isPerson = (spec: ParamSpec) => spec.kind === 'text' && spec.person !== undefined;

/** The shape of a word or an option's example: what kind of thing it is, whatever it says. */
export function shapeOf(text: string): string | null {
  const t = text.replace(/^"|"$/g, '');
  if (/^https?:\/\/\S+$/i.test(t)) return 'url';
  if (/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(t)) return 'email';
  if (
    /^<@[!&]?[A-Za-z0-9]+(\|[^>]*)?>$/.test(t) ||
    /^@[\w.-]{2,}$/.test(t) ||
    /^[a-z]+_[A-Za-z0-9]+$/.test(t)
  )
    return 'creator';
  if (/^(?=.*\d)(?=.*[a-f])[0-9a-f]{12,}$/i.test(t)) return 'hex';
  if (/^\d{1,2}:\d{2}$/.test(t)) return 'time';
  return null;
}

export const isNumeric = (spec: ParamSpec) =>
  spec.kind === 'integer' ||
  spec.kind === 'number' ||
  (spec.kind === 'text' && spec.example !== undefined && /^\d+$/.test(spec.example));

// Each country option's two-letter codes, by the country they name (its synonyms hold them: FR → France).
const CODES = new WeakMap<ParamSpec, Map<string, string>>();

function codesOf(spec: ParamSpec): Map<string, string> {
  let codes = CODES.get(spec);
  if (codes === undefined) {
    codes = new Map();
    if (spec.kind === 'choice' || spec.kind === 'choices') {
      for (const [typed, value] of Object.entries(spec.synonyms ?? {}))
        if (/^[A-Z]{2}$/.test(typed) && !codes.has(value)) codes.set(value, typed);
    }
    CODES.set(spec, codes);
  }
  return codes;
}

/**
 * A country named in words, for an option that takes a country code (a text option named country): the code
 * the country options' synonyms give it.
 */
export function countryCodeTargets(
  hits: readonly ValueHit[],
  codeParams: ReadonlyArray<[string, ParamSpec]>,
) {
  const first = codeParams[0];
  if (first === undefined) return [];
  for (const hit of hits) {
    const code = codesOf(hit.spec).get(hit.value);
    if (code !== undefined) return [{ hit: { spec: first[1], value: code }, name: first[0] }];
  }
  return [];
}

/** The names of an option that sets how many results are shown. */
export const PAGE_SIZE = /^(top|count|limit|perpage|pagesize)$/;

/** Words that count results: "50 profiles", "10 results". */
const COUNTED =
  /^(profile|result|creator|influencer|video|post|song|track|contact|account|row|item|people|person)$/;

/**
 * Whether the words after a number say it counts results ("50 full profiles", "10 tiktokers"): a noun of what is
 * shown, a family's name, or what a platform's creators are called, at most one word after the number.
 */
export function countsResults(words: readonly Word[], at: number, vocabulary: Vocabulary): boolean {
  for (const word of words.slice(at, at + 2)) {
    if (word.quoted) return false;
    if (COUNTED.test(word.stem) || vocabulary.familyWords.has(word.lower)) return true;
    const values = vocabulary.values.get(word.fold) ?? [];
    if (/ers$/.test(word.fold) && values.some((hit) => fold(hit.value) !== word.fold)) return true;
  }
  return false;
}
