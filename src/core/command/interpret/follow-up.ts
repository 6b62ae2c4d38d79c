/**
 * A sentence read against the last command of the conversation ("only with email", "in Germany instead", "over
 * 50k followers"): that command with the options the sentence gives added, or put in place of the ones it had.
 */
import { resolveOption } from '../params.js';
import { resolveText } from '../routing.js';
import { fold } from '../suggest.js';
import { tokenText } from '../syntax.js';
import type { Token } from '../tokenize.js';
import type { CommandRegistry } from '../types.js';
import type { Analysis } from './analysis.js';
import { evaluate, type Reading } from './match.js';
import type { FollowUp } from './types.js';
import type { Vocabulary } from './vocabulary.js';

/** The last command changed by the sentence: its reading and the tokens of the options it keeps. */
export interface Refinement {
  reading: Reading;
  /** The options kept from the last line, by canonical name, as typed. */
  kept: Record<string, string>;
  /** The kept options as the line writes them. */
  keptText: string[];
}

/** The option each token of a line sets (bare words fill positional options in order, then the rest). */
function namesOfTokens(params: Readonly<Record<string, import('../params.js').ParamSpec>>, tokens: Token[]) {
  const positional = Object.entries(params)
    .filter(([, spec]) => spec.positional === true)
    .map(([name]) => name);
  const rest = Object.entries(params).find(([, spec]) => spec.rest === true)?.[0] ?? null;
  const given = new Set<string>();
  return tokens.map((token) => {
    let name: string | null = null;
    if (token.key !== null) name = resolveOption(params, token.key)?.name ?? null;
    else name = positional.find((p) => !given.has(p)) ?? rest;
    if (name !== null) given.add(name);
    return name;
  });
}

/** The last command refined by the sentence, or null when the sentence gives it no option. */
export function refine(
  registry: CommandRegistry,
  vocabulary: Vocabulary,
  after: FollowUp,
  analysis: Analysis,
): Refinement | null {
  let resolved: ReturnType<typeof resolveText>;
  try {
    resolved = resolveText(registry, after.line);
  } catch {
    return null;
  }
  const entry = vocabulary.commands.find((e) => e.def === resolved.def);
  if (entry === undefined) return null;
  const names = namesOfTokens(entry.def.params, resolved.tokens);
  const given = new Set(names.filter((n): n is string => n !== null));
  const reading = evaluate(entry, analysis, vocabulary, given);
  if (reading === null || reading.bound === 0) return null;
  const kept: Record<string, string> = {};
  const keptText: string[] = [];
  resolved.tokens.forEach((token, i) => {
    const name = names[i] ?? null;
    if (name !== null && reading.options[name] !== undefined) return;
    // Sorting and a page of the old answer do not carry over a change of filters.
    if (name === 'page') return;
    keptText.push(
      token.key === null && name !== null ? tokenText({ ...token, key: name }) : tokenText(token),
    );
    if (name !== null && kept[name] === undefined) kept[name] = token.value;
  });
  return { reading, kept, keptText };
}

/** Words that make a sentence a change of the last command, wherever they stand ("only", "instead"). */
const MARKER = /^(only|instead|also|too|but|without|just|except|excluding)$/;
/** Words that make it a change when it starts with them ("in Germany", "over 50k", "sorted by views"). */
const LEADING =
  /^(and|now|in|on|with|from|over|under|above|below|since|sorted|sort|same|more|less|fewer|not|no|between)$/;
/** Nouns of the interpreter's own English that say what is asked for ("people", "influencers"). */
const SUBJECT = /^(people|person|influencer|post|content|track|music|contact|reply|messag)$/;

/**
 * Whether a sentence reads as a change of the last command: it says so ("only", "instead", "as well", "at
 * least …", starts with "in", "with", "over", "sorted" …), or it names no command nor what it asks for of its
 * own, only values ("Germany", "over 50k followers"). "top fitness tiktokers in the US" asks for creators: it is
 * read fresh.
 */
export function readsAsRefinement(analysis: Analysis, vocabulary: Vocabulary): boolean {
  const { words } = analysis;
  const [first] = words;
  if (first === undefined) return false;
  const said = (phrase: string) =>
    words.some((_w, i) => phrase.split(' ').every((p, k) => words[i + k]?.lower === p));
  if (words.some((w) => MARKER.test(w.lower)) || said('as well') || said('at least') || said('at most'))
    return true;
  if (LEADING.test(first.lower) || words[words.length - 1]?.lower === 'now') return true;
  const named = new Set<number>();
  for (const name of analysis.named.names) for (let i = name.start; i < name.end; i++) named.add(i);
  return !words.some((w) => {
    if (w.quoted || named.has(w.index)) return false;
    const key = `~${w.stem}`;
    if (vocabulary.familyWords.has(w.lower) || vocabulary.familyWords.has(key)) return true;
    if (!w.filler && vocabulary.commandWords.has(key)) return true;
    if (SUBJECT.test(w.stem) || SUBJECT.test(w.lower)) return true;
    // What a platform's creators are called ("tiktokers", "youtubers"): a value that names people.
    const values = vocabulary.values.get(w.fold) ?? [];
    return /ers?$/.test(w.fold) && values.some((hit) => fold(hit.value) !== w.fold);
  });
}
