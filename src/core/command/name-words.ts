/**
 * A name typed without quotes after a family alone (`list Spring Launch`) may be a sentence instead (`list the
 * digests`, `list creators in Spring Launch`): the words win where they read confidently as another command, or as
 * the same command with other options; otherwise the name stands.
 */
import { bindTokens, joinedName } from './bind.js';
import { CONFIDENT, type FollowUp, type Interpreter } from './interpret/types.js';
import { isPlain } from './plain-words.js';
import { type ResolvedLine, resolveText } from './routing.js';
import type { CommandRegistry } from './types.js';

/** A word plain words may leave out of a name: one with a sign in it (`St.`, `O’Brien`, an emoji). */
const unread = (word: string) => /[^\p{L}\p{N}]/u.test(word);

/** Whether `read` is `typed` with only such words left out (compared in lower case). */
function leavesOutSigns(typed: string, read: string): boolean {
  const words = read.toLowerCase().split(/\s+/).filter(Boolean);
  let at = 0;
  for (const word of typed.toLowerCase().split(/\s+/).filter(Boolean)) {
    if (word === words[at]) at++;
    else if (!unread(word)) return false;
  }
  return at === words.length;
}

/**
 * Whether a reading of the same command has the typed options, each as typed or with only words of signs left
 * out: the interpreter does not read those, so the typed name stands.
 */
function onlyLeavesOut(read: Record<string, unknown>, typed: Record<string, unknown>): boolean {
  return Object.entries(read).every(
    ([key, value]) => key in typed && leavesOutSigns(String(typed[key]), String(value)),
  );
}

/**
 * Whether a line that reached its family's default command with a name of several unquoted words (`raw`, as
 * bindTokens made it) reads, as plain words, as something else: another command, or other options of its own.
 */
export function wordsReadOtherwise(
  registry: CommandRegistry,
  interpreter: Interpreter,
  resolved: ResolvedLine,
  raw: Record<string, unknown>,
  after?: FollowUp,
): boolean {
  if (resolved.named || joinedName(raw) === null || !isPlain(resolved.text)) return false;
  const best = interpreter.interpret(resolved.text, after).find((reading) => reading.mistaken !== true);
  if (best === undefined || best.confidence < CONFIDENT) return false;
  try {
    const read = resolveText(registry, best.line);
    if (read.def !== resolved.def) return true;
    return !onlyLeavesOut(bindTokens(read.def.params, read.tokens), raw);
  } catch {
    // A reading that is not a line of the exact syntax is no reading: the name stands.
    return false;
  }
}
