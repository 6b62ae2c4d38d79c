/**
 * Reads what a terminal user types to press an element of the last reply: a number (`3`, `2.1` for the first
 * option of select 2), or words (`next`, `previous`, `confirm`, `details 2`, `add 3 to Spring`, `add all to
 * Spring`).
 */
import type { TextAction } from '../../core/ui/index.js';

/** An element press: which token, and the value it carries (a select choice, a list name). */
export interface Press {
  actionId: string;
  value?: string;
}

/** The outcome of reading a line as a press. */
export type PressResult =
  | { kind: 'press'; press: Press }
  | { kind: 'not-a-press' }
  | { kind: 'error'; message: string };

const WORDS: Readonly<Record<string, string>> = {
  next: 'next',
  n: 'next',
  more: 'next',
  prev: 'previous',
  previous: 'previous',
  back: 'previous',
  p: 'previous',
};

const startsWithWord = (label: string, word: string) => label.toLowerCase().split(/\s+/)[0] === word;
/** A label starting `word all` (`Add all on this page`): pressed as `add all`, not counted by `add <n>`. */
const isAll = (label: string, word: string | undefined) =>
  label.toLowerCase().startsWith(`${(word ?? '').toLowerCase()} all `);

/** Interprets `line` against the numbered actions of the last reply. */
export function readPress(line: string, actions: readonly TextAction[]): PressResult {
  const text = line.trim();
  if (actions.length === 0) return { kind: 'not-a-press' };
  const numbered = /^(?:press\s+)?(\d{1,3})(?:\.(\d{1,3}))?$/i.exec(text);
  if (numbered !== null)
    return byNumber(actions, Number(numbered[1]), numbered[2] === undefined ? null : Number(numbered[2]));
  const lower = text.toLowerCase();
  const word = WORDS[lower];
  if (word !== undefined) {
    const found = actions.find((a) => a.kind === 'button' && a.label.toLowerCase() === word);
    return found === undefined
      ? { kind: 'error', message: `There is no "${word}" here.` }
      : { kind: 'press', press: { actionId: found.actionId } };
  }
  if (lower === 'confirm' || lower === 'cancel' || lower === 'retry') {
    const found = actions.find((a) => a.kind === 'button' && startsWithWord(a.label, lower));
    return found === undefined
      ? { kind: 'not-a-press' }
      : { kind: 'press', press: { actionId: found.actionId } };
  }
  // `add all to Spring`: the button whose label starts with the two words (`Add all on this page`).
  const all = /^([a-z]+)\s+all(?:\s+(?:to\s+)?(.+))?$/i.exec(text);
  const allButton =
    all === null ? undefined : actions.find((a) => a.kind === 'button' && isAll(a.label, all[1]));
  if (all !== null && allButton !== undefined) {
    const value = unquote(all[2]?.trim());
    return {
      kind: 'press',
      press: value ? { actionId: allButton.actionId, value } : { actionId: allButton.actionId },
    };
  }
  // `add 3 to Spring`, `details 2`, `status 1 NEGOTIATING`: the n-th button whose label starts with the word.
  const verb = /^([a-z]+)\s+(\d{1,3})(?:\s+(?:to\s+)?(.+))?$/i.exec(text);
  if (verb !== null) {
    const name = (verb[1] as string).toLowerCase();
    const matching = actions.filter(
      (a) => a.kind === 'button' && startsWithWord(a.label, name) && !isAll(a.label, name),
    );
    if (matching.length === 0) return { kind: 'not-a-press' };
    const target = matching[Number(verb[2]) - 1];
    if (target === undefined)
      return {
        kind: 'error',
        message: `There is no "${name}" number ${verb[2]} here (1-${matching.length}).`,
      };
    const value = unquote(verb[3]?.trim());
    return {
      kind: 'press',
      press: value ? { actionId: target.actionId, value } : { actionId: target.actionId },
    };
  }
  return { kind: 'not-a-press' };
}

function byNumber(actions: readonly TextAction[], index: number, option: number | null): PressResult {
  const action = actions.find((a) => a.index === index);
  if (action === undefined) return { kind: 'error', message: `There is no [${index}] here.` };
  if (action.kind === 'select') {
    const options = action.options ?? [];
    if (option === null) {
      return {
        kind: 'error',
        message: `Choose an option of [${index}] as ${index}.1 to ${index}.${options.length}.`,
      };
    }
    const chosen = options[option - 1];
    if (chosen === undefined)
      return { kind: 'error', message: `[${index}] has options 1 to ${options.length}.` };
    return { kind: 'press', press: { actionId: action.actionId, value: chosen.value } };
  }
  return { kind: 'press', press: { actionId: action.actionId } };
}

/** `"Spring Launch"` and `'Spring Launch'` name the same list as `Spring Launch`. */
function unquote(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^(["'“‘])(.*)(["'”’])$/.exec(value);
  return match === null ? value : match[2];
}
