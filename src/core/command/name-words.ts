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

/**
 * An input written the same whatever order its fields were set in, its text without the symbols plain words do
 * not read (an emoji in a name: `Spring 🌸 Launch` is read as `Spring Launch`).
 */
const canonical = (input: Record<string, unknown>) =>
  JSON.stringify(Object.entries(input).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    .replace(/[^\p{L}\p{N}":,[\]{}]+/gu, ' ')
    .replace(/ +/g, ' ');

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
    return canonical(bindTokens(read.def.params, read.tokens)) !== canonical(raw);
  } catch {
    // A reading that is not a line of the exact syntax is no reading: the name stands.
    return false;
  }
}
