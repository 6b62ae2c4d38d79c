/**
 * One command weighed against a sentence: the words that name it, the options its declaration lets the
 * sentence's numbers, dates, names and values fill, the words left over, and a score. Which option a value goes
 * to is read from the option table (its kind, names, aliases, values, rank), never from a list of commands.
 */
import { fold } from '../suggest.js';
import type { Analysis } from './analysis.js';
import {
  countryCodeTargets,
  countsResults,
  hasName,
  isAbout,
  isNameParam,
  isNumeric,
  isPerson,
  isQuery,
  PAGE_SIZE,
  shapeOf,
} from './options.js';
import { MEANS } from './text.js';
import type { CommandEntry, Vocabulary } from './vocabulary.js';
import { namesOfParam, rankOf } from './vocabulary.js';
import { offWord, verbCue } from './writes.js';

/** A command with the options a sentence gives it. */
export interface Reading {
  entry: CommandEntry;
  options: Record<string, string>;
  used: Set<number>;
  /** Content words not used (a date counts half). */
  unused: number;
  /** Words that are neither filler nor used, as typed. */
  unusedWords: string[];
  score: number;
  /** A word named the family or the command. */
  named: boolean;
  bound: number;
}

/** What a word standing for a description's word ("who" for "creators") weighs. */
const MEANT_WEIGHT = 0.6;

/** A word weighing this much for a command names it ("balance": the credits' own word). */
const NAMING_WEIGHT = 0.7;

/** What each content word left unused costs a reading. */
const UNUSED_COST = 1;

/** Weighs one command against the analysed sentence; null when a required option stays empty. */
export function evaluate(
  entry: CommandEntry,
  a: Analysis,
  vocabulary: Vocabulary,
  given: ReadonlySet<string> = new Set(),
): Reading | null {
  const { def } = entry;
  const params = Object.entries(def.params);
  const options: Record<string, string> = {};
  const used = new Set<number>();
  const soft = new Set<number>();
  const isFree = (start: number, end: number) => {
    for (let i = start; i < end; i++) if (used.has(i)) return false;
    return true;
  };
  const mark = (start: number, end: number) => {
    for (let i = start; i < end; i++) used.add(i);
  };
  const set = (name: string, value: string) => {
    options[name] = value;
    bound++;
  };
  let bound = 0;
  let score = 0;

  // A name said after its option's name ("the song Espresso"): that option's value.
  for (const span of a.named.names) {
    const lead = a.words[span.start - 1];
    if (lead === undefined || lead.quoted || !isFree(span.start, span.end)) continue;
    const target = params.find(
      ([name, spec]) =>
        spec.kind === 'text' &&
        spec.rest !== true &&
        options[name] === undefined &&
        !given.has(name) &&
        namesOfParam(name, spec).has(lead.stem),
    );
    if (target === undefined) continue;
    set(target[0], span.text);
    mark(span.start, span.end);
    used.add(lead.index);
  }

  // Names first: a list is named whole ("Fitness France") before its words are read as values.
  const projectSaid = a.words.some((w) => w.stem === 'project');
  const nameParams = params.filter(
    ([name, spec]) => !given.has(name) && isNameParam(name, spec, projectSaid),
  );
  for (const span of [...a.named.names].sort((x, y) => Number(y.sure) - Number(x.sure))) {
    if (!isFree(span.start, span.end)) continue;
    const target = nameParams.find(([name]) => options[name] === undefined);
    if (target === undefined) break;
    set(target[0], span.text);
    mark(span.start, span.end);
    score += span.sure ? 0.6 : 0.4;
  }

  // People, links, addresses, ids and times: each goes to the option whose example has its shape.
  for (const [name, spec] of params) {
    if (options[name] !== undefined || (spec.kind !== 'text' && spec.kind !== 'texts')) continue;
    const wanted = spec.example === undefined ? null : shapeOf(spec.example);
    const byShape =
      wanted === null && !isPerson(spec)
        ? []
        : a.words.filter((w) => !used.has(w.index) && !w.quoted && shapeOf(w.text) === (wanted ?? 'creator'));
    const taken = spec.rest === true || spec.kind === 'texts' ? byShape : byShape.slice(0, 1);
    if (taken.length > 0) {
      set(name, taken.map((w) => w.text).join(','));
      for (const w of taken) used.add(w.index);
    } else if (isPerson(spec)) {
      const everyone = a.named.people.find((p) => p.text === 'everyone' && isFree(p.start, p.end));
      const self = a.named.self;
      const person = everyone ?? (self !== null && isFree(self.start, self.end) ? self : undefined);
      if (person !== undefined) {
        set(name, person.text);
        mark(person.start, person.end);
      }
    } else if (hasName(name, spec, /email$/) && spec.kind === 'text') {
      const email = a.named.emails.find((e) => isFree(e.start, e.end));
      if (email !== undefined) {
        set(name, email.text);
        mark(email.start, email.end);
      }
    }
  }

  // Dates go to the options that take a date ("since" and "until" by their aliases).
  for (const date of a.dates) {
    if (!isFree(date.start, date.end)) continue;
    const wanted = date.until ? /^(until|to|before)$/ : /^(since|from|after)$/;
    const target = params.find(
      ([name, spec]) => spec.kind === 'text' && options[name] === undefined && hasName(name, spec, wanted),
    );
    if (target === undefined) continue;
    set(target[0], date.day);
    mark(date.start, date.end);
  }

  // Sorting words, onto the command's own sort option and its values.
  const sortBy = params.find(([name, spec]) => spec.kind === 'choice' && hasName(name, spec, /^sort(by)?$/));
  for (const sort of a.sorts) {
    if (!isFree(sort.start, sort.end)) continue;
    const spec = sortBy?.[1];
    if (sortBy === undefined || spec?.kind !== 'choice' || options[sortBy[0]] !== undefined) {
      for (let i = sort.start; i < sort.end; i++) soft.add(i);
      continue;
    }
    const values = spec.values.map((value) => ({ value, folded: fold(value) }));
    const value = (
      values.find((v) => v.folded === sort.field) ?? values.find((v) => v.folded.includes(sort.field))
    )?.value;
    if (value === undefined) continue;
    set(sortBy[0], value);
    const order = params.find(([name, s]) => s.kind === 'choice' && hasName(name, s, /^(sort)?order$/));
    if (order !== undefined && order[1].kind === 'choice' && order[1].values.includes('desc'))
      options[order[0]] = 'desc';
    mark(sort.start, sort.end);
  }

  const codeParams = params.filter(([name, spec]) => spec.kind === 'text' && hasName(name, spec, /^country/));
  // Numbers: what they count is said beside them, else they go to the first range (or a number the command needs).
  const ranges = params
    .filter(([, spec]) => spec.kind === 'range')
    .sort((x, y) => rankOf(x[1]) - rankOf(y[1]));
  const inDate = (i: number) => a.dates.some((d) => i >= d.start && i < d.end);
  for (const number of a.numbers) {
    if (!isFree(number.start, number.end) || inDate(number.start)) continue;
    const unitOf = (word: typeof number.after) =>
      word === null || used.has(word.index)
        ? undefined
        : params.find(
            ([name, spec]) =>
              options[name] === undefined &&
              (spec.kind === 'range' || isNumeric(spec)) &&
              (namesOfParam(name, spec).has(word.fold) || namesOfParam(name, spec).has(word.stem)),
          );
    let unitWord = number.after;
    let target = unitOf(number.after);
    if (target === undefined) {
      unitWord = number.before;
      target = unitOf(number.before);
    }
    // "50 full profiles", "10 videos": how many to show, never a filter.
    const counting =
      target === undefined && number.single !== null && countsResults(a.words, number.end, vocabulary);
    if (counting) {
      target = params.find(([name, spec]) => spec.kind === 'integer' && hasName(name, spec, PAGE_SIZE));
      const max = target?.[1].kind === 'integer' ? target[1].max : undefined;
      // More than a page holds: the pager shows them all, the number asks for nothing else.
      if (target === undefined || (max !== undefined && Number(number.single) > max)) {
        for (let i = number.start; i < number.end; i++) soft.add(i);
        continue;
      }
    }
    if (target === undefined) {
      unitWord = null;
      if (number.lead?.lower === 'top')
        target = params.find(([name, spec]) => spec.kind === 'integer' && hasName(name, spec, PAGE_SIZE));
      else if (number.percent)
        target = ranges.find(([, spec]) => spec.kind === 'range' && spec.percent === true);
      else if (number.single !== null)
        target = params.find(
          ([name, spec]) => options[name] === undefined && spec.positional === true && isNumeric(spec),
        );
      target ??= ranges.find(
        ([name, spec]) => options[name] === undefined && spec.kind === 'range' && spec.percent !== true,
      );
    }
    if (target === undefined || options[target[0]] !== undefined) continue;
    const [name, spec] = target;
    if (spec.kind !== 'range' && number.single === null) continue;
    if (spec.kind === 'integer' && spec.max !== undefined && Number(number.single) > spec.max) continue;
    // A page's size is no filter: it does not make one command fit the sentence better than another.
    if (counting) options[name] = number.single as string;
    else set(name, spec.kind === 'range' ? number.range : (number.single as string));
    mark(number.start, number.end);
    if (unitWord !== null) used.add(unitWord.index);
    if (number.tail !== null && unitWord !== null && isFree(number.tail.start, number.tail.end))
      mark(number.tail.start, number.tail.end);
  }

  // "remove my cap": an option that takes `off` (its description says so) takes it from a verb of removing.
  for (const [name, spec] of params) {
    const word =
      spec.kind === 'text' && /\bor off\b/i.test(spec.description) ? offWord(a.words, used) : undefined;
    if (word === undefined || options[name] !== undefined) continue;
    set(name, 'off');
    used.add(word.index);
  }

  // Values: the longest phrases first; a phrase several options take goes to the one people use most.
  for (const phrase of a.phrases) {
    if (!isFree(phrase.start, phrase.end)) continue;
    const targets = phrase.hits
      .map((hit) => ({ hit, name: entry.paramOf.get(hit.spec) }))
      .filter((t): t is { hit: typeof t.hit; name: string } => t.name !== undefined)
      .concat(countryCodeTargets(phrase.hits, codeParams))
      .filter(({ hit, name }) => hit.spec.kind === 'choices' || options[name] === undefined)
      .sort((x, y) => {
        const language = (name: string) => (phrase.language && /lang/i.test(name) ? -100 : 0);
        return language(x.name) + rankOf(x.hit.spec) - (language(y.name) + rankOf(y.hit.spec));
      });
    const first = targets[0];
    if (first === undefined) continue;
    const { hit, name } = first;
    const before = options[name];
    if (hit.spec.kind === 'choices' && before !== undefined) {
      if (!before.split(',').includes(hit.value)) options[name] = `${before},${hit.value}`;
    } else set(name, hit.value);
    mark(phrase.start, phrase.end);
  }

  // A help topic: a family named by its name (its example is a family).
  for (const [name, spec] of params) {
    const family =
      (spec.example !== undefined && vocabulary.families.has(fold(spec.example))) ||
      /\bcommand family\b/i.test(spec.description);
    if (spec.kind !== 'text' || !family) continue;
    const word = a.words.find(
      (w) => !used.has(w.index) && vocabulary.families.has(w.fold) && w.fold !== entry.family,
    );
    if (word !== undefined) {
      set(name, vocabulary.families.get(word.fold) as string);
      used.add(word.index);
    }
  }

  // Free text: "about X" to a topic or text search, "by X" and what is left to a query.
  for (const [name, spec] of params) {
    if (options[name] !== undefined) continue;
    const about = isAbout(name, spec) ? a.named.about.find((s) => isFree(s.start, s.end)) : undefined;
    const by = isQuery(name, spec) ? a.named.by.find((s) => isFree(s.start, s.end)) : undefined;
    const found = about ?? by;
    if (found !== undefined) {
      set(name, found.text);
      mark(found.start, found.end);
    }
  }

  // The words that name the command.
  let cue = 0;
  let named = false;
  let commandNamed = false;
  const counted = new Set<string>();
  // A word inside a capitalised name ("Creators" in "Travel Creators Q3") is part of the name, not a cue.
  const inName = (i: number) =>
    a.named.names.some((n) => !n.sure && n.end - n.start > 1 && i > n.start && i < n.end);
  // "this week" is a date: it does not name `songs weeks`.
  let familyNamed = false;
  for (const word of a.words) {
    if (word.quoted || inName(word.index) || inDate(word.index)) continue;
    const meant = (MEANS.get(word.fold) ?? []).some((m) => vocabulary.described.get(m)?.has(entry))
      ? MEANT_WEIGHT
      : 0;
    const direct = Math.max(
      vocabulary.cues.get(word.lower)?.get(entry) ?? 0,
      meant,
      verbCue(word, entry, vocabulary),
    );
    const stemmed = vocabulary.cues.get(`~${word.stem}`)?.get(entry) ?? 0;
    const weight = Math.max(direct, stemmed);
    if (weight <= 0) continue;
    const key = direct >= stemmed ? word.lower : `~${word.stem}`;
    if (counted.has(key) && used.has(word.index)) continue;
    if (!counted.has(key)) cue += weight;
    counted.add(key);
    if (vocabulary.familyWords.has(key) || weight >= NAMING_WEIGHT) named = true;
    if (vocabulary.familyWords.has(key)) familyNamed = true;
    if (vocabulary.commandWords.get(key)?.has(entry) ?? false) commandNamed = true;
    used.add(word.index);
  }

  // What is left is the query of a command named ("search songs golden hour"), or of a family named when none
  // of it names anything ("songs dua lipa").
  const isCue = (w: (typeof a.words)[number]) =>
    vocabulary.cues.has(w.lower) || vocabulary.cues.has(`~${w.stem}`);
  for (const [name, spec] of params) {
    if (
      !(commandNamed || familyNamed) ||
      options[name] !== undefined ||
      spec.rest !== true ||
      !isQuery(name, spec)
    )
      continue;
    const left = a.words.filter(
      (w) => !used.has(w.index) && !w.filler && !soft.has(w.index) && !a.valued.has(w.index),
    );
    if (!commandNamed && left.some(isCue)) continue;
    if (left.length > 0) {
      set(name, left.map((w) => w.text).join(' '));
      for (const w of left) used.add(w.index);
    }
  }

  for (const [name, spec] of params) {
    if (spec.required === true && options[name] === undefined && !given.has(name)) return null;
  }

  // Unused words: a name broken into values costs; a date no option takes counts half a word, whole; a name
  // no option takes ("with Mateo Nguyen"), one word.
  let unused = 0;
  const unusedWords: string[] = [];
  const spansUnused = new Set<object>();
  for (const word of a.words) {
    if (used.has(word.index) || soft.has(word.index) || word.filler) continue;
    const within = (span: { start: number; end: number }) =>
      word.index >= span.start && word.index < span.end;
    const date = a.dates.find(within);
    const name = a.named.names.find((n) => within(n) && isFree(n.start, n.end));
    const span = date ?? name;
    if (span === undefined) unused += 1;
    else if (!spansUnused.has(span)) {
      spansUnused.add(span);
      unused += span === date ? 0.5 : 1;
    }
    unusedWords.push(word.text);
  }
  for (const span of a.named.names) {
    if (!span.sure && !Object.values(options).includes(span.text) && !isFree(span.start, span.end))
      score -= 0.8;
  }
  score +=
    cue + bound - UNUSED_COST * unused + (entry.isDefault ? 0.1 : 0) - (def.mutates === true ? 0.1 : 0);
  return { entry, options, used, unused, unusedWords, score, named, bound };
}
