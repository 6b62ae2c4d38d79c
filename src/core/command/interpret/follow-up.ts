/**
 * A sentence read against the last command of the conversation ("only with email", "in Germany instead", "over
 * 50k followers"): that command with the options the sentence gives added, or put in place of the ones it had.
 */
import { resolveOption } from '../params.js';
import { resolveText } from '../routing.js';
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
