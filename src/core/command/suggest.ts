/** Matching a typed word against a list of allowed values, with "did you mean" suggestions for near misses. */

/** Folds a value for loose comparison: case, accents, punctuation and spacing do not matter ("beauty & personal-care"). */
export function fold(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '');
}

/** Damerau-Levenshtein (optimal string alignment) distance, bounded for speed on hostile input. */
export function editDistance(a: string, b: string, limit = 64): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    rows.push(row);
  }
  const first = rows[0] as number[];
  for (let j = 0; j <= b.length; j++) first[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

// Enumerations are module constants: fold each list once, not on every keystroke of every command.
const FOLDED = new WeakMap<readonly string[], Map<string, string>>();

function foldedIndex<T extends string>(allowed: readonly T[]): Map<string, T> {
  let index = FOLDED.get(allowed);
  if (index === undefined) {
    index = new Map();
    for (const value of allowed) if (!index.has(fold(value))) index.set(fold(value), value);
    FOLDED.set(allowed, index);
  }
  return index as Map<string, T>;
}

/** The result of matching a word against allowed values. */
export type MatchResult<T extends string> = { ok: true; value: T } | { ok: false; suggestions: T[] };

/**
 * Finds the allowed value a person meant: an exact match after folding wins; otherwise up to three suggestions
 * (values within a small edit distance, or that contain / start with the typed word).
 */
export function matchChoice<T extends string>(input: string, allowed: readonly T[]): MatchResult<T> {
  const typed = fold(input);
  if (typed.length === 0) return { ok: false, suggestions: [] };
  const exact = foldedIndex(allowed).get(typed);
  if (exact !== undefined) return { ok: true, value: exact };
  const scored = allowed
    .map((value) => {
      const folded = fold(value);
      const distance = editDistance(typed.slice(0, 64), folded.slice(0, 64));
      const partial = folded.startsWith(typed) || (typed.length >= 3 && folded.includes(typed));
      const near = distance <= Math.max(1, Math.floor(Math.min(typed.length, folded.length) / 3));
      return { value, score: partial ? 0 : near ? distance : Number.POSITIVE_INFINITY };
    })
    .filter((s) => Number.isFinite(s.score))
    .sort((a, b) => a.score - b.score);
  return { ok: false, suggestions: scored.slice(0, 3).map((s) => s.value) };
}

/** "did you mean A or B?" text for suggestions, or an empty string when there are none. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.map((s) => `"${s}"`);
  const last = quoted.pop();
  return ` Did you mean ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}?`;
}
