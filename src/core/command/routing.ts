/**
 * The grammar's routing: which command a line names and the tokens of its options, the line a command's tokens
 * read back as, and the family an invocation counts toward (its line's, its element's). Nothing here runs anything.
 */
import { CommandInputError } from './errors.js';
import { UNKNOWN } from './outcome.js';
import { didYouMean, matchChoice } from './suggest.js';
import { tokenText, withoutPrefix } from './syntax.js';
import { type Token, tokenize } from './tokenize.js';
import type { CommandDef, CommandRegistry } from './types.js';

/** The longest word an answer quotes back whole: a longer one is cut, so junk is not echoed at length. */
const QUOTED_WORD_MAX = 40;

/** A word as an answer quotes it back. */
const shortWord = (word: string) =>
  word.length <= QUOTED_WORD_MAX ? word : `${word.slice(0, QUOTED_WORD_MAX - 1)}…`;

/** A command line resolved: the command, the tokens of its options, and the line without its `/scout`. */
export interface ResolvedLine {
  def: CommandDef<unknown>;
  tokens: Token[];
  text: string;
  /** The line named its command (`creators search`), rather than only its family (`creators`) or nothing. */
  named: boolean;
}

/**
 * The command a line names and its options' tokens: help for a line of options only (or none), the family's
 * default command when the second word names none. Throws CommandInputError, with what comes closest, for a
 * family or subcommand that does not exist, and TokenizeError for a line that does not tokenize.
 */
export function resolveText(registry: CommandRegistry, line: string): ResolvedLine {
  const text = withoutPrefix(line);
  const tokens = tokenize(text);
  const [first, second] = tokens;
  if (first === undefined || first.key !== null) {
    const help = registry.command('help', 'show');
    if (help === undefined) throw new CommandInputError('Type a command, such as /scout help.');
    return { def: help, tokens: first === undefined ? [] : tokens, text, named: false };
  }
  const family = registry.family(first.value);
  if (family === undefined) {
    const guess = matchChoice(
      first.value,
      registry.families.map((f) => f.name),
    );
    throw new CommandInputError(
      `Unknown command "${shortWord(first.value)}".${guess.ok ? '' : didYouMean(guess.suggestions)} Type /scout help to see every command.`,
    );
  }
  const named =
    second !== undefined && second.key === null ? registry.command(family.name, second.value) : undefined;
  if (named !== undefined) return { def: named, tokens: tokens.slice(2), text, named: true };
  const fallback =
    family.defaultCommand === undefined ? undefined : registry.command(family.name, family.defaultCommand);
  if (fallback !== undefined) return { def: fallback, tokens: tokens.slice(1), text, named: false };
  const names = family.commands.map((c) => c.name);
  const guess = second === undefined ? null : matchChoice(second.value, names);
  throw new CommandInputError(
    `${second === undefined ? `/scout ${family.name} needs a subcommand.` : `Unknown subcommand "${shortWord(second.value)}".`}${guess !== null && !guess.ok ? didYouMean(guess.suggestions) : ''} Try: ${names.map((n) => `/scout ${family.name} ${n}`).join(', ')}.`,
  );
}

/** The command a line names (`creators search`); null for none, an empty line or one that does not resolve. */
export function commandNameOf(registry: CommandRegistry, line: string | null): string | null {
  if (line === null || line === '') return null;
  try {
    const { def } = resolveText(registry, line);
    return `${def.family} ${def.name}`;
  } catch {
    return null;
  }
}

/** The family of a command line's first word (help for an empty line), for what failed before it was resolved. */
export function familyOfLine(registry: CommandRegistry, line: string): string {
  const [first = ''] = withoutPrefix(line).split(/\s+/);
  if (first === '') return 'help';
  return registry.family(first)?.name ?? UNKNOWN;
}

/** The family an element counts toward: the command that made it (its `rerun` line), else its kind's (`list`). */
export function familyOfElement(registry: CommandRegistry, kind: string, rerun: string | null): string {
  const command = commandNameOf(registry, rerun);
  if (command !== null) return command.split(' ')[0] as string;
  return registry.family(kind.split('.')[0] ?? '')?.name ?? UNKNOWN;
}

/** Named values as tokens of the text syntax (`key:value`), as typed options and a form's fixed values are. */
export const keyedTokens = (values: Readonly<Record<string, string>>): Token[] =>
  Object.entries(values).map(([key, value]) => ({ key, value, source: value }));

/** The command line of a command and its tokens, which tokenize reads back as they are. */
export const lineOf = (def: CommandDef<unknown>, tokens: readonly Token[]) =>
  [def.family, def.name, ...tokens.map(tokenText)].join(' ');
