/**
 * How Scout names options and values to people: an option by a plain name it answers to (`followers`, `category`,
 * `has-email`), never by the service's spelling of it (`followersMin`, `mainCategory`, `emailExists`) unless the
 * person typed that spelling; a status in words (`to outreach`, not `TO_OUTREACH`); and the service's field names
 * in a message (`images[0].zoomFactor`, `parameters.hueShift`) said by those names (`image1.zoom`, `hue-shift`).
 * Every name said still reaches its option when typed: keys are read loosely (option-names.ts).
 */
import { choiceLabel } from '../ui/index.js';
import { resolveOption } from './option-names.js';
import type { ParamSpec, ParamTable } from './param-spec.js';
import { fold } from './suggest.js';

/** A service spelling: a camelCase or snake_case word (`followersMin`, `song_id`). */
export const isSpelling = (word: string): boolean => /[a-z0-9][A-Z]|_/.test(word);

/** One lowercase word: a name people may be shown as it is. */
const PLAIN = /^[a-z][a-z0-9]*$/;

/** `hasEmail` → `has-email`, `song_id` → `song-id`. */
const hyphenated = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();

/**
 * The name people are given for an option: the first of its names (its own, then its aliases) that is one
 * lowercase word, else its first alias (or its own name) hyphenated.
 */
export function peopleName(name: string, spec: ParamSpec): string {
  const plain = [name, ...(spec.aliases ?? [])].find((candidate) => PLAIN.test(candidate));
  return plain ?? hyphenated(spec.aliases?.[0] ?? name);
}

/** An UPPER_SNAKE value of the service. */
const UPPER = /^[A-Z][A-Z0-9_]*$/;

/** A value as people read it: an UPPER_SNAKE one in words (`TO_OUTREACH` → `to outreach`), others as they are. */
export function valueWord(value: string): string {
  return UPPER.test(value) ? choiceLabel(value).toLowerCase() : value;
}

/**
 * How a message names an option typed as `typed`: as typed, with the name people are given beside an alias that
 * is not it (`subscribers (followers)`); by that name when nothing was typed (a platform's option, a form's field).
 */
export function optionLabel(name: string, spec: ParamSpec, typed?: string): string {
  const people = peopleName(name, spec);
  if (typed === undefined) return people;
  return fold(typed) === fold(name) || fold(typed) === fold(people) ? typed : `${typed} (${people})`;
}

/** The name an input field was typed by (bind.ts `typedName`), or null. */
export type TypedOf = (field: string) => string | null;

/**
 * What people call an input field of `table` (`followersMin`): its option's name (or the name it was typed by),
 * a bound of a range as `min followers`; the field itself when the person typed it so. Null when no option sets it.
 */
export function fieldName(table: ParamTable, field: string, typedOf: TypedOf = () => null): string | null {
  const target = resolveOption(table, field);
  if (target === null) return null;
  const { name, spec, bound } = target;
  const key = bound === null || spec.kind !== 'range' ? name : bound === 'min' ? spec.min : spec.max;
  const typed = typedOf(key);
  if (typed !== null && fold(typed) === fold(field)) return typed;
  const said = typed ?? peopleName(name, spec);
  return bound === null ? said : `${bound} ${said}`;
}

/** A field's path in a message: `zoomFactor`, `parameters.hueShift`, `images[0].zoomFactor`, `images.0.hue`. */
const PATH = /\b[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\]|\.\d+)?(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\]|\.\d+)?)*/g;

/**
 * A part of a path before its field: an element of a list counted from one (`images[0]` → `image1.`), a name
 * people type with its number (`image2.`) kept, a container of the service (`parameters.`) left out.
 */
function prefixWords(segment: string): string {
  const element = /^([A-Za-z_]\w*?)s?(?:\[(\d+)\]|\.(\d+))$/.exec(segment);
  if (element !== null) return `${element[1]}${Number(element[2] ?? element[3]) + 1}.`;
  return /^[A-Za-z]+\d+$/.test(segment) ? `${segment}.` : '';
}

/**
 * `text` with the service's name of each field of `table` it mentions (a word or a path: `viralityScore`,
 * `parameters.hueShift`, `images[0].zoomFactor`) said as people know it (`virality`, `hue-shift`, `image1.zoom`);
 * a name the person typed (`typedOf`) stays as typed. Other words, names people type (`image1.zoom`) and values
 * quoted as typed (`"hasEmail"`) are left as they are.
 */
export function inPeopleWords(text: string, table: ParamTable, typedOf: TypedOf = () => null): string {
  const said = (path: string) => {
    const segments = path.split(/\.(?=[A-Za-z_])/);
    const last = segments.pop() as string;
    const service = isSpelling(last) || segments.some((segment) => prefixWords(segment) !== `${segment}.`);
    const name = service ? fieldName(table, last, typedOf) : null;
    return name === null ? path : `${segments.map(prefixWords).join('')}${name}`;
  };
  // Odd parts are quoted: what someone typed, said back as it was.
  return text
    .split(/("[^"]*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(PATH, said)))
    .join('');
}

/** An UPPER_SNAKE word of several parts (`TO_OUTREACH`): a service value, said in words wherever it appears. */
const UPPER_PARTS = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/** `text` with the service's UPPER_SNAKE values in words: those of `values` (`DONE`), and any of several parts. */
export function valuesInWords(text: string, values: readonly string[] = []): string {
  const single = values.filter((value) => UPPER.test(value) && !value.includes('_'));
  const words =
    single.length === 0 ? text : text.replace(new RegExp(`\\b(?:${single.join('|')})\\b`, 'g'), valueWord);
  return words.replace(UPPER_PARTS, valueWord);
}
