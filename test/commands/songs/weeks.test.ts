import { describe, expect, it } from 'vitest';
import {
  isoChartWeek,
  nameOfWeek,
  readWeek,
  weekBefore,
  weekName,
  weeksOf,
} from '../../../src/commands/songs/weeks.js';

const NOW = new Date('2026-11-28T12:00:00Z');

describe('chart weeks in words', () => {
  it('names a week by its dates, across a month and a year', () => {
    expect(nameOfWeek('2026-W47')).toBe('week of 16–22 Nov 2026');
    expect(nameOfWeek('2026-W49')).toBe('week of 30 Nov – 6 Dec 2026');
    expect(nameOfWeek('2026-W53')).toBe('week of 28 Dec 2026 – 3 Jan 2027');
    expect(nameOfWeek('2027-W01')).toBe('week of 4–10 Jan 2027');
  });

  it('knows which weeks exist', () => {
    expect(isoChartWeek('2025-W53')).toBeNull();
    expect(isoChartWeek('2026-W00')).toBeNull();
    expect(isoChartWeek('2026-w05')).toEqual({ id: '2026-W05', start: '2026-01-26', end: '2026-02-01' });
    expect(weekBefore('2027-W01')).toBe('2026-W53');
  });

  it('prefers the dates the service listed for a week', () => {
    const listed = [{ id: '2026-W47', start: '2026-11-13', end: '2026-11-19' }];
    expect(nameOfWeek('2026-W47', listed)).toBe('week of 13–19 Nov 2026');
    expect(nameOfWeek('2026-W46', listed)).toBe('week of 9–15 Nov 2026');
  });
});

describe('a week as a person gives it', () => {
  it.each([
    ['2026-w47', '2026-W47'],
    ['2026-11-18', '2026-W47'],
    ['2026-11-22', '2026-W47'],
    ['2026-11-23', '2026-W48'],
    ['18 Nov 2026', '2026-W47'],
    ['Nov 16', '2026-W47'],
    ['week of 16–22 Nov 2026', '2026-W47'],
    ['last week', '2026-W47'],
    // A day said without a year is the last one: December has not come yet.
    ['Dec 18', '2025-W51'],
    ['2027-01-01', '2026-W53'],
  ])('%s is %s', (text, week) => {
    expect(readWeek(text, NOW)).toBe(week);
  });

  it.each(['2026-W60', '2025-W53', '2026-02-30', 'banana', '12', 'hello 18 Nov', ''])(
    '%s names no week',
    (text) => {
      expect(readWeek(text, NOW)).toBeNull();
    },
  );
});

describe('a list of weeks the service sent', () => {
  it('reads ids and objects with dates, newest first, each once, skipping what is no week', () => {
    const weeks = weeksOf([
      '2026-W45',
      { week: '2026-W47', start_date: '2026-11-16', end_date: '2026-11-22' },
      { label: 'x', from: '2026-11-09', to: '2026-11-15' },
      { week: '2026-W47' },
      'not a week',
      42,
      null,
    ]);
    expect(weeks.map((week) => week.id)).toEqual(['2026-W47', '2026-W46', '2026-W45']);
    expect(weeks.map(weekName)).toEqual([
      'week of 16–22 Nov 2026',
      'week of 9–15 Nov 2026',
      'week of 2–8 Nov 2026',
    ]);
  });

  it('keeps ISO dates when the listed ones do not read as a range', () => {
    expect(weeksOf([{ week: '2026-W47', start_date: '2026-11-22', end_date: '2026-11-16' }])).toEqual([
      { id: '2026-W47', start: '2026-11-16', end: '2026-11-22' },
    ]);
  });
});
