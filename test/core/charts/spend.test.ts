/** The team's daily spend as chart data: the top five people and "others", zero days, and the sparkline. */
import { describe, expect, it } from 'vitest';
import { lastDays, OTHERS, sparkline, spendByDay, TOP_PEOPLE } from '../../../src/core/charts/spend.js';

const DAYS = ['2025-03-01', '2025-03-02', '2025-03-03'];

describe('lastDays', () => {
  it('lists the days ending today, oldest first, across a month end', () => {
    expect(lastDays(new Date('2025-03-02T23:59:00Z'), 4)).toEqual([
      '2025-02-27',
      '2025-02-28',
      '2025-03-01',
      '2025-03-02',
    ]);
    expect(lastDays(new Date('2025-03-02T00:00:00Z'), 30)).toHaveLength(30);
  });
});

describe('spendByDay', () => {
  it('keeps the five who spent most, sums the rest as others, and fills days without spend', () => {
    const rows = [
      // Seven people; g and f spend least. a spends on two days.
      { day: '2025-03-01', userId: 'a', credits: 50 },
      { day: '2025-03-03', userId: 'a', credits: 20 },
      { day: '2025-03-01', userId: 'b', credits: 60 },
      { day: '2025-03-02', userId: 'c', credits: 40 },
      { day: '2025-03-03', userId: 'd', credits: 30 },
      { day: '2025-03-03', userId: 'e', credits: 25 },
      { day: '2025-03-01', userId: 'f', credits: 5 },
      { day: '2025-03-03', userId: 'g', credits: 7 },
      // Outside the days shown: ignored.
      { day: '2025-02-28', userId: 'z', credits: 999 },
    ];
    const data = spendByDay(rows, DAYS);
    expect(TOP_PEOPLE).toBe(5);
    expect(data.series.map((s) => s.key)).toEqual(['a', 'b', 'c', 'd', 'e', OTHERS]);
    expect(data.series[0]).toEqual({ key: 'a', values: [50, 0, 20], total: 70 });
    expect(data.series.at(-1)).toEqual({ key: OTHERS, values: [5, 0, 7], total: 12 });
    expect(data.totals).toEqual([115, 40, 82]);
    expect(data.total).toBe(237);
  });

  it('has no others series when five people or fewer spent, and breaks ties by user id', () => {
    const rows = [
      { day: '2025-03-02', userId: 'y', credits: 10 },
      { day: '2025-03-02', userId: 'x', credits: 10 },
    ];
    const data = spendByDay(rows, DAYS);
    expect(data.series.map((s) => s.key)).toEqual(['x', 'y']);
    expect(data.totals).toEqual([0, 20, 0]);
  });

  it('groups with a smaller top when asked, and is empty without spend', () => {
    const rows = [
      { day: '2025-03-01', userId: 'a', credits: 3 },
      { day: '2025-03-01', userId: 'b', credits: 2 },
      { day: '2025-03-01', userId: 'c', credits: 1 },
    ];
    expect(spendByDay(rows, DAYS, 1).series.map((s) => [s.key, s.total])).toEqual([
      ['a', 3],
      [OTHERS, 3],
    ]);
    expect(spendByDay([], DAYS)).toEqual({ days: DAYS, series: [], totals: [0, 0, 0], total: 0 });
  });
});

describe('sparkline', () => {
  it('draws zero as the lowest bar, the largest as the highest, and any spend above zero', () => {
    expect(sparkline([0, 1, 50, 100])).toBe('▁▂▅█');
    expect(sparkline([0, 0])).toBe('▁▁');
    expect(sparkline([])).toBe('');
  });
});
