/**
 * What a sentence names rather than describes: lists and projects by name ("in Spring Launch", "called Summer
 * Push", a quoted phrase), people (mentions, @handles, "everyone", "my"), links and email addresses, free text
 * ("about morning routines", "by Dua Lipa"), and references to an answer's results ("the first three"), which are
 * the caller's to handle.
 */
import type { Word } from './text.js';
import type { Vocabulary } from './vocabulary.js';

/** Words of a sentence read as one thing. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

/** A name, and how it was said: quoted or after "called" (sure), or capitalised after "in"/"to" (likely). */
export interface NameSpan extends Span {
  sure: boolean;
}

/** What the words point at, by kind. */
export interface Named {
  names: NameSpan[];
  people: Span[];
  /** "my", "me": the person asking (only an option that takes a person uses it). */
  self: Span | null;
  urls: Span[];
  emails: Span[];
  /** "about X", "on X": words to search for. */
  about: Span[];
  /** "by X": whose work (a song's artist, a video's creator). */
  by: Span[];
}

const CALLED = /^(called|named|titled|name)$/;
const MARKERS = /^(in|into|to|from|of|for|on|at|inside)$/;
/** Words that end a name said after "called" or "in". */
const NAME_END =
  /^(with|and|for|budget|about|description|described|website|status|who|that|which|where|please|page|sorted|by|since|on|in)$/;
const FREE_END =
  /^(with|since|in|from|on|over|under|sorted|for|more|above|below|between|that|who|which|please)$/;
const FIRST_NAME_WORD = /^\p{Lu}[\p{L}\p{N}'&.-]*$/u;
const NAME_WORD = /^(?:[\p{Lu}\p{N}][\p{L}\p{N}'&.-]*|&)$/u;

/** A span of time after "the last", "the first" ("the last 7 days", "the past week"): a date, not a reference. */
const PERIOD = String.raw`(?!(?:\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|few|couple(?:\s+of)?))?\s+(?:hours?|days?|weeks?|months?|quarters?|years?)\b)`;

/** Words that point at results already shown: the caller handles them as presses on the last answer. */
const REFERENCE = new RegExp(
  String.raw`\b(?:the\s+)?(?:first|second|third|fourth|fifth|last)\s+(?:one|two|three|four|five|\d+)\b${PERIOD}` +
    String.raw`|\bthe\s+(?:first|second|third|fourth|fifth|sixth|last|next|previous)\b${PERIOD}` +
    String.raw`|\b(?:these|those|them|this one|that one)\b|^(?:more|next|next page|previous|back)$` +
    // Cards by number (`add 1,3,5 to Spring`, `add 1-3`) and every result (`add all results to Spring`).
    String.raw`|^add\s+\d{1,3}(?:\s*[-,]\s*\d{1,3})+(?:\s|$)|^add\s+all(?:\s+\d{1,4})?\s+results\b`,
  'i',
);

/** Whether the sentence points at results already shown ("add the first three", "details of the second"). */
export function isReference(sentence: string): boolean {
  return REFERENCE.test(sentence.trim());
}

const isUrl = (word: Word) => /^https?:\/\/\S+$/i.test(word.text);
const isEmail = (word: Word) => /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(word.text);
const isMention = (word: Word) =>
  /^<@[!&]?[A-Za-z0-9]+(\|[^>]*)?>$/.test(word.text) || /^@[\w.-]{2,}$/.test(word.text);

function spanOf(words: readonly Word[], start: number, end: number): Span {
  return {
    start,
    end,
    text: words
      .slice(start, end)
      .map((w) => w.text)
      .join(' '),
  };
}

/** The words from `start` up to one NAME_END matches (or punctuation), at most `max`. */
function runUntil(words: readonly Word[], start: number, stop: RegExp, max: number): number {
  let end = start;
  while (end < words.length && end - start < max) {
    const word = words[end] as Word;
    if (end > start && stop.test(word.lower)) break;
    end++;
    if (word.breakAfter) break;
  }
  return end;
}

/** Short words a name's capitalised words may be joined by. */
const CONNECTOR = /^(to|of|and|the|for|in|on|&)$/;

/**
 * How many connectors at `at` join the name to a capitalised word after them ("to" in "Back to School"), or 0:
 * not before punctuation, nor before a known value ("Spring Launch in the UK").
 */
function connectorsAt(words: readonly Word[], at: number, vocabulary: Vocabulary): number {
  let end = at;
  while (end < words.length && end - at < 2 && CONNECTOR.test((words[end] as Word).text)) {
    if ((words[end] as Word).breakAfter || (words[end - 1] as Word).breakAfter) return 0;
    end++;
  }
  const next = words[end];
  if (end === at || next === undefined || next.quoted || !FIRST_NAME_WORD.test(next.text)) return 0;
  if (vocabulary.values.has(next.fold) || vocabulary.families.has(next.fold)) return 0;
  return end - at;
}

/** The last "to" inside a name's words, or -1. */
function lastTo(words: readonly Word[], start: number, end: number): number {
  for (let i = end - 1; i > start; i--) if ((words[i] as Word).lower === 'to') return i;
  return -1;
}

/** Reads the names, people, links and free text of a sentence's words. */
export function findNamed(words: readonly Word[], vocabulary: Vocabulary): Named {
  const named: Named = { names: [], people: [], self: null, urls: [], emails: [], about: [], by: [] };
  const taken = new Set<number>();
  const renaming = words.some((w) => /^renam(e|ed|ing)$/.test(w.lower));
  const take = (start: number, end: number) => {
    for (let i = start; i < end; i++) taken.add(i);
  };
  for (const word of words) {
    if (word.quoted) {
      named.names.push({ ...spanOf(words, word.index, word.index + 1), sure: true });
      take(word.index, word.index + 1);
    } else if (isUrl(word)) named.urls.push(spanOf(words, word.index, word.index + 1));
    else if (isEmail(word)) named.emails.push(spanOf(words, word.index, word.index + 1));
    else if (isMention(word)) named.people.push(spanOf(words, word.index, word.index + 1));
    else if (/^(everyone|everybody)(['’]?s)?$/.test(word.lower))
      named.people.push({ start: word.index, end: word.index + 1, text: 'everyone' });
    else if (named.self === null && /^(my|me|mine|myself|i)$/.test(word.lower))
      named.self = { start: word.index, end: word.index + 1, text: 'me' };
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as Word;
    if (taken.has(i)) continue;
    if (CALLED.test(word.lower) && i + 1 < words.length && !taken.has(i + 1)) {
      const end = runUntil(words, i + 1, NAME_END, 8);
      named.names.push({ ...spanOf(words, i + 1, end), sure: true });
      take(i, end);
      i = end - 1;
      continue;
    }
    // A name follows a marker ("in Spring Launch", "to the list Spring Launch"), or stands capitalised mid-sentence.
    let from = -1;
    if (MARKERS.test(word.lower) || /^(list|lists)$/.test(word.lower)) {
      from = i + 1;
      while (from < words.length && /^(the|list|my|our|project)$/.test((words[from] as Word).lower)) from++;
    } else if (i > 0 && word.capital && !word.upper && !MARKERS.test((words[i - 1] as Word).lower)) from = i;
    if (from >= 0) {
      const skipped = from;
      let end = from;
      while (end < words.length && !taken.has(end) && end - skipped <= 6) {
        const next = words[end] as Word;
        // "Back to School", "Lord of the Rings": short lower-case words join capitalised ones.
        const joined = end > skipped ? connectorsAt(words, end, vocabulary) : 0;
        if (joined > 0) {
          end += joined;
          continue;
        }
        if (!(end === skipped ? FIRST_NAME_WORD : NAME_WORD).test(next.text)) break;
        end++;
        if ((words[end - 1] as Word).breakAfter) break;
      }
      if (end === skipped) continue;
      // "rename Back to School to Autumn": two names, split at the last "to".
      const to = renaming ? lastTo(words, skipped, end) : -1;
      if (to > skipped && to + 1 < end) {
        named.names.push({ ...spanOf(words, skipped, to), sure: false });
        named.names.push({ ...spanOf(words, to + 1, end), sure: false });
        take(skipped, end);
        i = end - 1;
        continue;
      }
      const run = spanOf(words, skipped, end);
      // A run that is one known value ("in France", "in United States") is that value, not a name.
      const runWords = words.slice(skipped, end);
      const folded = runWords.map((w) => w.fold).join('');
      const known = (w: Word) => vocabulary.values.has(w.fold) || vocabulary.values.has(w.stem);
      const allUpper = runWords.every((w) => w.upper);
      if (
        vocabulary.values.has(folded) ||
        vocabulary.families.has(folded) ||
        allUpper ||
        (runWords.length === 1 && known(runWords[0] as Word))
      )
        continue;
      named.names.push({ ...run, sure: false });
      take(skipped, end);
      i = end - 1;
    }
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as Word;
    if (taken.has(i + 1) || i + 1 >= words.length) continue;
    if (word.lower === 'about' || word.lower === 'mentioning' || word.lower === 'containing') {
      const end = runUntil(words, i + 1, FREE_END, 6);
      named.about.push(spanOf(words, i + 1, end));
    } else if (word.lower === 'by') {
      const end = runUntil(words, i + 1, FREE_END, 6);
      if (!words.slice(i + 1, end).some((w) => taken.has(w.index))) named.by.push(spanOf(words, i + 1, end));
    }
  }
  return named;
}
