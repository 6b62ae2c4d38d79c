/**
 * Whether a sentence asks to write. A command declared to change something (`mutates`) is read only from a
 * sentence with a verb of writing that fits it ("create" a list, "add" to one, "stop" a digest, "set" a cap), or
 * that names a family whose default writes ("daily digest at 09:00"): "what's my balance" never suggests adding
 * an admin, nor "viral posts past 30 days" removing digest 30.
 */
import type { Analysis } from './analysis.js';
import { stem, type Word } from './text.js';
import type { CommandEntry, Vocabulary } from './vocabulary.js';

/** Verbs of writing, by what they do; a command fits a group that has one of its names (`add`, `remix`, `off`). */
const GROUPS: readonly (readonly string[])[] = [
  ['create', 'make', 'made', 'new', 'build', 'setup'],
  ['add', 'put', 'include', 'insert', 'save', 'make', 'made', 'give', 'grant', 'schedule'],
  ['remove', 'delete', 'drop', 'erase', 'clear', 'unset', 'lift', 'cancel', 'kick', 'stop'],
  ['rename', 'call', 'retitle'],
  ['update', 'set', 'mark', 'move', 'change', 'edit', 'modify', 'describe'],
  ['connect', 'plug'],
  ['disconnect', 'unlink', 'revoke'],
  ['on', 'enable', 'subscribe', 'notify', 'activate'],
  ['off', 'disable', 'stop', 'unsubscribe', 'silence', 'deactivate', 'pause'],
  ['remix', 'brighten', 'darken'],
];

/** A word's root, so "removed", "removing" and "remove" meet. */
const root = (word: string) => {
  const stemmed = stem(word);
  return stemmed.length > 4 ? stemmed.replace(/e$/, '') : stemmed;
};

const VERBS: ReadonlyMap<string, ReadonlySet<number>> = (() => {
  const verbs = new Map<string, Set<number>>();
  GROUPS.forEach((group, i) => {
    for (const verb of group) {
      const groups = verbs.get(root(verb)) ?? new Set<number>();
      groups.add(i);
      verbs.set(root(verb), groups);
    }
  });
  return verbs;
})();

/** The groups of the writing verbs a sentence says ("on" counts after "turn" or "switch"). */
function groupsSaid(words: readonly Word[]): Set<number> {
  const said = new Set<number>();
  words.forEach((word, i) => {
    if (word.quoted) return;
    if (word.lower === 'on' && !/^(turn|switch)$/.test(words[i - 1]?.lower ?? '')) return;
    for (const group of VERBS.get(root(word.lower)) ?? []) said.add(group);
  });
  return said;
}

/** The command's own names: its name's parts, its family's name and aliases. */
function namesOf(entry: CommandEntry, vocabulary: Vocabulary): string[] {
  const names = entry.def.name.split('-');
  for (const [typed, family] of vocabulary.families) if (family === entry.family) names.push(typed);
  return names.map(root);
}

/** Whether the sentence asks for what the command writes (always true of a command that writes nothing). */
export function saysWriting(entry: CommandEntry, analysis: Analysis, vocabulary: Vocabulary): boolean {
  if (entry.def.mutates !== true) return true;
  const names = namesOf(entry, vocabulary);
  // A family whose default writes, named: "daily digest at 09:00", "notifications here".
  if (entry.isDefault && analysis.words.some((w) => !w.quoted && names.includes(root(w.lower)))) return true;
  const said = groupsSaid(analysis.words);
  if (said.size === 0) return false;
  const fits = new Set<number>();
  for (const name of names) for (const group of VERBS.get(name) ?? []) fits.add(group);
  // A command named by a noun ("cap", "key") fits any verb of writing.
  if (fits.size === 0) return true;
  for (const group of said) if (fits.has(group)) return true;
  return false;
}

/**
 * What a verb of writing weighs for a command it fits without being its name ("put" for `add`, "stop" for
 * `off`): what the command's name weighs.
 */
export function verbCue(word: Word, entry: CommandEntry, vocabulary: Vocabulary): number {
  if (word.quoted) return 0;
  const groups = VERBS.get(root(word.lower));
  if (groups === undefined) return 0;
  let weight = 0;
  for (const part of entry.def.name.split('-')) {
    if (part === word.lower || ![...(VERBS.get(root(part)) ?? [])].some((g) => groups.has(g))) continue;
    weight = Math.max(weight, vocabulary.cues.get(`~${stem(part)}`)?.get(entry) ?? 0);
  }
  return weight;
}

/** The word that asks to remove a setting ("remove my cap", "lift the cap"), for an option that takes `off`. */
export function offWord(words: readonly Word[], used: ReadonlySet<number>): Word | undefined {
  const remove = VERBS.get(root('remove'));
  return words.find(
    (w) =>
      !used.has(w.index) &&
      !w.quoted &&
      (w.lower === 'off' || [...(VERBS.get(root(w.lower)) ?? [])].some((g) => remove?.has(g) === true)),
  );
}
