/**
 * The team's daily spend as chart data: one series per person for the most spending people, the rest summed as
 * "others", over a run of UTC days with the days without spend at zero; and a sparkline of the daily totals.
 */
import type { DailySpend } from '../store/ledger.js';

/** How many people get a series of their own; everyone else is summed in OTHERS. */
export const TOP_PEOPLE = 5;

/** The key (and label) of the series that sums everyone outside the top people. */
export const OTHERS = 'others';

/** One stacked series: a person (their user id) or OTHERS, with credits per day in the order of `days`. */
export interface SpendSeries {
  readonly key: string;
  readonly values: readonly number[];
  readonly total: number;
}

/** Spend per day stacked by person: the days ("YYYY-MM-DD"), the series (top first, OTHERS last) and daily totals. */
export interface SpendByDay {
  readonly days: readonly string[];
  readonly series: readonly SpendSeries[];
  readonly totals: readonly number[];
  readonly total: number;
}

const DAY_MS = 86_400_000;

/** The `count` UTC days ending with the day of `now`, oldest first, as "YYYY-MM-DD". */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/**
 * Groups daily spend rows by person over `days`: the `top` people who spent most over those days (ties by user
 * id) get a series each, the others one OTHERS series (only when there are any). Rows outside `days` are ignored.
 */
export function spendByDay(
  rows: readonly DailySpend[],
  days: readonly string[],
  top = TOP_PEOPLE,
): SpendByDay {
  const index = new Map(days.map((day, i) => [day, i]));
  const perPerson = new Map<string, number[]>();
  for (const row of rows) {
    const at = index.get(row.day);
    if (at === undefined || row.credits === 0) continue;
    const values = perPerson.get(row.userId) ?? days.map(() => 0);
    values[at] = (values[at] ?? 0) + row.credits;
    perPerson.set(row.userId, values);
  }
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const ranked = [...perPerson.entries()]
    .map(([key, values]) => ({ key, values, total: sum(values) }))
    .sort((a, b) => b.total - a.total || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const series: SpendSeries[] = ranked.slice(0, top);
  const rest = ranked.slice(top);
  if (rest.length > 0) {
    const values = days.map((_, i) => sum(rest.map((person) => person.values[i] ?? 0)));
    series.push({ key: OTHERS, values, total: sum(values) });
  }
  const totals = days.map((_, i) => sum(series.map((s) => s.values[i] ?? 0)));
  return { days, series, totals, total: sum(totals) };
}

const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/** A one-line sparkline of `values` (▁ for zero, █ for the largest); a day with any spend shows at least ▂. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((value) => {
      if (max <= 0 || value <= 0) return BARS[0];
      const level = Math.max(1, Math.round((value / max) * (BARS.length - 1)));
      return BARS[level];
    })
    .join('');
}
