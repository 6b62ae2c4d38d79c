/**
 * The answers to a line read as plain words: what was understood, written as the exact command line it stands
 * for so that people learn the syntax by using words. Work that spends or writes is shown first, with Run (its
 * label stating the cost or the change) and Edit (the command's form, filled in); a free read runs at once and
 * begins with one line of what was understood; a guess only suggests, as buttons. Run is a Confirm button: it
 * runs what it carries once, as if typed.
 */
import {
  type Button,
  bold,
  button,
  buttons,
  code,
  formatCredits,
  type Inline,
  notice,
  type Reply,
  reply,
} from '../ui/index.js';
import { CONFIRM, type ConfirmPayload, type PersonalToken } from './confirmations.js';
import { FORM_KIND, formButton, hasForm } from './forms/index.js';
import type { Interpretation } from './interpret/types.js';
import type { CommandDef, CommandRegistry } from './types.js';

/** The kind of a suggestion's button: it reads its line as understood words, shown before it spends or writes. */
export const SUGGEST = 'scout.suggest';

/** What the guard knows of a command that was read from plain words. */
export interface Understood {
  /** The exact command line it stands for, after `/scout`. */
  line: string;
  /** The words it did not use. */
  unused: readonly string[];
  /** The options as typed, to fill its form in (Edit). */
  options: Readonly<Record<string, string>>;
  /** A follow-up: what it changed of the conversation's last command (`country France → Germany`). */
  changed?: string;
}

/** The command line as people type it. */
const slash = (line: string) => `/scout ${line}`;

/**
 * A word that may be a secret: long, unbroken, letters and digits mixed (an API key, a token). Such a word is never
 * echoed back, and a sentence that speaks of a key with one in it is not read (see SECRET_IN_WORDS).
 */
export const looksSecret = (word: string) =>
  word.length >= 16 && /^[\w.-]+$/.test(word) && /\d/.test(word) && /[a-z]/i.test(word);

/** A word not used, as it is named back: never one that may be a secret, nor a long one whole. */
const shownWord = (word: string) =>
  looksSecret(word) ? `${word.slice(0, 4)}…` : word.length > 30 ? `${word.slice(0, 29)}…` : word;

/** "I did not use: 'cool', 'asap'." — or nothing when every word was used. */
function unusedText(unused: readonly string[]): Inline[] {
  if (unused.length === 0) return [];
  const shown = unused.slice(0, 8).map((word) => `'${shownWord(word)}'`);
  return [` I did not use: ${shown.join(', ')}${unused.length > 8 ? ', …' : ''}.`];
}

/** "Changed: country France → Germany." — what a follow-up changed, or nothing. */
const changedText = (understood: Understood): Inline[] =>
  understood.changed === undefined ? [] : [` Changed: ${understood.changed}.`];

/** The line that begins a free read's answer: what was understood. */
export function understoodLine(understood: Understood) {
  return notice('info', [
    'Understood as ',
    code(slash(understood.line)),
    '.',
    ...changedText(understood),
    ...unusedText(understood.unused),
  ]);
}

/** A free read's answer, beginning with what was understood. */
export function withUnderstood(answer: Reply, understood: Understood): Reply {
  return { ...answer, nodes: [understoodLine(understood), ...answer.nodes] };
}

/** What a press of Run does, in its label: its cost, or the command it runs when it only writes. */
function runLabel(estimate: number, line: string): string {
  return estimate > 0 ? `Run (up to ${formatCredits(estimate)})` : `Run: ${slash(line)}`;
}

/**
 * Shows an understood command that spends or writes before it runs: the exact line, its cost or that it makes a
 * change, the words not used, Run and Edit. Nothing has run: the person's press decides.
 */
export function previewReply(
  token: PersonalToken,
  def: CommandDef<unknown>,
  understood: Understood,
  cost: { estimate: number; spentToday: number | null },
  run: ConfirmPayload,
): Reply {
  const { estimate, spentToday } = cost;
  // Above the confirmation threshold the preview is the confirmation: it says today's spend as one does.
  const today =
    spentToday === null
      ? ''
      : spentToday === 0
        ? ' You have spent none today.'
        : ` You have spent ${formatCredits(spentToday)} today.`;
  // A command that costs nothing now may cost later (a daily digest): its declared cost is said then.
  const what: Inline[] =
    estimate > 0
      ? ['It will cost up to ', bold(formatCredits(estimate)), `.${today}`]
      : /credit/i.test(def.cost)
        ? [`Cost: ${def.cost}.`]
        : ['It costs nothing.'];
  const change: Inline[] =
    def.mutates === true ? [' It makes a change: nothing is done until you press Run.'] : [];
  const row: Button[] = [
    button(runLabel(estimate, understood.line), token(CONFIRM, run), { style: 'primary' }),
  ];
  // Where no form opens (the terminal), a form button answers with the line to type, filled in.
  if (hasForm(def)) {
    const edit = token(FORM_KIND, { family: def.family, command: def.name, values: understood.options });
    row.push(formButton('Edit', edit));
  } else {
    row.push(button('Edit', token(SUGGEST, { text: understood.line, edit: true })));
  }
  return reply([
    notice('info', ['I read this as ', code(slash(understood.line)), '.', ...changedText(understood)]),
    notice(estimate > 0 ? 'warning' : 'info', [...what, ...change, ...unusedText(understood.unused)]),
    buttons(...row),
  ]);
}

/** Says how to change an understood line by typing it, where no form opens (the terminal). */
export function editByTyping(line: string): Reply {
  return reply([notice('info', ['Type it with your changes: ', code(slash(line))])]);
}

/**
 * A guess: what the exact syntax said of the line (`Unknown command "songz". Did you mean songs?`), then up to three
 * readings as buttons; nothing run.
 */
export function suggestionsReply(
  token: PersonalToken,
  readings: readonly Interpretation[],
  exact: string,
): Reply {
  const row = readings
    .slice(0, 3)
    .map((reading) => button(slash(reading.line), token(SUGGEST, { text: reading.line })));
  return reply([
    notice('warning', exact),
    notice('info', 'Or did you mean one of these? Type /scout help to see every command.'),
    buttons(...row),
  ]);
}

/** Whether a reading names a command the registry has (a reading is data: it is checked like a typed line). */
export const isKnown = (registry: CommandRegistry, reading: Interpretation) =>
  registry.command(reading.family, reading.command) !== undefined;
