/**
 * A sentence as words: what was typed, folded and stemmed, whether it is a filler word, and where a phrase breaks.
 * The small generic English here (filler words, a few irregular forms) is the interpreter's own; everything about
 * commands comes from their declarations (vocabulary.ts).
 */
import { fold } from '../suggest.js';

/** One word of a sentence (a quoted phrase is one word). */
export interface Word {
  index: number;
  /** As typed, without surrounding punctuation or quotes. */
  text: string;
  lower: string;
  fold: string;
  stem: string;
  quoted: boolean;
  /** Starts with a capital letter (a name, perhaps). */
  capital: boolean;
  /** Written in capitals (US, UK, IG): a code rather than an English word. */
  upper: boolean;
  /** A word that carries no meaning of its own here: neither used nor left unused. */
  filler: boolean;
  /** Punctuation follows: a phrase stops here. */
  breakAfter: boolean;
}

/** Words that carry no request of their own ("show me the ...", "please", "that have"). */
export const FILLER = new Set(
  `a an the me my mine myself i i'm im we us our ours you your yours it its this that these those there here
  please pls plz show find get give look looking search see tell let lets want wanna need needs would could can
  should will shall do does did some any all every each of for with in on at by from to into about as
  and or but also just only now then again instead too very really so much many how what whats which who whos
  whom where when is are was were be been being am has have had having got go going let's know like some one
  ones is any them they their theirs he she his her him hey hi hello thanks thank ok okay yes sure currently
  called named titled went gone most up left turn switch day every new`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

/** Irregular forms the stemmer does not reach. */
// Maps, not object literals: a word such as "constructor" must find nothing.
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['spent', 'spend'],
  ['spending', 'spend'],
  ['people', 'person'],
  ['sent', 'send'],
  ['went', 'go'],
  ['chart', 'chart'],
  ['charts', 'chart'],
]);

/** Words that stand for the words descriptions use: "who" asks for people (creators, contacts). */
export const MEANS: ReadonlyMap<string, readonly string[]> = new Map([
  ['who', ['creator', 'contact']],
  ['whos', ['creator', 'contact']],
  ['whom', ['creator', 'contact']],
  ['people', ['creator', 'contact']],
  ['music', ['song']],
  ['make', ['name', 'add', 'create']],
]);

/** A crude English stem: plurals and past tenses folded, so "emailed" meets "emails" and "lists" meets "list". */
export function stem(word: string): string {
  const lower = word
    .toLowerCase()
    .replace(/['’](s|re|ve|ll|m|d)$/, '')
    .replace(/n['’]t$/, '');
  const irregular = IRREGULAR.get(lower);
  if (irregular !== undefined) return irregular;
  let w = fold(lower);
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 6 && w.endsWith('ing')) w = w.slice(0, -3);
  return w;
}

const TOKEN = /"([^"]*)"|“([^”]*)”|«([^»]*)»|[^\s"“”«»]+/g;
const LEADING = /^[([{¿¡]+/;
const TRAILING = /[)\]}.,;:!?…]+$/;

/** The sentence's words, at most `limit` of them (the rest is counted, not read). */
export function wordsOf(sentence: string, limit: number): { words: Word[]; total: number } {
  const words: Word[] = [];
  let total = 0;
  for (const match of sentence.matchAll(TOKEN)) {
    total++;
    if (words.length >= limit) continue;
    const quotedText = match[1] ?? match[2] ?? match[3];
    const quoted = quotedText !== undefined;
    let text = quoted ? quotedText.trim() : match[0];
    let breakAfter = false;
    if (!quoted) {
      text = text.replace(LEADING, '');
      const trailing = TRAILING.exec(text);
      // A trailing `+` or `%` belongs to the number (20k+, 3%); a URL keeps its own characters.
      if (trailing !== null && !/^https?:\/\//i.test(text)) {
        breakAfter = true;
        text = text.slice(0, trailing.index);
      }
    }
    const folded = fold(text);
    if (folded === '' && !/^[<>=≥≤+-]+$/.test(text)) {
      const last = words[words.length - 1];
      if (last !== undefined && breakAfter) last.breakAfter = true;
      continue;
    }
    const lower = text.toLowerCase();
    words.push({
      index: words.length,
      text,
      lower,
      fold: folded,
      stem: quoted ? folded : stem(text),
      quoted,
      capital: /^\p{Lu}/u.test(text),
      upper: text.length >= 2 && /^[\p{Lu}\d]+$/u.test(text) && /\p{Lu}/u.test(text),
      filler: !quoted && (FILLER.has(lower) || FILLER.has(lower.replace(/['’]s$/, ''))),
      breakAfter,
    });
  }
  return { words, total };
}
