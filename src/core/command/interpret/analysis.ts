/**
 * A sentence read once, before any command is weighed: its words, numbers, dates, names, the value phrases the
 * declarations know, and sorting words ("top", "newest", "highest engagement").
 */
import { type DateSpan, findDates } from './dates.js';
import { findNamed, type Named } from './names.js';
import { findNumbers, type NumberSpan } from './numbers.js';
import { type Word, wordsOf } from './text.js';
import { MAX_PHRASE, type ValueHit, type Vocabulary } from './vocabulary.js';

/** Words that name values of one or more options. */
export interface PhraseHit {
  start: number;
  end: number;
  hits: ValueHit[];
  /** Said after "speak", "speaking", "language": a language rather than a country. */
  language: boolean;
}

/** A sorting phrase and the field it names (matched against a sort option's values). */
export interface SortHit {
  start: number;
  end: number;
  field: string;
}

/** Everything the commands are weighed against. */
export interface Analysis {
  words: Word[];
  /** Words in the sentence, read or not. */
  total: number;
  numbers: NumberSpan[];
  dates: DateSpan[];
  named: Named;
  phrases: PhraseHit[];
  /** Words inside a value phrase: never free text. */
  valued: Set<number>;
  sorts: SortHit[];
}

/** Sorting phrases, by the field they sort on (its name as the sort options spell their values, folded). */
const SORTS: ReadonlyArray<[readonly string[], string]> = [
  [['most', 'followed'], 'followers'],
  [['most', 'followers'], 'followers'],
  [['most', 'popular'], 'followers'],
  [['by', 'followers'], 'followers'],
  [['biggest'], 'followers'],
  [['largest'], 'followers'],
  [['top'], 'followers'],
  [['highest', 'engagement'], 'engagement'],
  [['best', 'engagement'], 'engagement'],
  [['most', 'engaging'], 'engagement'],
  [['most', 'engaged'], 'engagement'],
  [['by', 'engagement'], 'engagement'],
  [['most', 'recent'], 'date'],
  [['newest'], 'date'],
  [['latest'], 'date'],
  [['recent'], 'date'],
  [['most', 'viewed'], 'views'],
  [['most', 'views'], 'views'],
  [['by', 'views'], 'views'],
  [['most', 'liked'], 'likes'],
  [['most', 'likes'], 'likes'],
  [['most', 'shared'], 'shares'],
];

const HAVING = /^(with|have|has|having|had)$/;
const ARTICLE = /^(a|an|the|some|their|its|valid|known|an?)$/;

const LANGUAGE_LEAD = /^(speak|speaks|speaking|spoken|language|languages|lang)$/;

/** A value list this long is a list of countries or languages: its two-letter codes must be typed in capitals. */
const LONG_LIST = 30;

function phrasesOf(words: readonly Word[], vocabulary: Vocabulary): PhraseHit[] {
  const phrases: PhraseHit[] = [];
  for (let start = 0; start < words.length; start++) {
    let key = '';
    for (let end = start + 1; end <= Math.min(words.length, start + MAX_PHRASE); end++) {
      const word = words[end - 1] as Word;
      if (word.quoted) break;
      key += word.fold;
      if (end > start + 1 && (words[end - 2] as Word).breakAfter) break;
      // One word is also looked up by its stem ("tutorials", "skits") and past form ("muted").
      const found =
        vocabulary.values.get(key) ??
        (end === start + 1
          ? (vocabulary.values.get(word.stem) ??
            (word.fold.endsWith('ed') ? vocabulary.values.get(word.fold.slice(0, -1)) : undefined))
          : undefined);
      if (found === undefined) continue;
      const single = end === start + 1;
      // A filler word alone ("all", "new") is not a value; nor is a lower-case two-letter word a country code.
      if (single && word.filler && !word.upper) continue;
      const hits =
        single && key.length <= 2 && !word.upper
          ? found.filter(
              (hit) =>
                !(hit.spec.kind === 'choice' || hit.spec.kind === 'choices') ||
                hit.spec.values.length < LONG_LIST,
            )
          : found;
      if (hits.length === 0) continue;
      const lead = words[start - 1];
      phrases.push({ start, end, hits, language: lead !== undefined && LANGUAGE_LEAD.test(lead.lower) });
    }
  }
  // "with an email", "who have emails", "that has a face": a yes/no option by its name (`withEmail`, `hasFace`).
  for (let i = 0; i < words.length; i++) {
    if (!HAVING.test((words[i] as Word).lower)) continue;
    let j = i + 1;
    while (j < words.length && ARTICLE.test((words[j] as Word).lower)) j++;
    const word = words[j];
    if (word === undefined) continue;
    for (const key of [`with${word.fold}`, `has${word.fold}`, `with${word.stem}`, `has${word.stem}`]) {
      const hits = vocabulary.values.get(key)?.filter((hit) => hit.spec.kind === 'boolean');
      if (hits !== undefined && hits.length > 0) {
        phrases.push({ start: i, end: j + 1, hits, language: false });
        break;
      }
    }
  }
  // Longest first, then left to right.
  return phrases.sort((x, y) => y.end - y.start - (x.end - x.start) || x.start - y.start);
}

function sortsOf(words: readonly Word[]): SortHit[] {
  const sorts: SortHit[] = [];
  for (let i = 0; i < words.length; i++) {
    for (const [phrase, field] of SORTS) {
      if (phrase.every((w, k) => words[i + k]?.lower === w)) {
        sorts.push({ start: i, end: i + phrase.length, field });
        i += phrase.length - 1;
        break;
      }
    }
  }
  return sorts;
}

/** Reads a sentence (at most `limit` words of it). */
export function analyse(
  sentence: string,
  vocabulary: Vocabulary,
  now: Date,
  timeZone: string,
  limit: number,
): Analysis {
  const { words, total } = wordsOf(sentence, limit);
  const phrases = phrasesOf(words, vocabulary);
  const valued = new Set<number>();
  for (const phrase of phrases) for (let i = phrase.start; i < phrase.end; i++) valued.add(i);
  const dates = findDates(words, now, timeZone);
  const named = findNamed(words, vocabulary);
  // A capitalised month or weekday after "from" is a date, not a list's name.
  named.names = named.names.filter(
    (name) => name.sure || !dates.some((date) => name.start < date.end && date.start < name.end),
  );
  return {
    words,
    total,
    numbers: findNumbers(words),
    dates,
    named,
    phrases,
    valued,
    sorts: sortsOf(words),
  };
}
