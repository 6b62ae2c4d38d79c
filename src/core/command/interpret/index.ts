/**
 * The plain-language interpreter: a sentence ("fitness creators in France with 20k+ followers") read as one of
 * Scout's commands, written as the exact command line it stands for. Deterministic and offline: it knows only what
 * the registry's declarations say (vocabulary.ts), with a little generic English of its own (text.ts, numbers.ts,
 * dates.ts, names.ts). The caller asks it only for a line that does not parse as the exact syntax, acts on a reading
 * of at least CONFIDENT (showing it before it spends or writes), and suggests lesser ones.
 *
 *   const interpreter = createInterpreter(registry, { now: () => clock.now(), timeZone: 'Europe/Paris' });
 *   const [best] = interpreter.interpret('french beauty creators who have an email', { line: lastLine });
 *   if (best !== undefined && best.confidence >= CONFIDENT) dispatch(best.line);
 */

import { bindTokens } from '../bind.js';
import { ParamError, StrayWordsError } from '../param-errors.js';
import { resolveText } from '../routing.js';
import { commandLine, withoutPrefix } from '../syntax.js';
import type { CommandRegistry } from '../types.js';
import { shortName } from '../usage.js';
import { type Analysis, analyse } from './analysis.js';
import { readsAsRefinement, refine } from './follow-up.js';
import { evaluate, type Reading } from './match.js';
import { isReference } from './names.js';
import { shapeOf } from './options.js';
import type { FollowUp, Interpretation, Interpreter } from './types.js';
import { buildVocabulary, type CommandEntry, type Vocabulary } from './vocabulary.js';
import { saysWriting } from './writes.js';

export { CONFIDENT, type FollowUp, type Interpretation, type Interpreter } from './types.js';

/** What the interpreter is given besides the registry. */
export interface InterpreterOptions {
  /** The clock relative dates are read against ("last week"). */
  now: () => Date;
  /** The IANA time zone days are counted in (UTC by default). */
  timeZone?: string;
}

/** Questions about Scout itself, which name no command: they ask for help. */
const ASKS_HELP =
  /^(what|which things?)\s+(can|could|do|does)\s+(you|scout|this|it|i)\s+(do|help with)\s*\??$|^how\s+(does|do)\s+(this|scout|it)\s+work\s*\??$/i;

/** A longer sentence is not a request: nothing is read of it. */
export const MAX_SENTENCE = 500;
/** The most words read. */
const MAX_WORDS = 60;
/** The most readings given. */
const MAX_READINGS = 3;
/** Readings less sure than this are not offered at all. */
const FLOOR = 0.2;
/** A runner-up this close to the best reading makes the best one a guess. */
const CLOSE = 0.3;

/** How sure a reading is: the share of its content words used, and whether a word named its command. */
function confidenceOf(reading: Reading, context: boolean): number {
  const used = reading.used.size;
  if (used === 0) return 0;
  const coverage = used / (used + reading.unused);
  const factor = reading.named || (context && reading.bound > 0) ? 1 : reading.bound > 0 ? 0.8 : 0.45;
  let confidence = coverage * factor;
  const { def } = reading.entry;
  // What changes who may do what, or the account itself, is acted on only when every word was understood.
  if (
    (def.permission === 'admin' || (def.account === 'optional' && def.mutates === true)) &&
    reading.unused > 0
  ) {
    confidence = Math.min(confidence, 0.45);
  }
  return Math.round(confidence * 100) / 100;
}

/** Options by the short name people type (`category` for mainCategory), as help writes them. */
function typedOptions(
  registry: CommandRegistry,
  family: string,
  command: string,
  options: Record<string, string>,
) {
  const params = registry.command(family, command)?.params ?? {};
  const typed: Record<string, string> = {};
  for (const [name, value] of Object.entries(options)) {
    const spec = params[name];
    typed[spec === undefined ? name : shortName(name, spec)] = value;
  }
  return typed;
}

/**
 * The line of a reading, when it reads back through the exact syntax as its command, and whether its command's
 * schema takes it (`valid`); options are written by the names people type, so the line teaches the short form.
 */
function readLine(
  registry: CommandRegistry,
  family: string,
  command: string,
  options: Record<string, string>,
  kept: string[] = [],
): { line: string; valid: boolean } | null {
  const line = commandLine(family, command, typedOptions(registry, family, command, options), kept.join(' '));
  let resolved: ReturnType<typeof resolveText>;
  try {
    resolved = resolveText(registry, line);
  } catch {
    return null;
  }
  const { def, tokens } = resolved;
  if (def.family !== family || def.name !== command) return null;
  try {
    return { line, valid: def.schema.safeParse(bindTokens(def.params, tokens)).success };
  } catch (error) {
    // A value the option does not take (a range that counts down) is a mistake; words it has no place for are not.
    return error instanceof ParamError && !(error instanceof StrayWordsError) ? { line, valid: false } : null;
  }
}

/** The line of a reading, when it reads back through the exact syntax and its command's schema takes it. */
function checkedLine(...args: Parameters<typeof readLine>): string | null {
  const read = readLine(...args);
  return read?.valid === true ? read.line : null;
}

/**
 * A line of the exact syntax with a mistake in it (`list add "Spring Launch"`, `creators followers:abc`): a typed
 * option, or a family and command named outright with nothing but quoted values, ids and links after them. The
 * exact parser's message answers it better than a guess.
 */
function isSyntaxMistake(registry: CommandRegistry, text: string): boolean {
  let resolved: ReturnType<typeof resolveText>;
  try {
    resolved = resolveText(registry, text);
  } catch {
    return false;
  }
  const { def, tokens } = resolved;
  let bound = false;
  try {
    if (def.schema.safeParse(bindTokens(def.params, tokens)).success) return false;
    // A rest option takes any words, plain ones too: binding says nothing then.
    bound = !Object.values(def.params).some((spec) => spec.rest === true);
  } catch {
    // Not bound: see below whether it is a mistake of the exact syntax all the same.
  }
  if (tokens.some((token) => token.key !== null)) return true;
  const [, second] = text.split(/\s+/);
  const named = second !== undefined && registry.command(def.family, second) !== undefined;
  // Named outright, and its words fill the command's options (only their values are wrong), or are all values.
  return (
    named && (bound || tokens.every((token) => token.source !== token.value || shapeOf(token.value) !== null))
  );
}

/**
 * Whether a reading named by nothing leaves unused a word that names a family ("remix this image … black and
 * white" is not a search for creators): the sentence asked for that family, not this command.
 */
function leavesFamily(reading: Reading, analysis: Analysis, vocabulary: Vocabulary): boolean {
  return (
    !reading.named &&
    analysis.words.some(
      (w) =>
        !reading.used.has(w.index) &&
        !w.quoted &&
        !analysis.valued.has(w.index) &&
        vocabulary.familyWords.has(w.lower),
    )
  );
}

/**
 * The commands the sentence names by a word of their name, by the word's place ("history", "export"; not a family's name, nor a word
 * of a list's name or of a date).
 */
function commandsNamed(analysis: Analysis, vocabulary: Vocabulary): Map<number, Set<CommandEntry>> {
  const named = new Map<number, Set<CommandEntry>>();
  const within = (i: number, spans: readonly { start: number; end: number }[]) =>
    spans.some((span) => i >= span.start && i < span.end);
  const forms = (part: string) => [part, `${part}s`, `${part}es`, part.replace(/s$/, '')];
  for (const w of analysis.words) {
    const key = `~${w.stem}`;
    if (w.quoted || w.filler || vocabulary.familyWords.has(w.lower) || vocabulary.familyWords.has(key))
      continue;
    if (within(w.index, analysis.named.names) || within(w.index, analysis.dates)) continue;
    for (const entry of vocabulary.commandWords.get(key) ?? []) {
      if (!entry.def.name.split('-').some((part) => forms(part).includes(w.fold))) continue;
      const entries = named.get(w.index) ?? new Set<CommandEntry>();
      entries.add(entry);
      named.set(w.index, entries);
    }
  }
  return named;
}

/** Builds the interpreter of a registry; its index of the declarations is built once, here. */
export function createInterpreter(registry: CommandRegistry, options: InterpreterOptions): Interpreter {
  const vocabulary = buildVocabulary(registry);
  const timeZone = options.timeZone ?? 'UTC';
  return {
    interpret(sentence: string, after?: FollowUp): readonly Interpretation[] {
      const text = withoutPrefix(sentence);
      if (text === '' || text.length > MAX_SENTENCE || isReference(text) || isSyntaxMistake(registry, text))
        return [];
      // "what can you do", "how does this work": words that are all filler ask for help.
      const asked = ASKS_HELP.test(text) ? 'help' : text;
      const analysis = analyse(asked, vocabulary, options.now(), timeZone, MAX_WORDS);
      if (analysis.total > MAX_WORDS || analysis.words.length === 0) return [];
      const readings = vocabulary.commands
        .map((entry) => evaluate(entry, analysis, vocabulary))
        .filter(
          (r): r is Reading =>
            r !== null &&
            r.used.size > 0 &&
            saysWriting(r.entry, analysis, vocabulary) &&
            !leavesFamily(r, analysis, vocabulary),
        )
        .sort((x, y) => y.score - x.score);
      const out: Interpretation[] = [];
      let bestConfidence = 1;
      const named = commandsNamed(analysis, vocabulary);
      readings.forEach((reading, i) => {
        let confidence = confidenceOf(reading, false);
        const runnerUp = readings[1];
        // A close runner-up of another family makes the best reading a guess (one family's default wins its own).
        if (
          i === 0 &&
          runnerUp !== undefined &&
          runnerUp.entry.family !== reading.entry.family &&
          runnerUp.score >= reading.score - CLOSE
        )
          confidence *= 0.75;
        // "history of the song Espresso": a command named but not read leaves its family's others a guess.
        // So does a word naming a command that the reading leaves unused ("conversation" read as a list).
        const entries = [...named.values()].flatMap((set) => [...set]);
        const sibling = entries.some((e) => e.family === reading.entry.family && e !== reading.entry);
        const left = [...named.keys()].some((i) => !reading.used.has(i));
        if ((sibling || left) && !entries.includes(reading.entry)) confidence = Math.min(confidence, 0.55);
        // A runner-up is only suggested, and never above the best reading.
        if (i > 0) confidence = Math.min(confidence, 0.55, bestConfidence);
        else bestConfidence = confidence;
        const { family, def } = { family: reading.entry.family, def: reading.entry.def };
        const read = readLine(registry, family, def.name, reading.options);
        if (read === null) return;
        out.push({
          family,
          command: def.name,
          options: reading.options,
          line: read.line,
          unused: reading.unusedWords,
          confidence: Math.round(confidence * 100) / 100,
          ...(read.valid ? {} : { mistaken: true as const }),
        });
      });
      if (after !== undefined && readsAsRefinement(analysis, vocabulary)) {
        const refined = refine(registry, vocabulary, after, analysis);
        if (refined !== null) {
          const { reading, kept, keptText } = refined;
          const line = checkedLine(
            registry,
            reading.entry.family,
            reading.entry.def.name,
            reading.options,
            keptText,
          );
          const fresh = out[0];
          // A sentence that names another command outright is that command, not a change of the last one.
          const outranked = fresh !== undefined && fresh.confidence >= 0.6 && readings[0]?.named === true;
          if (line !== null && !outranked) {
            out.unshift({
              family: reading.entry.family,
              command: reading.entry.def.name,
              options: { ...kept, ...reading.options },
              line,
              unused: reading.unusedWords,
              confidence: confidenceOf(reading, true),
              refined: true,
            });
          }
        }
      }
      const seen = new Set<string>();
      return out
        .filter((r) => r.confidence >= FLOOR && !seen.has(r.line) && seen.add(r.line) !== undefined)
        .sort((x, y) => y.confidence - x.confidence)
        .slice(0, MAX_READINGS);
    },
  };
}
