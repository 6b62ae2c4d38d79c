/**
 * Autocomplete for `/scout` options: long enumerations (categories, countries, languages; a code or short form
 * suggests the value it means), comma lists of allowed values (completing the last item), the team's CRM lists,
 * read from the service with the server's own account (none before the server connects one), and the `filters`
 * text, which completes the name of an option without a typed option of its own (showing its description), or the
 * service's name of one bound of a range, and then its value when it is an enumeration.
 * Answers keep to Discord's limits: 25 choices, names and values of at most 100 characters.
 */
import type { ApplicationCommandOptionChoiceData, AutocompleteInteraction } from 'discord.js';
import type { ChatCore } from '../../core/chat/index.js';
import { quoteValue } from '../../core/command/dispatcher.js';
import { type ParamSpec, type ParamTable, resolveKey, resolveOption } from '../../core/command/params.js';
import { fold } from '../../core/command/suggest.js';
import type { Logger } from '../../core/logger.js';
import {
  COMMAND_LIMITS,
  cutAtWord,
  discordName,
  FILTERS_OPTION,
  LIST_PARAMS,
  mapCommand,
  type OptionMapping,
} from './commands.js';
import { tenantOfInteraction } from './tenancy.js';

/** Discord answers autocomplete only within 3 seconds; the CRM lookup gives up before that. */
export const LIST_LOOKUP_TIMEOUT_MS = 2000;

type Choice = ApplicationCommandOptionChoiceData<string>;

/** A choice, or nothing when its value is longer than Discord takes (the name is cut at a word instead). */
const choice = (name: string, value: string): Choice[] =>
  value === '' || value.length > COMMAND_LIMITS.CHOICE_VALUE_MAX
    ? []
    : [{ name: cutAtWord(name, COMMAND_LIMITS.CHOICE_NAME_MAX), value }];

/**
 * The allowed values matching what was typed, ignoring case, accents and punctuation: prefix matches first, then
 * any containing match, in their declared order; all of them when nothing was typed.
 */
export function matchValues(
  values: readonly string[],
  typed: string,
  limit: number = COMMAND_LIMITS.CHOICES_MAX,
): string[] {
  const wanted = fold(typed);
  if (wanted === '') return values.slice(0, limit);
  const starts = values.filter((v) => fold(v).startsWith(wanted));
  const contains = values.filter((v) => !fold(v).startsWith(wanted) && fold(v).includes(wanted));
  return [...starts, ...contains].slice(0, limit);
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
  const matched = matchValues(spec.values, typed, Number.POSITIVE_INFINITY);
  return [...new Set([...meant, ...matched, ...begun])].filter((v) => !taken.has(fold(v)));
}

/**
 * Every value an enumerated option (or a text option's known values) may take next, given what was typed, best first: for a comma list, the last
 * item is completed and the items before it kept (and not offered again). Each is the option's whole value; the
 * caller drops those too long to send before taking 25, so they do not crowd out the rest.
 */
function completeValues(spec: ParamSpec, typed: string): string[] {
  if (spec.kind === 'choice') return enumerationMatches(spec, typed, new Set());
  // Free text with values the service is known to take: those are offered, anything else is still accepted.
  if (spec.kind === 'text' && spec.known !== undefined)
    return matchValues(spec.known, typed, Number.POSITIVE_INFINITY);
  if (spec.kind !== 'choices') return [];
  const parts = typed.split(',');
  const last = parts.pop() ?? '';
  const done = parts.map((p) => p.trim()).filter((p) => p !== '');
  const prefix = done.length === 0 ? '' : `${done.join(',')},`;
  return enumerationMatches(spec, last, new Set(done.map(fold))).map((v) => `${prefix}${v}`);
}

/** Suggestions for an option of an enumerated kind; a comma list completes its last item. */
export function enumSuggestions(spec: ParamSpec, typed: string): Choice[] {
  return completeValues(spec, typed)
    .flatMap((value) => choice(value, value))
    .slice(0, COMMAND_LIMITS.CHOICES_MAX);
}

/** Where the last word of a filters text starts: a quoted value with spaces, even unclosed, is one word. */
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

/**
 * The names `filters` offers, each with its description: every option's own name and, with `bounds`, the service's
 * names of the two bounds of a range (`followersMin`, `followersMax`), each after its option.
 */
function optionNames(overflow: readonly OptionMapping[], bounds: boolean): Map<string, string> {
  const names = new Map<string, string>();
  for (const { param, spec } of overflow) {
    names.set(param, spec.description);
    if (!bounds || spec.kind !== 'range') continue;
    names.set(spec.min, `Lower bound of ${param} (one number).`);
    names.set(spec.max, `Upper bound of ${param} (one number).`);
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
 * Suggestions for the `filters` text of a command whose options in `overflow` have no typed option: what was
 * typed, as it is (so picking a suggestion never loses it), then the option names matching the last word (with
 * their descriptions), or, after `name:`, the values of that option when it is an enumeration. The words before
 * the last one are kept in front of every suggestion.
 */
export function filterSuggestions(overflow: readonly OptionMapping[], typed: string): Choice[] {
  const text = typed.trimStart();
  const start = lastWordStart(text);
  const head = text.slice(0, start);
  const word = text.slice(start);
  const table = Object.fromEntries(overflow.map((m) => [m.param, m.spec]));
  const kept = choice(text, text);
  const separator = /^([A-Za-z][A-Za-z0-9_-]*)[:=](.*)$/s.exec(word);
  if (separator === null) {
    const given = new Set(
      head
        .split(/\s+/)
        .map((part) => /^([A-Za-z][A-Za-z0-9_-]*)[:=]/.exec(part)?.[1])
        .flatMap((key) => (key === undefined ? [] : givenNames(table, key))),
    );
    const described = optionNames(overflow, word !== '');
    const names = matchValues(
      [...described.keys()].filter((name) => !given.has(name)),
      word,
    );
    const named = names.flatMap((name) => choice(`${name}: ${described.get(name) ?? ''}`, `${head}${name}:`));
    return [...kept, ...named.filter((c) => c.value !== text)].slice(0, COMMAND_LIMITS.CHOICES_MAX);
  }
  const [, key = '', raw = ''] = separator;
  const param = resolveKey(table, key);
  const spec = param === null ? undefined : table[param];
  if (spec === undefined) return kept;
  const partial = raw.replace(/^["']/, '').replace(/["']$/, '');
  const values = completeValues(spec, partial).flatMap((value) =>
    choice(`${key}:${value}`, `${head}${key}:${quoteValue(value)}`),
  );
  return [...kept, ...values.filter((c) => c.value !== text)].slice(0, COMMAND_LIMITS.CHOICES_MAX);
}

async function listSuggestions(chat: ChatCore, interaction: AutocompleteInteraction, typed: string) {
  const lists = await chat.listNames(
    tenantOfInteraction(interaction),
    AbortSignal.timeout(LIST_LOOKUP_TIMEOUT_MS),
  );
  const names = (lists ?? []).filter((name) => name.length <= COMMAND_LIMITS.CHOICE_VALUE_MAX);
  return matchValues(names, typed).flatMap((name) => choice(name, name));
}

/** Answers one autocomplete interaction from a served server; on any failure it answers with no suggestions. */
export async function answerAutocomplete(
  interaction: AutocompleteInteraction,
  chat: ChatCore,
  logger: Logger,
) {
  let suggestions: Choice[] = [];
  try {
    const family = chat.catalogue.families.find(
      (f) => discordName(f.name) === interaction.options.getSubcommandGroup(false),
    );
    const def = family?.commands.find(
      (c) => discordName(c.name) === interaction.options.getSubcommand(false),
    );
    const focused = interaction.options.getFocused(true);
    const mapping = def === undefined ? undefined : mapCommand(def);
    const option = mapping?.typed.find((m) => m.discordName === focused.name);
    if (mapping !== undefined && focused.name === FILTERS_OPTION) {
      suggestions = filterSuggestions(mapping.overflow, focused.value);
    } else if (option !== undefined && LIST_PARAMS.has(option.param)) {
      // The lists of this server's own account; a server without one (or outside) gets none.
      suggestions = await listSuggestions(chat, interaction, focused.value);
    } else if (option !== undefined) {
      suggestions = enumSuggestions(option.spec, focused.value);
    }
  } catch (error) {
    logger.warn({ err: error }, 'Discord autocomplete failed');
  }
  await interaction.respond(suggestions);
}
