/**
 * What typed words press in the terminal, read against the pages and the latest answer the shell keeps (pages.ts):
 * the cases the end-to-end tests (pages.test.ts) cannot set up with the sandbox's data.
 */
import { describe, expect, it } from 'vitest';
import {
  type Page,
  type Pressable,
  readTyped,
  renderForTerminal,
} from '../../../src/adapters/terminal/pages.js';
import { button, buttons, card, pager, reply, text } from '../../../src/core/ui/index.js';

/** A page of creator cards `names`, each with Add to list and (unless listed in `bare`) Details, and a pager. */
function pageOf(prefix: string, names: readonly string[], bare: readonly string[] = []): Page {
  const shown = renderForTerminal(
    reply([
      ...names.map((name) =>
        card({
          title: `@${name}`,
          actions: [
            button('Add to list', `creators.add:${prefix}${name}`),
            ...(bare.includes(name) ? [] : [button('Details', `creators.details:${prefix}${name}`)]),
          ],
        }),
      ),
      pager({ page: 1, totalPages: 2, prevActionId: null, nextActionId: `creators.page:${prefix}` }),
    ]),
  );
  if (shown.page === null) throw new TypeError('not a page');
  return shown.page;
}

const tokens = (line: string, latest: Pressable, pages: readonly Page[]) => {
  const read = readTyped(line, latest, pages);
  return read.kind === 'presses' ? read.presses.map((p) => [p.actionId, p.value ?? null]) : read;
};

describe('typed words in the terminal', () => {
  const older = pageOf('a', ['ana', 'bo', 'cy']);
  const newer = pageOf('b', ['dee', 'eve'], ['eve']);
  // A profile's details: one card, no pager.
  const profile: Pressable = renderForTerminal(
    reply([card({ title: '@ana', actions: [button('Add to list', 'creators.add:one')] })]),
  );

  it('is not a page without cards that have buttons, nor one card alone', () => {
    expect(renderForTerminal(reply([text('Hello'), buttons(button('Run', 'plain.run:1'))])).page).toBeNull();
    expect(profile.page).toBeNull();
  });

  it('presses a word and a number on the card of that number of the newest page with such a button', () => {
    expect(tokens('details 1', profile, [newer, older])).toEqual([['creators.details:bdee', null]]);
    expect(tokens('add 2 to Spring', profile, [newer, older])).toEqual([['creators.add:beve', 'Spring']]);
  });

  it('says a card of the page has no such button rather than pressing another card’s', () => {
    expect(readTyped('details 2', profile, [newer, older])).toEqual({
      kind: 'error',
      message: 'Number 2 on that page has no "details".',
    });
  });

  it('presses an answer’s own button first when it is not a page', () => {
    expect(tokens('add 1 to Spring', profile, [newer, older])).toEqual([['creators.add:one', 'Spring']]);
  });

  it('keeps numbers and the answer’s own steps on the latest answer', () => {
    expect(tokens('1', profile, [newer, older])).toEqual([['creators.add:one', null]]);
    expect(readTyped('3', profile, [newer, older])).toEqual({
      kind: 'error',
      message: 'There is no [3] here.',
    });
  });

  it('goes on from the newest page with a next one', () => {
    expect(tokens('more', profile, [newer, older])).toEqual([['creators.page:b', null]]);
  });
});
