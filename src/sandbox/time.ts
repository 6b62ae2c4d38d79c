/** Date helpers of the sandbox: ISO formats, ISO weeks, all in UTC. */

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** An ISO 8601 timestamp with the `Z` designator. */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}

/** An ISO 8601 timestamp without zone designator, as the CRM writes its dates. */
export function isoLocal(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}

/** A calendar date, `YYYY-MM-DD`. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Parses a strict `YYYY-MM-DD` into the UTC midnight it names, or undefined when it is not a real date. */
export function parseIsoDate(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return isoDate(ms) === text ? ms : undefined;
}

/** The ISO week (`YYYY-Www`) that contains the instant. */
export function isoWeekOf(ms: number): string {
  const day = new Date(ms);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const weekday = (day.getUTCDay() + 6) % 7;
  // The ISO year and week are those of the Thursday of the same Monday-to-Sunday week.
  const thursday = midnight + (3 - weekday) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / DAY_MS / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The Monday 00:00 UTC that starts an ISO week, or undefined when the text is not a valid `YYYY-Www`. */
export function isoWeekStart(week: string): number | undefined {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) return undefined;
  const year = Number(match[1]);
  const number = Number(match[2]);
  const jan4 = Date.UTC(year, 0, 4);
  const start = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (number - 1) * 7 * DAY_MS;
  return number >= 1 && isoWeekOf(start) === week ? start : undefined;
}
