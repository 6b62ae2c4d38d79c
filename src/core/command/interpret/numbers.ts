/**
 * Numbers as people write them (10k, 1.5m, 50,000, 3%), alone or as ranges and bounds ("10k-100k", "between 5k
 * and 50k", "over 50k", "at least 3%", "20k+"), written back in the exact syntax of a range option (`>50k`,
 * `10k-100k`, `20k+`), with the words on either side that may say what they count ("followers", "views").
 */
import { parseHumanNumber } from '../params.js';
import type { Word } from './text.js';

/** A number or a range found in a sentence. */
export interface NumberSpan {
  start: number;
  /** One past the last word. */
  end: number;
  /** The value in the exact syntax of a range: `>50k`, `>=3`, `10k-100k`, `20k+`, `5k`. */
  range: string;
  /** The number alone, for an option that takes one number (no bound was said). */
  single: string | null;
  percent: boolean;
  /** The nearest content words after and before it: what it counts ("followers", "views"), if said. */
  after: Word | null;
  before: Word | null;
  /** The word just before the number ("top", "to", "budget"). */
  lead: Word | null;
  /** A bound said after what the number counts ("or more" in "50k followers or more"): words it also spans. */
  tail: { start: number; end: number } | null;
}

const LOWER_BOUNDS: ReadonlyArray<[string[], string]> = [
  [['more', 'than'], '>'],
  [['greater', 'than'], '>'],
  [['higher', 'than'], '>'],
  [['bigger', 'than'], '>'],
  [['at', 'least'], '>='],
  [['over'], '>'],
  [['above'], '>'],
  [['exceeding'], '>'],
  [['min'], '>='],
  [['minimum'], '>='],
  [['from'], '>='],
];
const UPPER_BOUNDS: ReadonlyArray<[string[], string]> = [
  [['less', 'than'], '<'],
  [['fewer', 'than'], '<'],
  [['lower', 'than'], '<'],
  [['up', 'to'], '<='],
  [['at', 'most'], '<='],
  [['no', 'more', 'than'], '<='],
  [['under'], '<'],
  [['below'], '<'],
  [['max'], '<='],
  [['maximum'], '<='],
];
const BOUNDS = [...LOWER_BOUNDS, ...UPPER_BOUNDS].sort((a, b) => b[0].length - a[0].length);

/** Words skipped between a number and what it counts ("3% engagement rate", "followers of over 10k"). */
const BETWEEN_WORDS = new Set([
  'of',
  'is',
  'rate',
  'than',
  'a',
  'an',
  'the',
  'with',
  'and',
  'or',
  'more',
  'plus',
]);

interface Parsed {
  text: string;
  percent: boolean;
}

/** A number as typed, in the syntax's form (`50,000` → `50000`), or null. */
function numberOf(raw: string): Parsed | null {
  const percent = raw.endsWith('%');
  const text = raw.replace(/%$/, '').replace(/^\$/, '');
  if (parseHumanNumber(text) === null) return null;
  return { text: text.replace(/,/g, ''), percent };
}

const COMPARISON = /^(>=|<=|≥|≤|>|<)(.+)$/;
const RANGE = /^(\$?[\d.,]+[kmb]?%?)(?:-|–|—|\.\.)(\$?[\d.,]+[kmb]?%?)$/i;

function matchWords(words: readonly Word[], at: number, phrase: readonly string[]): boolean {
  return phrase.every((w, i) => words[at + i]?.lower === w);
}

/** The number spans of a sentence, left to right, not overlapping. */
export function findNumbers(words: readonly Word[]): NumberSpan[] {
  const spans: NumberSpan[] = [];
  let i = 0;
  while (i < words.length) {
    const span = numberAt(words, i);
    if (span === null) {
      i++;
      continue;
    }
    spans.push(span);
    i = span.end;
  }
  return spans;
}

function nearest(words: readonly Word[], from: number, step: 1 | -1): Word | null {
  for (let i = from, seen = 0; i >= 0 && i < words.length && seen < 3; i += step, seen++) {
    const word = words[i] as Word;
    if (BETWEEN_WORDS.has(word.lower)) continue;
    return word;
  }
  return null;
}

/** A bound said after a number ("or more", "and up", "or less", "+"): its operator and how many words it takes. */
function trailingBound(words: readonly Word[], at: number): { op: string; length: number } | null {
  const first = words[at]?.lower ?? '';
  const second = words[at + 1]?.lower ?? '';
  if (first === '+') return { op: '>=', length: 1 };
  if (!/^(or|and)$/.test(first)) return null;
  if (/^(more|up|above|over|higher|greater|bigger)$/.test(second)) return { op: '>=', length: 2 };
  if (/^(less|fewer|below|under|lower|smaller)$/.test(second)) return { op: '<=', length: 2 };
  return null;
}

function span(
  words: readonly Word[],
  start: number,
  end: number,
  range: string,
  single: string | null,
  percent: boolean,
): NumberSpan {
  let after = end;
  // "20k or more", "20k and up", "20k +": the bound follows the number.
  const open = single !== null;
  const bound = open ? trailingBound(words, after) : null;
  if (bound !== null) {
    after += bound.length;
    range = `${bound.op}${range}`;
    single = null;
  }
  if (words[after]?.lower === 'percent' || words[after]?.lower === '%') {
    percent = true;
    after++;
  }
  // "50,000 followers or more": the bound follows what the number counts.
  const unit = words[after];
  const late = open && bound === null && unit !== undefined ? trailingBound(words, after + 1) : null;
  if (late !== null) {
    range = `${late.op}${range}`;
    single = null;
  }
  return {
    start,
    end: after,
    range,
    single,
    percent,
    after: nearest(words, after, 1),
    before: nearest(words, start - 1, -1),
    lead: words[start - 1] ?? null,
    tail: late === null ? null : { start: after + 1, end: after + 1 + late.length },
  };
}

function numberAt(words: readonly Word[], i: number): NumberSpan | null {
  const word = words[i] as Word;
  // "between 5k and 50k", "from 10k to 100k"
  if (word.lower === 'between' || word.lower === 'from') {
    const low = numberOf(words[i + 1]?.lower ?? '');
    const joiner = words[i + 2]?.lower;
    const high = numberOf(words[i + 3]?.lower ?? '');
    if (low !== null && high !== null && (joiner === 'and' || joiner === 'to' || joiner === '-')) {
      return span(words, i, i + 4, `${low.text}-${high.text}`, null, low.percent || high.percent);
    }
  }
  for (const [phrase, op] of BOUNDS) {
    if (!matchWords(words, i, phrase)) continue;
    const at = i + phrase.length;
    const value = numberOf(words[at]?.lower ?? '');
    if (value === null) continue;
    return span(words, i, at + 1, `${op}${value.text}`, null, value.percent);
  }
  const lower = word.lower;
  const comparison = COMPARISON.exec(lower);
  if (comparison !== null) {
    const value = numberOf(comparison[2] as string);
    if (value !== null) {
      const op = (comparison[1] as string).replace('≥', '>=').replace('≤', '<=');
      return span(words, i, i + 1, `${op}${value.text}`, null, value.percent);
    }
  }
  const range = RANGE.exec(lower);
  if (range !== null) {
    const low = numberOf(range[1] as string);
    const high = numberOf(range[2] as string);
    if (low !== null && high !== null)
      return span(words, i, i + 1, `${low.text}-${high.text}`, null, low.percent || high.percent);
  }
  if (lower.endsWith('+')) {
    const value = numberOf(lower.slice(0, -1));
    if (value !== null) return span(words, i, i + 1, `${value.text}+`, null, value.percent);
  }
  const value = numberOf(lower);
  if (value === null) return null;
  // "10k to 100k", "10k - 100k"
  const joiner = words[i + 1]?.lower;
  const high = numberOf(words[i + 2]?.lower ?? '');
  if (high !== null && (joiner === 'to' || joiner === '-' || joiner === '–')) {
    return span(words, i, i + 3, `${value.text}-${high.text}`, null, value.percent || high.percent);
  }
  return span(words, i, i + 1, value.text, value.text, value.percent);
}
