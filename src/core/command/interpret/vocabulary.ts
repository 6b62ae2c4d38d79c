/**
 * What the interpreter knows of commands, read once from the registry's declarations: the words that name each
 * command (family names and aliases, command names, the words of descriptions, weighted by how few commands share
 * them) and every value an option takes (choice values and their synonyms, boolean options by name), found in a
 * sentence as phrases of up to MAX_PHRASE words.
 */
import type { ParamSpec } from '../params.js';
import { fold } from '../suggest.js';
import type { CommandDef, CommandRegistry } from '../types.js';
import { FILLER, stem } from './text.js';

/** The longest value phrase looked for, in words ("Beauty & Personal Care", "not contacted yet"). */
export const MAX_PHRASE = 4;

/** A command as the interpreter weighs it. */
export interface CommandEntry {
  def: CommandDef<unknown>;
  /** The family's own name (the line's first word). */
  family: string;
  /** The command its family runs when no subcommand is named. */
  isDefault: boolean;
  /** Each option's spec → its canonical name, for value hits. */
  paramOf: Map<ParamSpec, string>;
}

/** A value a phrase names: the option spec that takes it and the value as the option's own list writes it. */
export interface ValueHit {
  spec: ParamSpec;
  value: string;
}

/** The interpreter's index of one registry. */
export interface Vocabulary {
  commands: CommandEntry[];
  /** A word (lower case, or its stem) → the commands it points at, with a weight. */
  cues: Map<string, Map<CommandEntry, number>>;
  /** The cue words of command names, with the commands they name. */
  commandWords: Map<string, Set<CommandEntry>>;
  /** The cue words of family names (strong: they name a command). */
  familyWords: Set<string>;
  /** A description's stem → the commands whose description has it (for MEANS). */
  described: Map<string, Set<CommandEntry>>;
  /** A folded phrase → the values it names. */
  values: Map<string, ValueHit[]>;
  /** Family names and aliases, folded: the values a help topic takes. */
  families: Map<string, string>;
}

const FAMILY_WEIGHT = 2;
const FAMILY_STEM_WEIGHT = 1.2;
const DEFAULT_BONUS = 0.3;
const COMMAND_WEIGHT = 2;
const DESCRIPTION_WEIGHT = 0.8;
const FAMILY_DESCRIPTION_WEIGHT = 0.3;

const wordsOfText = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w.length >= 3 && !FILLER.has(w));

/** Adds a word's weight for a command: the strongest of its names, plus what descriptions add (`sum`). */
function addCue(cues: Vocabulary['cues'], word: string, entry: CommandEntry, weight: number, sum = false) {
  let byCommand = cues.get(word);
  if (byCommand === undefined) {
    byCommand = new Map();
    cues.set(word, byCommand);
  }
  const before = byCommand.get(entry) ?? 0;
  byCommand.set(entry, sum ? before + weight : Math.max(before, weight));
}

function addValue(values: Vocabulary['values'], key: string, hit: ValueHit) {
  if (key === '') return;
  const hits = values.get(key) ?? [];
  if (!hits.some((h) => h.spec === hit.spec)) hits.push(hit);
  values.set(key, hits);
}

/** The phrases that name each value of an option: the value, its parts ("Beauty & Personal Care": "beauty"), synonyms. */
function indexValues(values: Vocabulary['values'], spec: ParamSpec) {
  if (spec.kind === 'boolean') {
    for (const name of spec.aliases ?? []) addValue(values, fold(name), { spec, value: 'yes' });
    return;
  }
  if (spec.kind !== 'choice' && spec.kind !== 'choices') return;
  const own = new Set(spec.values.map(fold));
  for (const value of spec.values) {
    addValue(values, fold(value), { spec, value });
    if (!/\s/.test(value) && stem(value) !== fold(value)) addValue(values, stem(value), { spec, value });
    // A value of several parts is reached by each part no other value spells ("beauty", "personal care").
    const parts = value.split(/\s*(?:&|,|\band\b)\s*/i).filter((part) => part.trim() !== '');
    if (parts.length > 1) {
      for (const part of parts) if (!own.has(fold(part))) addValue(values, fold(part), { spec, value });
    }
  }
  for (const [typed, value] of Object.entries(spec.synonyms ?? {}))
    addValue(values, fold(typed), { spec, value });
}

/** Builds the index of a registry's declarations. */
export function buildVocabulary(registry: CommandRegistry): Vocabulary {
  const commands: CommandEntry[] = [];
  const cues: Vocabulary['cues'] = new Map();
  const familyWords = new Set<string>();
  const commandWords = new Map<string, Set<CommandEntry>>();
  const values: Vocabulary['values'] = new Map();
  const families = new Map<string, string>();
  const indexed = new Set<ParamSpec>();
  const descriptions = new Map<string, Set<CommandEntry>>();
  for (const family of registry.families) {
    // A name of no letters ("?") is never a word of a sentence: it is not indexed, lest every symbol match it.
    for (const name of [family.name, ...(family.aliases ?? [])])
      if (fold(name) !== '') families.set(fold(name), family.name);
    for (const def of family.commands) {
      const paramOf = new Map<ParamSpec, string>();
      for (const [name, spec] of Object.entries(def.params)) {
        paramOf.set(spec, name);
        if (!indexed.has(spec)) {
          indexed.add(spec);
          indexValues(values, spec);
        }
      }
      commands.push({ def, family: family.name, isDefault: family.defaultCommand === def.name, paramOf });
    }
  }
  // How many commands share a word of a command name or a description: rarer words weigh more.
  const commandNameCount = new Map<string, number>();
  const descriptionCount = new Map<string, number>();
  const familyDescriptionCount = new Map<string, number>();
  const namePartsOf = (entry: CommandEntry) => [...new Set(entry.def.name.split('-').map((w) => stem(w)))];
  const descriptionOf = (text: string) => [...new Set(wordsOfText(text).map((w) => stem(w)))];
  for (const entry of commands) {
    for (const part of namePartsOf(entry)) commandNameCount.set(part, (commandNameCount.get(part) ?? 0) + 1);
    for (const word of descriptionOf(entry.def.description))
      descriptionCount.set(word, (descriptionCount.get(word) ?? 0) + 1);
  }
  for (const family of registry.families) {
    for (const word of descriptionOf(family.description))
      familyDescriptionCount.set(word, (familyDescriptionCount.get(word) ?? 0) + 1);
  }
  for (const entry of commands) {
    const family = registry.family(entry.family);
    if (family === undefined) continue;
    const bonus = entry.isDefault ? DEFAULT_BONUS : 0;
    for (const name of [family.name, ...(family.aliases ?? [])]) {
      if (fold(name) === '') continue;
      addCue(cues, name.toLowerCase(), entry, FAMILY_WEIGHT + bonus);
      familyWords.add(name.toLowerCase());
      // The stem reaches the family too, more weakly ("chart" for "charts", "spent" for "spend").
      const stemmed = `~${stem(name)}`;
      addCue(cues, stemmed, entry, FAMILY_STEM_WEIGHT + bonus);
      familyWords.add(stemmed);
    }
    for (const part of namePartsOf(entry)) {
      // A command named by an everyday word ("show", "get", "list") is named more weakly.
      const everyday = FILLER.has(part) ? 0.5 : 1;
      addCue(cues, `~${part}`, entry, (everyday * COMMAND_WEIGHT) / (commandNameCount.get(part) ?? 1));
      const named = commandWords.get(`~${part}`) ?? new Set<CommandEntry>();
      named.add(entry);
      commandWords.set(`~${part}`, named);
    }
    for (const word of descriptionOf(entry.def.description)) {
      const described = descriptions.get(word) ?? new Set<CommandEntry>();
      described.add(entry);
      descriptions.set(word, described);
      addCue(cues, `~${word}`, entry, DESCRIPTION_WEIGHT / (descriptionCount.get(word) ?? 1));
    }
    for (const word of descriptionOf(family.description)) {
      addCue(
        cues,
        `~${word}`,
        entry,
        FAMILY_DESCRIPTION_WEIGHT / (familyDescriptionCount.get(word) ?? 1),
        true,
      );
    }
  }
  return { commands, cues, commandWords, familyWords, described: descriptions, values, families };
}

/** How an option ranks among its command's: what people filter by most first, paging last. */
export function rankOf(spec: ParamSpec): number {
  if (spec.rank === undefined) return 50;
  if (spec.rank === 'paging') return 100;
  return spec.rank.common;
}

/** Every name an option is typed by (its own, its aliases, a range's bound names), folded and stemmed. */
export function namesOfParam(name: string, spec: ParamSpec): Set<string> {
  const names = [name, ...(spec.aliases ?? [])];
  if (spec.kind === 'range') names.push(spec.min, spec.max);
  const out = new Set<string>();
  for (const typed of names) {
    out.add(fold(typed));
    out.add(stem(typed));
  }
  return out;
}
