/**
 * What the terminal shows of an answer, and what typed words press. Two numberings are printed: buttons are
 * `[n]` and belong to the latest answer (`3` presses its button 3); the cards of a page (a result page: several
 * cards, or cards with a pager) are numbered on the card (`2. @name`), and `details 2` or `add 2 to <list>` presses
 * that button of card 2 of the latest page that has one, even after other answers have come (unless the latest
 * answer, not a page, has such a button 2 of its own: a profile's Add to list is `add 1`).
 */
import {
  type Button,
  type CardNode,
  type Press,
  type PressesResult,
  type PressResult,
  pressLines,
  type Reply,
  type ReplyNode,
  readPress,
  renderText,
  type TextAction,
} from '../../core/ui/index.js';

/** A page shown: the buttons of each of its cards, in card order, and all its buttons. */
export interface Page {
  readonly cards: readonly (readonly TextAction[])[];
  readonly actions: readonly TextAction[];
}

/** What an answer shown leaves to press: its buttons, numbered `[n]` in reading order, and its cards as a page. */
export interface Pressable {
  readonly actions: readonly TextAction[];
  /** The answer as a page, when it is one. */
  readonly page: Page | null;
}

/** An answer as the terminal shows it. */
export interface Shown extends Pressable {
  readonly text: string;
}

/** Pages kept for typed words, newest first: far more than anyone scrolls back to. */
export const PAGES_KEPT = 20;

const isCard = (node: ReplyNode): node is CardNode => node.type === 'card';
const pressable = (buttons: readonly Button[]) => buttons.filter((b) => b.disabled !== true);

/** Whether `reply` is a page: cards with buttons, several of them or with a pager. */
function isPage(reply: Reply): boolean {
  const cards = reply.nodes.filter(isCard);
  if (!cards.some((card) => pressable(card.actions).length > 0)) return false;
  return cards.length > 1 || reply.nodes.some((node) => node.type === 'pager');
}

/** Renders `reply` as text; a page's cards are numbered before their titles (`1. @zara · Zara Moreau`). */
export function renderForTerminal(reply: Reply): Shown {
  if (!isPage(reply)) {
    const { text, actions } = renderText(reply);
    return { text, actions, page: null };
  }
  let number = 0;
  const nodes = reply.nodes.map((node) => {
    if (!isCard(node)) return node;
    number += 1;
    return { ...node, title: `${number}. ${node.title}` };
  });
  const { text, actions } = renderText({ ...reply, nodes });
  const cards = reply.nodes.filter(isCard).map((card) => {
    const ids = new Set(pressable(card.actions).map((b) => b.actionId));
    return actions.filter((action) => ids.has(action.actionId));
  });
  return { text, actions, page: { cards, actions } };
}

/** `details 4`, `add 2 to Spring`, `status 1 negotiating`: a word and a card's number (`-1` is named a mistake). */
const WORD_AND_NUMBER = /^([a-z]+)\s+(-?\d+)(\s.*)?$/i;
/** A press by number (`3`, `press 3`, `2.1`) or of the answer's own step: only ever the latest answer's. */
const LATEST_ONLY = /^(?:press\s+)?\d|^(?:confirm|cancel|retry|run|edit)$/i;

/**
 * Card `number`'s button pressed by `word` on the newest page whose cards have such a button (null when none
 * has): the card's own first button of that word, with what follows (`to Spring`).
 */
function onCard(
  word: string,
  number: number,
  rest: string,
  latest: Pressable,
  pages: readonly Page[],
): PressResult | null {
  const first = `${word} 1${rest}`;
  const page = pages.find((p) => p.cards.some((card) => readPress(first, card).kind === 'press'));
  if (page === undefined) return null;
  const card = page.cards[number - 1];
  if (card === undefined) {
    const where = page === latest.page ? 'here' : 'on the latest page with one';
    return {
      kind: 'error',
      message: `There is no "${word}" number ${number} ${where} (1-${page.cards.length}).`,
    };
  }
  const read = readPress(first, card);
  return read.kind === 'press'
    ? read
    : { kind: 'error', message: `Number ${number} on that page has no "${word}".` };
}

/** Whether a line was read as one press or several (`add 1,3 to Spring` on buttons). */
const pressed = (read: PressResult) => read.kind === 'press' || read.kind === 'presses';

/** Words that turn a page. */
const PAGER_WORD = /^(?:next|previous|prev)\b/i;

/** One terse press line (see pressLines) against the latest answer and the pages shown. */
function readOne(line: string, latest: Pressable, pages: readonly Page[]): PressResult {
  const text = line.trim();
  const read = readPress(text, latest.actions);
  const numbered = WORD_AND_NUMBER.exec(text);
  const word = numbered?.[1]?.toLowerCase();
  if (numbered !== null && word !== undefined && word !== 'press') {
    // A page's buttons are pressed by card number; another answer's by their order (its only Add to list is 1).
    if (latest.page === null && pressed(read)) return read;
    return onCard(word, Number(numbered[2]), numbered[3] ?? '', latest, pages) ?? read;
  }
  if (pressed(read) || numbered !== null || LATEST_ONLY.test(text)) return read;
  // Next and previous turn the newest page only: an older page's Next would show a page already shown.
  if (PAGER_WORD.test(text)) return pages[0] === undefined ? read : readPress(text, pages[0].actions);
  // `more`, `add all to Spring`, `add 1-3 to Spring`: the latest answer's first, else the newest page's that has
  // it, whose mistake (`3-1 counts down`) is said as it is.
  for (const page of pages) {
    const onPage = readPress(text, page.actions);
    if (pressed(onPage) || onPage.kind === 'error') return onPage;
  }
  return read;
}

/**
 * Reads a typed line, terse or in a follow-up's words (`add the first three to Spring`), as presses: numbers and
 * the answer's own steps (run, confirm, cancel…) on `latest`, the latest answer; a word and a number on `latest`
 * when it is not a page and has that button, else on that card of the newest of `pages` (newest first) whose cards
 * have such a button; other words on `latest`, else on the newest page that has them.
 */
export function readTyped(line: string, latest: Pressable, pages: readonly Page[] = []): PressesResult {
  const presses: Press[] = [];
  for (const terse of pressLines(line)) {
    const read = readOne(terse, latest, pages);
    if (read.kind === 'press') presses.push(read.press);
    else if (read.kind === 'presses') presses.push(...read.presses);
    else return read;
  }
  return presses.length === 0 ? { kind: 'not-a-press' } : { kind: 'presses', presses };
}
