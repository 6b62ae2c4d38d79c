import { describe, expect, it } from 'vitest';
import type { TextAction } from '../../../src/core/ui/index.js';
import { pressLines, readPress } from '../../../src/core/ui/press.js';

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

describe('follow-ups in words', () => {
  it('stand for the terse press lines', () => {
    expect(pressLines('details of the second')).toEqual(['details 2']);
    expect(pressLines('show me the details for the 3rd one')).toEqual(['details 3']);
    expect(pressLines('add the first three to Spring Launch')).toEqual([
      'add 1 to Spring Launch',
      'add 2 to Spring Launch',
      'add 3 to Spring Launch',
    ]);
    expect(pressLines('add 1, 3 and 5 to Spring')).toEqual([
      'add 1 to Spring',
      'add 3 to Spring',
      'add 5 to Spring',
    ]);
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
