/**
 * Buttons whose press asks for an answer that follows from a line alone (a command declaring `answer`: help, such as
 * `help creators search examples`). The id carries the line itself, so an answer given at once, before anything is
 * stored (Slack's acknowledgement), can have such buttons; a press runs the line as if it were typed.
 */
import { InternalError } from '../errors.js';
import { type Button, button } from '../ui/index.js';

/** Prefix of an answer button's id: `scout.answer:help+creators+search+examples`. */
const ANSWER_PREFIX = 'scout.answer:';

/** A word an answer button's line may hold: no space, no `+` (its separator), nothing a token would quote. */
const WORD = /^[A-Za-z0-9._:-]+$/;

/** A button whose press answers `line` (words after `/scout`, each without spaces) as if it were typed. */
export function answerButton(label: string, line: string): Button {
  const words = line.trim().split(/\s+/);
  if (!words.every((word) => WORD.test(word))) {
    throw new InternalError(`Not a line an answer button carries: ${line.slice(0, 40)}`);
  }
  return button(label, `${ANSWER_PREFIX}${words.join('+')}`);
}

/** The line an answer button's id carries, or null when `id` is not one. */
export function readAnswerId(id: string): string | null {
  if (!id.startsWith(ANSWER_PREFIX)) return null;
  const words = id.slice(ANSWER_PREFIX.length).split('+');
  return words.every((word) => WORD.test(word)) ? words.join(' ') : null;
}
