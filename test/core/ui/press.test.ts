import { describe, expect, it } from 'vitest';
import type { TextAction } from '../../../src/core/ui/index.js';
import {
  isNumberedPress,
  pressEvent,
  pressLines,
  readPress,
  readPresses,
} from '../../../src/core/ui/press.js';

const actions: TextAction[] = [
  { index: 1, actionId: 'a.add1', label: 'Add to list', kind: 'button' },
  { index: 2, actionId: 'a.det1', label: 'Details', kind: 'button' },
  { index: 3, actionId: 'a.add2', label: 'Add to list', kind: 'button' },
  { index: 4, actionId: 'a.det2', label: 'Details', kind: 'button' },
  { index: 5, actionId: 'a.prev', label: 'Previous', kind: 'button' },
  { index: 6, actionId: 'a.next', label: 'Next', kind: 'button' },
  {
    index: 7,
    actionId: 'a.pick',
    label: 'Choose a list',
    kind: 'select',
    options: [
      { label: 'Spring', value: 'L1' },
      { label: 'Summer', value: 'L2' },
    ],
  },
  { index: 8, actionId: 'a.ok', label: 'Confirm (25 credits)', kind: 'button' },
];

describe('readPress', () => {
  it('presses by number, and select options as n.m', () => {
    expect(readPress('3', actions)).toEqual({ kind: 'press', press: { actionId: 'a.add2' } });
    expect(readPress('press 2', actions)).toEqual({ kind: 'press', press: { actionId: 'a.det1' } });
    expect(readPress('7.2', actions)).toEqual({ kind: 'press', press: { actionId: 'a.pick', value: 'L2' } });
    expect(readPress('7', actions)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('7.1 to 7.2'),
    });
    expect(readPress('7.9', actions).kind).toBe('error');
    expect(readPress('42', actions)).toEqual({ kind: 'error', message: 'There is no [42] here.' });
  });

  it('presses by words', () => {
    expect(readPress('next', actions)).toEqual({ kind: 'press', press: { actionId: 'a.next' } });
    expect(readPress('Back', actions)).toEqual({ kind: 'press', press: { actionId: 'a.prev' } });
    expect(readPress('confirm', actions)).toEqual({ kind: 'press', press: { actionId: 'a.ok' } });
    expect(readPress('add 2 to Spring Launch', actions)).toEqual({
      kind: 'press',
      press: { actionId: 'a.add2', value: 'Spring Launch' },
    });
    expect(readPress('add 2 to "Spring Launch"', actions)).toEqual({
      kind: 'press',
      press: { actionId: 'a.add2', value: 'Spring Launch' },
    });
    expect(readPress('details 1', actions)).toEqual({ kind: 'press', press: { actionId: 'a.det1' } });
    expect(readPress('details 3', actions).kind).toBe('error');
  });

  it('leaves commands alone', () => {
    expect(readPress('creators search niche:yoga', actions)).toEqual({ kind: 'not-a-press' });
    expect(readPress('cancel', actions)).toEqual({ kind: 'not-a-press' });
    expect(readPress('3', [])).toEqual({ kind: 'not-a-press' });
  });
});

/** A result page: two cards' buttons, the page's bulk buttons and its multi-select of creators. */
const page: TextAction[] = [
  { index: 1, actionId: 'p.add1', label: 'Add to list', kind: 'button' },
  { index: 2, actionId: 'p.det1', label: 'Details', kind: 'button' },
  { index: 3, actionId: 'p.add2', label: 'Add to list', kind: 'button' },
  { index: 4, actionId: 'p.det2', label: 'Details', kind: 'button' },
  { index: 5, actionId: 'p.add3', label: 'Add to list', kind: 'button' },
  { index: 6, actionId: 'p.page', label: 'Add all on this page', kind: 'button' },
  { index: 7, actionId: 'p.all', label: 'Add all 40 results', kind: 'button' },
  {
    index: 8,
    actionId: 'p.choose',
    label: 'Choose creators to add…',
    kind: 'select',
    options: [
      { label: '@ana · Ana', value: 'u1' },
      { label: '@bo · Bo', value: 'u2' },
      { label: '@cy · Cy', value: 'u3' },
    ],
  },
];

describe('several creators at once', () => {
  it('presses the multi-select once with every creator named, whatever the spelling', () => {
    const chosen = (choices: string[], value?: string) => ({
      kind: 'press',
      press: { actionId: 'p.choose', choices, ...(value === undefined ? {} : { value }) },
    });
    expect(readPress('add 1,3 to Spring Launch', page)).toEqual(chosen(['u1', 'u3'], 'Spring Launch'));
    expect(readPress('add 1 , 3 to "Spring Launch"', page)).toEqual(chosen(['u1', 'u3'], 'Spring Launch'));
    expect(readPress('add 1-3 to Spring', page)).toEqual(chosen(['u1', 'u2', 'u3'], 'Spring'));
    expect(readPress('add 3,1,3 Spring', page)).toEqual(chosen(['u3', 'u1'], 'Spring'));
    expect(readPress('add 2-3', page)).toEqual(chosen(['u2', 'u3']));
    expect(readPress('8.1,8.3', page)).toEqual(chosen(['u1', 'u3']));
    // One number is still the card's own button.
    expect(readPress('add 2 to Spring', page)).toEqual({
      kind: 'press',
      press: { actionId: 'p.add2', value: 'Spring' },
    });
  });

  it('names the mistake in numbers no page has', () => {
    expect(readPress('add -1 to Spring', page)).toEqual({
      kind: 'error',
      message: 'There is no "add" number -1 here (1-3).',
    });
    expect(readPress('add 0,2 to Spring', page)).toEqual({
      kind: 'error',
      message: 'There is no "add" number 0 here (1-3).',
    });
    expect(readPress('add 3-1 to Spring', page)).toEqual({
      kind: 'error',
      message: '3-1 counts down: write 1-3.',
    });
    expect(readPress('add 1,4 to Spring', page)).toMatchObject({
      message: 'There is no "add" number 4 here (1-3).',
    });
    expect(readPress('add 1-9 to Spring', page)).toMatchObject({
      message: 'There is no "add" number 9 here (1-3).',
    });
    expect(readPress('8.1,8.7', page)).toMatchObject({ kind: 'error', message: '[8] has options 1 to 3.' });
    expect(readPress('8.1,7.1', page).kind).toBe('error');
    expect(readPress('6.1,6.2', page)).toMatchObject({
      kind: 'error',
      message: '[6] is a button: press it as 6.',
    });
  });

  it('without a multi-select, presses each card’s button', () => {
    expect(readPress('add 1,2 to Spring', actions)).toEqual({
      kind: 'presses',
      presses: [
        { actionId: 'a.add1', value: 'Spring' },
        { actionId: 'a.add2', value: 'Spring' },
      ],
    });
    expect(readPresses('add 1 and 2 to Spring', actions)).toEqual({
      kind: 'presses',
      presses: [
        { actionId: 'a.add1', value: 'Spring' },
        { actionId: 'a.add2', value: 'Spring' },
      ],
    });
  });

  it('tells Add all on this page from Add all N results', () => {
    expect(readPress('add all to Spring', page)).toEqual({
      kind: 'press',
      press: { actionId: 'p.page', value: 'Spring' },
    });
    for (const line of [
      'add all results to Spring',
      'add all 40 results to Spring',
      'add the first 40 results Spring',
    ]) {
      expect(readPress(line, page)).toEqual({ kind: 'press', press: { actionId: 'p.all', value: 'Spring' } });
    }
    // Where every result is on the page, all results are the page's.
    const onlyPage = page.filter((a) => a.actionId !== 'p.all');
    expect(readPress('add all results', onlyPage)).toEqual({ kind: 'press', press: { actionId: 'p.page' } });
  });

  it('knows lines that only add cards by number, whatever the page', () => {
    for (const line of [
      'add 1,3 to Spring',
      'add 2-4',
      'add all results to Spring',
      'add the first 20 results',
    ]) {
      expect(isNumberedPress(line)).toBe(true);
    }
    for (const line of [
      'add 2 to Spring',
      'credits 1,000',
      'creators followers:1-3',
      'add tiktok_1 to Spring',
    ]) {
      expect(isNumberedPress(line)).toBe(false);
    }
  });

  it('gives an element the choices with the value', () => {
    expect(pressEvent({ actionId: 'x', choices: ['u1'], value: 'Spring' })).toEqual({
      value: 'Spring',
      choices: ['u1'],
    });
    expect(pressEvent({ actionId: 'x' })).toEqual({});
  });
});

describe('follow-ups in words', () => {
  it('stand for the terse press lines', () => {
    expect(pressLines('details of the second')).toEqual(['details 2']);
    expect(pressLines('show me the details for the 3rd one')).toEqual(['details 3']);
    // Several creators are one line, pressed at once: one request adds them all.
    expect(pressLines('add the first three to Spring Launch')).toEqual(['add 1-3 to Spring Launch']);
    expect(pressLines('add the first one to Spring')).toEqual(['add 1 to Spring']);
    expect(pressLines('add 1, 3 and 5 to Spring')).toEqual(['add 1,3,5 to Spring']);
    expect(pressLines('add 1 and 3 to Spring')).toEqual(['add 1,3 to Spring']);
    expect(pressLines('add 1-2 and 4 to Spring')).toEqual(['add 1-2,4 to Spring']);
    expect(pressLines('add the second and the fourth')).toEqual(['add 2,4']);
    expect(pressLines('add 1-3 to Spring')).toEqual(['add 1-3 to Spring']);
    expect(pressLines('add the second to Spring')).toEqual(['add 2 to Spring']);
    expect(pressLines('show more')).toEqual(['next']);
    expect(pressLines('more.')).toEqual(['next']);
    expect(pressLines('add banana and kiwi to Spring')).toEqual(['add banana and kiwi to Spring']);
    expect(pressLines('find fitness creators')).toEqual(['find fitness creators']);
  });

  it('reads a long run of letters at once: no pattern backtracks over it', () => {
    // Read with the earlier pattern, this line took minutes of CPU, doubling with every 'aand'.
    const line = `add ${'aand'.repeat(40)}!`;
    expect(pressLines(line)).toEqual([line.replace(/!$/, '')]);
    const longer = `add ${'aand, '.repeat(300)} to Spring`;
    expect(pressLines(longer)).toEqual([longer.trim()]);
  });
});
