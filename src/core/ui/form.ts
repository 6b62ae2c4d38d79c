/**
 * Forms as the reply model knows them: the fields of a platform form (a Slack modal, a Discord modal), what each
 * takes, and how a platform with few inputs lays them out. A command's form is derived from its declaration in
 * core/command/forms; renderers need only what is here.
 */

/** Id of the free-text input that takes every option not shown as a field, in the text syntax. */
export const FORM_MORE = '+more';

/**
 * How a field takes its value: a line of text, several lines, one or several of `choices`, yes/no, a person
 * (picked where the platform has a picker; else a user id typed), or a secret (an API key: a plain input that
 * opens empty, whose value is never echoed, stored or logged).
 */
export type FormInput = 'text' | 'lines' | 'choice' | 'choices' | 'yes-no' | 'person' | 'secret';

/** One input of a form: one option of the command. */
export interface FormField {
  /** The option's name in the text syntax: the field's id on every platform. */
  readonly name: string;
  /** A short label ("Followers", "Engagement rate (%)"). */
  readonly label: string;
  /** The option's help line, with what it allows (values, bounds, how to write a range or a list). */
  readonly hint: string;
  /** The option's own description, which the hint starts with. */
  readonly description: string;
  /** What the hint says the field allows, after the description ('' when it says nothing more). */
  readonly allows: string;
  /** An example of a value ("10k-100k"). */
  readonly placeholder: string;
  readonly required: boolean;
  readonly input: FormInput;
  /** The allowed values of a choice input (empty otherwise). */
  readonly choices: readonly string[];
  /** The words a person input takes instead of a person (`everyone`; empty otherwise). */
  readonly also: readonly string[];
  /** The value the form opens with. */
  readonly value?: string;
  /** With `value`: the field as the text syntax writes it (`name:value`, quoted as needed), for a "more" input. */
  readonly typed?: string;
}

/** A command's form. */
export interface FormSpec {
  readonly family: string;
  readonly command: string;
  /** A short title ("creators search", "Edit @ana"). */
  readonly title: string;
  /** The command as people type it: `/scout creators search`. */
  readonly line: string;
  /** Options set by whatever opened the form (the list and creator of a contact): sent along, never shown as inputs. */
  readonly fixed: Readonly<Record<string, string>>;
  /** Every other option, the most used first; or, in a private form, the secrets alone. */
  readonly fields: readonly FormField[];
  /** Text the "more" input opens with, where a platform shows one (options typed in the text syntax). */
  readonly more: string;
}

/**
 * Whether `spec` is private: it asks for secrets, shows only to its person and is answered to them alone, and what is
 * typed into it is never kept to open it again.
 */
export function isPrivateForm(spec: FormSpec): boolean {
  return spec.fields.some((field) => field.input === 'secret');
}

/** Words written in capitals in a label. */
const CAPITALS: Readonly<Record<string, string>> = { id: 'ID', ids: 'IDs', url: 'URL', urls: 'URLs' };

/** A name in words, for a label: `nichesToPromote` → "Niches to promote", `song_id` → "Song id", `week1` → "Week 1". */
export function nameInWords(name: string): string {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(' ')
    .map((word) => CAPITALS[word] ?? word)
    .join(' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** An UPPER_SNAKE value in words (`TO_OUTREACH` → "To outreach"); other values as they are. */
export function choiceLabel(value: string): string {
  return /^[A-Z][A-Z0-9_]*$/.test(value) ? nameInWords(value.toLowerCase()) : value;
}

/** The values a hint lists, as people may type them, up to `max` characters; null when they do not fit. */
export function choicesText(values: readonly string[], max: number): string | null {
  const shown = values.map((value) =>
    /^[A-Z][A-Z0-9_]*$/.test(value) ? choiceLabel(value).toLowerCase() : value,
  );
  const joined = shown.join(', ');
  return joined.length <= max ? joined : null;
}

/** The label of an input of `spec` by its id, for answers that name it ("More options" for `FORM_MORE`). */
export function inputLabel(spec: FormSpec, id: string): string {
  return spec.fields.find((field) => field.name === id)?.label ?? 'More options';
}

/** How a platform lays a form out within its number of inputs. */
export interface FormLayout {
  /** The fields shown as inputs, in order. */
  readonly shown: readonly FormField[];
  /** The fields reached through the "more" input. */
  readonly rest: readonly FormField[];
  /** Whether there is a "more" input (`FORM_MORE`). */
  readonly more: boolean;
  /** What the "more" input opens with: the spec's text and the values of fields not shown. */
  readonly moreText: string;
}

/**
 * The layout of `spec` in at most `inputsMax` inputs: every field, or the first ones and a "more" input for the
 * rest. It depends on the fields alone, so that a submission is read as the form was shown.
 */
export function formLayout(spec: FormSpec, inputsMax: number): FormLayout {
  if (spec.fields.length <= inputsMax) return { shown: spec.fields, rest: [], more: false, moreText: '' };
  const room = Math.max(0, inputsMax - 1);
  const rest = spec.fields.slice(room);
  const moreText = [spec.more.trim(), ...rest.flatMap((f) => (f.typed === undefined ? [] : [f.typed]))]
    .filter((part) => part !== '')
    .join(' ');
  return { shown: spec.fields.slice(0, room), rest, more: true, moreText };
}
