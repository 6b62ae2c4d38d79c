/** What the songs tests share: weeks as Scout names them, the sandbox asked directly, chart tables read back. */

import { type Harness, TEST_KEY } from '../../helpers/harness.js';
import { call } from '../../sandbox/fixture.js';

/** A week with its dates, as the sandbox lists them. */
export interface DateRange {
  week: string;
  start_date: string;
  end_date: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day as people write it: 2026-11-16 → 16 Nov 2026. */
export const dayWords = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]} ${year}`;
};

/** How Scout names a week: "week of 16–22 Nov 2026", "week of 26 Oct – 1 Nov 2026". */
export function weekWords(range: DateRange): string {
  const [a, b] = [dayWords(range.start_date).split(' '), dayWords(range.end_date).split(' ')];
  if (a[2] !== b[2]) return `week of ${a.join(' ')} – ${b.join(' ')}`;
  if (a[1] !== b[1]) return `week of ${a[0]} ${a[1]} – ${b.join(' ')}`;
  return `week of ${a[0]}–${b.join(' ')}`;
}

/** Asks the harness's sandbox directly (no ledger, no Scout): what the service holds. */
export async function direct<T>(harness: Harness, query: Record<string, string>): Promise<T> {
  const answer = await call<{ response: T }>(harness.sandbox.url, 'GET', '/api/v1/songs', {
    key: TEST_KEY,
    query,
  });
  return answer.json.response;
}

/** The rows of the chart tables shown, each as its cells. */
export const chartRows = (output: string) =>
  output
    .split('\n')
    .filter((line) => /^\s*(#\d+|out) {2}/.test(line))
    .map((line) => line.trim().split(/\s{2,}/));
