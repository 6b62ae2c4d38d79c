/**
 * Reads what a person types to press an element of the last reply (the terminal's, a conversation's): a number (`3`, `2.1` for the first
 * option of select 2), or words (`next`, `previous`, `confirm`, `details 2`, `add 3 to Spring`, `add all to
 * Spring`); in a follow-up's words too (`details of the second`, `add the first three to Spring`).
 */
import type { TextAction } from './render-text.js';

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

const startsWithWord = (label: string, word: string) =>
  label
    .toLowerCase()
    .split(/\s+/)[0]
    ?.replace(/[:.,]+$/, '') === word;
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
  if (['confirm', 'cancel', 'retry', 'run', 'edit'].includes(lower)) {
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

/** The longest line read as a press in words. */
const PRESS_LINE_MAX = 200;

/** Several presses read from one line (`add the first three to Spring`), in order. */
export type PressesResult =
  | { kind: 'presses'; presses: Press[] }
  | { kind: 'not-a-press' }
  | { kind: 'error'; message: string };

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** `3`, `three`, `third`, `3rd`: the number, or null. */
function countOf(word: string): number | null {
  const lower = word.toLowerCase();
  if (/^\d{1,3}(st|nd|rd|th)?$/.test(lower)) return Number.parseInt(lower, 10);
  const index = Math.max(NUMBER_WORDS.indexOf(lower), ORDINALS.indexOf(lower));
  return index < 0 ? null : index + 1;
}

/**
 * The terse press lines that a follow-up in words stands for: `details of the second` is `details 2`, `add the
 * first three to Spring` is `add 1`, `add 2` and `add 3` to Spring, `add 1, 3 and 5 to Spring` likewise, `show
 * more` is `next`; any other line stands for itself.
 */
export function pressLines(line: string): string[] {
  // A press in words is a few words: a longer line is read as itself, and no pattern runs over it.
  if (line.length > PRESS_LINE_MAX) return [line.trim()];
  const text = line
    .trim()
    .replace(/[.!?]+$/, '')
    .replace(/\s+/g, ' ');
  if (/^(show |give me |load |see )?(more|the next page|next page|next one)( please)?$/i.test(text))
    return ['next'];
  const details =
    /^(?:show |see |open )?(?:me )?(?:the )?details (?:of|for|on|about) (?:the )?(\w+)(?: one)?$/i.exec(text);
  const shown = details === null ? null : countOf(details[1] as string);
  if (shown !== null) return [`details ${shown}`];
  const first = /^add (?:the )?(?:first|top) (\w+)(?: ones| creators| of them)? to (.+)$/i.exec(text);
  const count = first === null ? null : countOf(first[1] as string);
  if (first !== null && count !== null && count <= 25) {
    return Array.from({ length: count }, (_, i) => `add ${i + 1} to ${first[2]}`);
  }
  // Split on the separators rather than matched by one pattern of repeated parts, which backtracks
  // exponentially on a long run of letters.
  const several = /^add (.+?) to (.+)$/i.exec(text);
  const parts = several === null ? [] : (several[1] as string).replace(/ ones?$/i, '').split(/,|&|\band\b/i);
  if (several !== null && parts.length > 1) {
    const numbers = parts.map((word) => countOf(word.trim().replace(/^the /i, '')));
    if (numbers.every((n) => n !== null))
      return [...new Set(numbers)].map((n) => `add ${n} to ${several[2]}`);
  }
  const one = /^add (?:the )?(\w+)(?: one)? to (.+)$/i.exec(text);
  const single = one === null ? null : countOf(one[1] as string);
  if (one !== null && single !== null) return [`add ${single} to ${one[2]}`];
  return [text];
}

/** Reads a line, in terse words or in a follow-up's words (see pressLines), as one or more presses. */
export function readPresses(line: string, actions: readonly TextAction[]): PressesResult {
  const presses: Press[] = [];
  for (const terse of pressLines(line)) {
    const read = readPress(terse, actions);
    if (read.kind === 'error') return read;
    if (read.kind === 'not-a-press') return read;
    presses.push(read.press);
  }
  return presses.length === 0 ? { kind: 'not-a-press' } : { kind: 'presses', presses };
}
