/**
 * A submitted form read back: its fields' values as typed, and the "more" input's text in the text syntax, as
 * tokens checked by each option's coercion and the command's schema, every problem on the field that caused it;
 * the form a form id opens; and the command line a form stands for, where no form can be shown.
 */
import { type Platform, personOf, USER_ID_EXAMPLE } from '../../actor.js';
import type { ActionLookup } from '../../store/action-tokens.js';
import { FORM_MORE, type FormField, type FormLayout, type FormSpec, inputLabel } from '../../ui/index.js';
import { bindTokens } from '../bind.js';
import { issueSentence } from '../issues.js';
import { ParamError, type ParamSpec, type ParamTable, resolveKey } from '../params.js';
import { inPeopleWords } from '../people-names.js';
import { quoteValue } from '../syntax.js';
import { type Token, TokenizeError, tokenize } from '../tokenize.js';
import type { CommandDef, CommandRegistry } from '../types.js';
import { paramSyntax, shortName } from '../usage.js';
import { FORM_KIND, formRequest, readFormId } from './ids.js';
import { formSpec } from './spec.js';

/** What a form sent back: its fields' values by option name, the "more" input's text, and where it was sent from. */
export interface FormSubmission {
  readonly values: Readonly<Record<string, string>>;
  readonly more?: string;
  /** The platform, which says what a person's user id looks like. */
  readonly platform: Platform;
}

/** A submission read: the tokens to run the command with, or a problem for each input that has one. */
export type FormReading = { ok: true; tokens: Token[] } | { ok: false; errors: Record<string, string> };

/** The input names of `def`'s schema each option sets (a range sets its min and max). */
function inputKeys(table: ParamTable): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [name, spec] of Object.entries(table)) {
    keys.set(name, name);
    if (spec.kind === 'range') {
      keys.set(spec.min, name);
      keys.set(spec.max, name);
    }
  }
  return keys;
}

/**
 * Reads a submitted form of `spec` into the tokens of the text syntax, as if the command had been typed: the fixed
 * options, each shown field's value as typed (a list field's words one by one) and the "more" input's text. Every value goes
 * through the option's coercion and the whole through the command's schema; a problem is put on the field that
 * caused it, else on the "more" input (`FORM_MORE`) when there is one (options typed there), else on the first
 * field. `layout` says what the platform showed (every field, no "more" input, by default).
 */
export function readForm(
  def: CommandDef<unknown>,
  spec: FormSpec,
  submission: FormSubmission,
  layout: Pick<FormLayout, 'shown' | 'more'> = { shown: spec.fields, more: false },
): FormReading {
  const errors: Record<string, string> = {};
  const shown = new Set(layout.shown.map((field) => field.name));
  const fallback = layout.more ? FORM_MORE : (layout.shown[0]?.name ?? FORM_MORE);
  const where = (param: string) => {
    const name = resolveKey(def.params, param) ?? param;
    return shown.has(name) ? name : fallback;
  };
  const put = (key: string, message: string) => {
    errors[key] ??= message;
  };

  const tokens: Token[] = Object.entries(spec.fixed).map(([key, value]) => ({ key, value, source: key }));
  for (const field of layout.shown) {
    let raw = (submission.values[field.name] ?? '').trim();
    if (raw === '') {
      if (field.required) put(field.name, `${field.label} is required.`);
      continue;
    }
    if (field.input === 'person') {
      const word = field.also.find((also) => also.toLowerCase() === raw.replace(/^@/, '').toLowerCase());
      if (word !== undefined) raw = word;
      else if (personOf(raw, submission.platform) === null) {
        put(field.name, notAPerson(field, raw, submission.platform));
        continue;
      }
    }
    try {
      // A field holds its value as typed, quotes and all: only "more options" is written in the text syntax. A
      // field of several values (creator ids, image URLs, the words of a query) takes them by whitespace.
      const own: Token[] = (field.input === 'lines' ? raw.split(/\s+/) : [raw]).map((value) => ({
        key: field.name,
        value,
        source: value,
      }));
      // Each field alone first, so that every wrong field is named at once.
      bindTokens({ [field.name]: { ...def.params[field.name], required: false } as ParamSpec }, own);
      tokens.push(...own);
    } catch (error) {
      if (!(error instanceof ParamError)) throw error;
      put(field.name, fieldSentence(field, raw, error.message));
    }
  }
  const more = layout.more ? (submission.more?.trim() ?? '') : '';
  if (more !== '') {
    try {
      tokens.push(...tokenize(more));
    } catch (error) {
      if (!(error instanceof TokenizeError)) throw error;
      put(FORM_MORE, error.message);
    }
  }
  // The command as a whole is checked even when a field is wrong, so that every problem is named at once: a
  // wrong field counts as left out, and what is said of it stays what its own check said.
  const wrong = new Set(Object.keys(errors));
  const table: ParamTable =
    wrong.size === 0
      ? def.params
      : Object.fromEntries(
          Object.entries(def.params).map(([name, param]) => [
            name,
            wrong.has(name) ? ({ ...param, required: false } as ParamSpec) : param,
          ]),
        );
  let raw: Record<string, unknown>;
  try {
    raw = bindTokens(table, tokens);
  } catch (error) {
    if (!(error instanceof ParamError)) throw error;
    // Every shown field passed alone: what fails now was typed in the "more" input (a repeat, an unknown option).
    put(more === '' ? where(error.param) : fallback, issueSentence('', error.message));
    return { ok: false, errors };
  }
  const parsed = def.schema.safeParse(raw);
  if (!parsed.success) {
    const keys = inputKeys(def.params);
    const partial = Object.keys(errors).length > 0;
    for (const issue of parsed.error.issues) {
      const [first] = issue.path;
      // With an input wrong (counted as left out), a check of the whole ("nothing to change") on what was not given
      // may fail for that alone: it waits until the input is right.
      if (partial && issue.code === 'custom' && (typeof first !== 'string' || !(first in raw))) continue;
      const param = typeof first === 'string' ? keys.get(first) : undefined;
      const shownAs = param === undefined ? fallback : where(param);
      const path = issue.path.join('.');
      const label = param === shownAs ? inputLabel(spec, shownAs) : '';
      const said = inPeopleWords(issue.message, def.params);
      put(shownAs, issueSentence(param === shownAs ? label : inPeopleWords(path, def.params), said));
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, tokens };
}

/**
 * What a field's own check said of `raw`, as one sentence that names the field once by its label: the option as
 * the text syntax writes it (`followers:>-5`) becomes the value typed, and the option's name the field's label.
 */
function fieldSentence(field: FormField, raw: string, message: string): string {
  const typed = `${field.name}:${raw}`;
  const name = new RegExp(`(?<![\\w"])${field.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w"])`);
  let text = message;
  if (text.includes(typed)) {
    const rest = text.replace(typed, '');
    text = name.test(rest) ? text.replace(typed, `"${raw}"`) : text.replace(typed, `${field.label} "${raw}"`);
  }
  // The first mention is the option's; a later one may be a word of the sentence ("any country name or code").
  return issueSentence(
    field.label,
    text.replace(name, () => field.label),
  );
}

/** What is said of a person field's value that names nobody: what a user id looks like where it was typed. */
function notAPerson(field: FormField, raw: string, platform: Platform): string {
  const also = field.also.map((word) => `, or ${word}`).join('');
  const shown = raw.length <= 40 ? raw : `${raw.slice(0, 40)}…`;
  return `${field.label} takes a user id such as ${USER_ID_EXAMPLE[platform]}${also}; "${shown}" is not one.`;
}

/**
 * Opens the form a form id names, for `actor`: a command's own form, or a stored request still valid for them;
 * null when it names none (unknown, expired, another person's, not a form): the press is then an ordinary one, and
 * the dispatcher's answer says why.
 */
export async function openForm(
  deps: {
    registry: CommandRegistry;
    lookup: (token: string) => Promise<ActionLookup>;
  },
  id: string,
): Promise<FormSpec | null> {
  const named = readFormId(id);
  if (named === null) return null;
  if (named.kind === 'command') {
    const def = deps.registry.command(named.family, named.command);
    return def === undefined ? null : formSpec(def);
  }
  const found = await deps.lookup(named.token);
  if (found.status !== 'ok' || found.record.kind !== FORM_KIND) return null;
  const parsed = formRequest.safeParse(found.record.payload);
  if (!parsed.success) return null;
  const def = deps.registry.command(parsed.data.family, parsed.data.command);
  return def === undefined ? null : formSpec(def, parsed.data);
}

/** An option filled in, under the name people type it by (`category:Fitness`, not the service's `mainCategory`). */
function filledIn(def: CommandDef<unknown>, name: string, value: string): string {
  const param = def.params[name];
  return `${param === undefined ? name : shortName(name, param)}:${quoteValue(value)}`;
}

/** The command line a form stands for, as a person would type it: fixed options filled in, the others as syntax. */
export function formCommandLine(def: CommandDef<unknown>, spec: FormSpec): string {
  const fixed = Object.entries(spec.fixed).map(([name, value]) => filledIn(def, name, value));
  const rest = spec.fields.map((field) => {
    const param = def.params[field.name] as ParamSpec;
    const syntax =
      field.value === undefined ? paramSyntax(field.name, param) : filledIn(def, field.name, field.value);
    return field.required || field.value !== undefined ? syntax : `[${syntax}]`;
  });
  return ['/scout', def.family, def.name, ...fixed, ...rest].join(' ');
}
