/**
 * Reads what a person types to press an element of the last reply (the terminal's, a conversation's): a number (`3`, `2.1` for the first
 * option of select 2, `2.1,2.3` for several options of a multi-select), or words (`next`, `previous`, `confirm`,
 * `details 2`, `add 3 to Spring`, `add 1,3,5 to Spring`, `add 1-3 to Spring`, `add all to Spring`, `add all results
 * to Spring`); in a follow-up's words too (`details of the second`, `add the first three to Spring`).
 */
import type { TextAction } from './render-text.js';

/** An element press: which token, and the value it carries (a select choice, a list name). */
export interface Press {
  actionId: string;
  value?: string;
  /** The options chosen in a multi-select (`2.1,2.3`, or `add 1,3 to Spring` on a select of creators to add). */
  choices?: readonly string[];
}

/** The outcome of reading a line as a press: one press, or several (each of `add 1,3` without a select for them). */
export type PressResult =
  | { kind: 'press'; press: Press }
  | { kind: 'presses'; presses: Press[] }
  | { kind: 'not-a-press' }
  | { kind: 'error'; message: string };

/** What a press carries besides its token, as an element's event: the value and the choices it has. */
export function pressEvent(press: Press): { value?: string; choices?: readonly string[] } {
  return {
    ...(press.value === undefined ? {} : { value: press.value }),
    ...(press.choices === undefined ? {} : { choices: press.choices }),
  };
}

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
  if (SEVERAL_OPTIONS.test(text)) return byOptions(actions, text);
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
  const results = RESULTS.exec(text);
  if (results !== null) return allResults(actions, results[1] as string, unquote(results[2]?.trim()));
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
  const several = SEVERAL.exec(text);
  if (several !== null && /[,-]/.test(several[2] as string)) {
    const value = unquote(several[3]?.trim());
    return bySeveral(actions, (several[1] as string).toLowerCase(), several[2] as string, value);
  }
  // `add 3 to Spring`, `details 2`, `status 1 NEGOTIATING`: the n-th button whose label starts with the word; a
  // number there is not (`details -1`, `details 0`) is named as the mistake.
  const verb = /^([a-z]+)\s+(-?\d+)(?:\s+(?:to\s+)?(.+))?$/i.exec(text);
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

/** `3.1,3.3`: several options of one select. */
const SEVERAL_OPTIONS = /^(?:press\s+)?\d{1,3}\.\d{1,3}(?:\s*,\s*\d{1,3}\.\d{1,3})+$/i;

function byOptions(actions: readonly TextAction[], text: string): PressResult {
  const pairs = [...text.matchAll(/(\d{1,3})\.(\d{1,3})/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  const index = pairs[0]?.[0] as number;
  if (pairs.some(([at]) => at !== index)) {
    return { kind: 'error', message: `Choose options of one select at a time (${index}.1, ${index}.2…).` };
  }
  const action = actions.find((a) => a.index === index);
  if (action === undefined) return { kind: 'error', message: `There is no [${index}] here.` };
  if (action.kind !== 'select')
    return { kind: 'error', message: `[${index}] is a button: press it as ${index}.` };
  const options = action.options ?? [];
  const choices: string[] = [];
  for (const [, option] of pairs) {
    const chosen = options[option - 1];
    if (chosen === undefined)
      return { kind: 'error', message: `[${index}] has options 1 to ${options.length}.` };
    if (!choices.includes(chosen.value)) choices.push(chosen.value);
  }
  return { kind: 'press', press: { actionId: action.actionId, choices } };
}

/** `add all results to Spring`, `add all 20 results`, `add the first 100 results to Spring`. */
const RESULTS = /^([a-z]+)\s+(?:all|the\s+first)\s+(?:\d{1,4}\s+)?results(?:\s+(?:to\s+)?(.+))?$/i;

/**
 * The button whose label starts with `word` and speaks of results (`Add all 20 results`); where none does (every
 * result is on the page), the one starting `word all` (`Add all on this page`).
 */
function allResults(actions: readonly TextAction[], word: string, value: string | undefined): PressResult {
  const lower = word.toLowerCase();
  const buttons = actions.filter((a) => a.kind === 'button' && startsWithWord(a.label, lower));
  const found =
    buttons.find((a) => /\bresults\b/i.test(a.label)) ?? buttons.find((a) => isAll(a.label, lower));
  if (found === undefined) return { kind: 'not-a-press' };
  return { kind: 'press', press: value ? { actionId: found.actionId, value } : { actionId: found.actionId } };
}

/** `add 1,3,5 to Spring`, `add 1-3`, `add 2-3,5 to Spring`: a word and several numbers, then what follows. */
const SEVERAL = /^([a-z]+)\s+(\d+(?:\s*-\s*\d+)?(?:\s*,\s*\d+(?:\s*-\s*\d+)?)*)(?:\s+(?:to\s+)?(.+))?$/i;

/** The numbers of `1,3,5` or `2-4` in order, each once; or what is wrong with them, `count` being the most. */
function numbersOf(spec: string, word: string, count: number): number[] | string {
  const numbers: number[] = [];
  for (const part of spec.split(',')) {
    const [from, to = from] = part.split('-').map((n) => Number(n.trim())) as [number, number?];
    if (to < from) return `${from}-${to} counts down: write ${to}-${from}.`;
    const outside = from < 1 ? from : to > count ? to : null;
    if (outside !== null) return `There is no "${word}" number ${outside} here (1-${count}).`;
    for (let n = from; n <= to; n++) if (!numbers.includes(n)) numbers.push(n);
  }
  return numbers;
}

/** Whether a select's label names `word` (`Choose creators to add…` for `add`). */
const namesWord = (label: string, word: string) =>
  label
    .toLowerCase()
    .split(/[^a-z]+/)
    .includes(word);

/**
 * Several numbers for `word`: the options of the select that names the word (one press carrying them all), else
 * the n-th buttons whose label starts with it, one press each.
 */
function bySeveral(
  actions: readonly TextAction[],
  word: string,
  spec: string,
  value: string | undefined,
): PressResult {
  const chooser = actions.find((a) => a.kind === 'select' && namesWord(a.label, word));
  const buttons = actions.filter(
    (a) => a.kind === 'button' && startsWithWord(a.label, word) && !isAll(a.label, word),
  );
  if (chooser === undefined && buttons.length === 0) return { kind: 'not-a-press' };
  const options = chooser?.options ?? [];
  const numbers = numbersOf(spec, word, chooser === undefined ? buttons.length : options.length);
  if (typeof numbers === 'string') return { kind: 'error', message: numbers };
  const extra = value ? { value } : {};
  if (chooser !== undefined) {
    const choices = numbers.map((n) => (options[n - 1] as { value: string }).value);
    return { kind: 'press', press: { actionId: chooser.actionId, choices, ...extra } };
  }
  return {
    kind: 'presses',
    presses: numbers.map((n) => ({ actionId: (buttons[n - 1] as TextAction).actionId, ...extra })),
  };
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

/** `3`, `third`, or a range `2-4` (as typed): the number or range, or null. */
function numberOrRange(word: string): string | null {
  if (/^\d{1,3}\s*-\s*\d{1,3}$/.test(word)) return word.replace(/\s+/g, '');
  const n = countOf(word);
  return n === null ? null : String(n);
}

/**
 * The terse press lines that a follow-up in words stands for: `details of the second` is `details 2`, `add the
 * first three to Spring` is `add 1-3 to Spring`, `add 1, 3 and 5 to Spring` is `add 1,3,5 to Spring`, `show more`
 * is `next`; any other line stands for itself.
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
    return [count === 1 ? `add 1 to ${first[2]}` : `add 1-${count} to ${first[2]}`];
  }
  // Split on the separators rather than matched by one pattern of repeated parts, which backtracks
  // exponentially on a long run of letters.
  const several = /^add (.+?) to (.+)$/i.exec(text) ?? /^add (.+)$/i.exec(text);
  const parts = several === null ? [] : (several[1] as string).replace(/ ones?$/i, '').split(/,|&|\band\b/i);
  if (several !== null && parts.length > 1) {
    const numbers = parts.map((word) => numberOrRange(word.trim().replace(/^the /i, '')));
    const to = several[2] === undefined ? '' : ` to ${several[2]}`;
    // One line for them all: one press of the select that takes several, so one request adds them.
    if (numbers.every((n) => n !== null)) return [`add ${numbers.join(',')}${to}`];
  }
  const one = /^add (?:the )?(\w+)(?: one)? to (.+)$/i.exec(text);
  const single = one === null ? null : countOf(one[1] as string);
  if (one !== null && single !== null) return [`add ${single} to ${one[2]}`];
  return [text];
}

/**
 * Whether a line adds cards by their numbers (`add 1,3 to Spring`, `add 2-4`) or every result (`add all results`):
 * words that only press a page's elements (no command is named `add`).
 */
export function isNumberedPress(line: string): boolean {
  const text = line.trim();
  if (text.length > PRESS_LINE_MAX) return false;
  const several = SEVERAL.exec(text);
  const results = RESULTS.exec(text);
  return (
    (several !== null && several[1]?.toLowerCase() === 'add' && /[,-]/.test(several[2] as string)) ||
    results?.[1]?.toLowerCase() === 'add'
  );
}

/** Reads a line, in terse words or in a follow-up's words (see pressLines), as one or more presses. */
export function readPresses(line: string, actions: readonly TextAction[]): PressesResult {
  const presses: Press[] = [];
  for (const terse of pressLines(line)) {
    const read = readPress(terse, actions);
    if (read.kind === 'error') return read;
    if (read.kind === 'not-a-press') return read;
    if (read.kind === 'presses') presses.push(...read.presses);
    else presses.push(read.press);
  }
  return presses.length === 0 ? { kind: 'not-a-press' } : { kind: 'presses', presses };
}
