/**
 * A line that is not exact syntax, read as plain words through the interpreter: a sure reading runs as the exact
 * line it stands for (shown first when it spends or writes, see understood.ts), a guess is answered with up to
 * three suggestions, and a line that reads as nothing keeps the exact syntax's answer. A line with `key:value`
 * options is exact syntax mistyped: it keeps the answer that names the mistake.
 */
import { notice, type Reply, reply } from '../ui/index.js';
import { bindTokens } from './bind.js';
import { CommandInputError } from './errors.js';
import { CONFIDENT, type FollowUp, type Interpretation, type Interpreter } from './interpret/types.js';
import { type DispatchEnv, mintElement, type Scoped } from './invocation.js';
import { resolveKey, StrayWordsError } from './params.js';
import { isInputError, validInput } from './resolve-options.js';
import { type ResolvedLine, resolveText } from './routing.js';
import { withoutPrefix } from './syntax.js';
import { tokenize } from './tokenize.js';
import type { CommandDef, CommandRegistry } from './types.js';
import { editByTyping, looksSecret, suggestionsReply, type Understood } from './understood.js';
import { usageLine } from './usage.js';

/** The longest message (a direct message, a mention) read as a request: a request is a sentence or two. */
export const MESSAGE_MAX = 2000;

/** Said of a message longer than MESSAGE_MAX: it is not read. */
export const TOO_LONG = 'That is longer than I read (2,000 characters): say it in a sentence or two.';

/** Said of a line with no word in it (emoji or punctuation only) and of a mention with nothing after it. */
export const WORDLESS =
  'Tell me what you need: in plain words, or as a command line you would type after /scout.';

/** A line with something in it but no letter or digit, and no family's name (help's `?`): nothing to read. */
export const isWordless = (registry: CommandRegistry, line: string) => {
  const text = withoutPrefix(line);
  return text !== '' && !/[\p{L}\p{N}]/u.test(text) && registry.family(text) === undefined;
};

/**
 * Whether a line the exact syntax refused may be plain words: it named no command (`find fitness creators`), or only
 * a family followed by words its command has no place for (`creators fitness france`), and no `key:value` option.
 * A command named outright (`outreach conversation a b`), or given a wrong value (`remix image ftp://a`), is exact
 * syntax mistyped: its answer names the mistake.
 */
export function mayBeWords(line: string, resolved: ResolvedLine | null, error: unknown): boolean {
  const words = resolved === null ? isInputError(error) : !resolved.named && error instanceof StrayWordsError;
  return words && isPlain(line);
}

/** Said of a sentence that gives a key: Scout takes keys in a private form only. */
export const SECRET_IN_WORDS =
  'That looks like a key. Scout never takes a key from a message: an admin connects one with /scout connect key, in a private form. Delete your message if others can see it.';

/** A sentence that speaks of a key, a token or a password and holds a word that looks like one. */
const givesSecret = (line: string) =>
  /\b(api[ -]?)?(key|token|secret|password)s?\b/i.test(line) && line.split(/[\s:=,;]+/).some(looksSecret);

/** What reading plain words needs of the dispatcher. */
export interface PlainWordsDeps {
  env: Pick<DispatchEnv, 'registry' | 'store' | 'settings' | 'clock'>;
  interpreter: Interpreter;
  /** Runs a command read from plain words (under the guard, which shows first what spends or writes). */
  run(
    invocation: Scoped,
    def: CommandDef<unknown>,
    raw: Record<string, unknown>,
    understood: Understood,
  ): Promise<Reply>;
}

/** Reads lines as plain words. */
export interface PlainWords {
  /**
   * The answer to a line the exact syntax refused with `error` and that may be words (see mayBeWords), read as
   * plain words; null when it reads as nothing, so the exact syntax's answer stands. `after`: the conversation's last
   * command line, which a follow-up refines. Throws a CommandInputError naming the mistake when the sentence is sure
   * to ask for a command but with a value it does not take.
   */
  read(
    invocation: Scoped & { text: string },
    error: unknown,
    after?: FollowUp,
    ran?: { line: string | null },
  ): Promise<Reply | null>;
  /** A suggestion pressed: its line as understood words (shown first when it spends or writes). */
  suggested(invocation: Scoped & { text: string; edit: boolean }): Promise<Reply>;
}

/** A line of bare words only: a `key:value` word means the person wrote exact syntax. */
export function isPlain(line: string): boolean {
  try {
    return tokenize(withoutPrefix(line)).every((token) => token.key === null);
  } catch {
    // A stray quote (what's, it’s) does not tokenize: such a line is words, unless it has a `key:` of the syntax.
    return !/(^|\s)[A-Za-z][\w-]*[:=]/.test(line);
  }
}

/** A command line resolved and checked as typed, or null when it does not run as it is. */
function checked(env: PlainWordsDeps['env'], line: string) {
  try {
    const { def, tokens } = resolveText(env.registry, line);
    const raw = bindTokens(def.params, tokens);
    validInput(def, raw);
    // By the option's own name, as its form names its fields (`category` fills mainCategory).
    const options: Record<string, string> = {};
    for (const token of tokens)
      if (token.key !== null) options[resolveKey(def.params, token.key) ?? token.key] = token.value;
    return { def, raw, options };
  } catch {
    return null;
  }
}

/**
 * What is wrong with the line a sentence was read as, said with the line (`I read this as …`), so a range typed
 * the wrong way round is named as such rather than left unread.
 */
function readAsMistake(env: PlainWordsDeps['env'], line: string): CommandInputError {
  const read = `I read this as \`/scout ${line}\`.`;
  let usage: string | null = null;
  try {
    const { def, tokens } = resolveText(env.registry, line);
    usage = usageLine(def);
    validInput(def, bindTokens(def.params, tokens));
  } catch (error) {
    if (!isInputError(error) || !(error instanceof Error)) throw error;
    const shown = error instanceof CommandInputError ? (error.usage ?? usage) : usage;
    return new CommandInputError(`${read} ${error.message}`, shown);
  }
  return new CommandInputError(`${read} It cannot run as it is.`, usage);
}

/** A line's `key:value` options, by the name typed (an option given twice keeps its last value). */
function keyedOf(line: string): Map<string, string> {
  const keyed = new Map<string, string>();
  for (const token of tokenize(line)) if (token.key !== null) keyed.set(token.key, token.value);
  return keyed;
}

/** The first two words of a line: its family and command. */
const commandOf = (line: string) => line.split(/\s+/).slice(0, 2).join(' ');

/**
 * What a follow-up changed of the last command line, in one line (`country France → Germany, added emailExists
 * yes`); null when it names another command or changes nothing.
 */
export function changesOf(before: string, after: string): string | null {
  if (commandOf(before) !== commandOf(after)) return null;
  const was = keyedOf(before);
  const now = keyedOf(after);
  const changes: string[] = [];
  for (const [key, value] of now) {
    const old = was.get(key);
    if (old === undefined) changes.push(`added ${key} ${value}`);
    else if (old !== value) changes.push(`${key} ${old} → ${value}`);
  }
  for (const key of was.keys()) if (!now.has(key)) changes.push(`dropped ${key}`);
  return changes.length === 0 ? null : changes.join(', ');
}

/** Creates the reader of plain words. */
export function createPlainWords(deps: PlainWordsDeps): PlainWords {
  const { env, interpreter } = deps;

  const runLine = (
    invocation: Scoped,
    line: string,
    unused: readonly string[],
    /** The conversation's last line, when the reading refines it: what changed is said. */
    refined?: FollowUp,
  ): Promise<Reply> | null => {
    const found = checked(env, line);
    if (found === null) return null;
    const changed = refined === undefined ? null : changesOf(refined.line, line);
    const understood: Understood = {
      line,
      unused,
      options: found.options,
      ...(changed === null ? {} : { changed }),
    };
    return deps.run(invocation, found.def, found.raw, understood);
  };

  return {
    async read(invocation, error, after, ran) {
      if (givesSecret(invocation.text)) return reply([notice('warning', SECRET_IN_WORDS)]);
      const all = interpreter.interpret(withoutPrefix(invocation.text), after);
      const readings = all.filter(
        (reading) => reading.mistaken !== true && checked(env, reading.line) !== null,
      );
      const [best] = readings;
      // A sure reading with a value its command does not take is named, rather than a weaker one suggested.
      const [first] = all;
      const sure = (reading: Interpretation | undefined) => (reading?.confidence ?? 0) >= CONFIDENT;
      if (first?.mistaken === true && sure(first) && !sure(best)) throw readAsMistake(env, first.line);
      if (best === undefined) return null;
      if (best.confidence >= CONFIDENT) {
        if (ran !== undefined) ran.line = best.line;
        return runLine(invocation, best.line, best.unused, best.refined === true ? after : undefined);
      }
      const token = (kind: string, payload: unknown) =>
        mintElement(env, invocation, kind, payload, { personal: true, rerun: null });
      const exact = error instanceof Error ? error.message : 'That is not a command.';
      return suggestionsReply(token, readings as readonly Interpretation[], exact);
    },
    async suggested(invocation) {
      if (invocation.edit) return editByTyping(invocation.text);
      const ran = runLine(invocation, invocation.text, []);
      return ran ?? editByTyping(invocation.text);
    },
  };
}
