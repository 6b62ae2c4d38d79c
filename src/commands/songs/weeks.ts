/**
 * Chart weeks as people read them: an ISO week (`2026-W47`) is named by its dates ("week of 16–22 Nov 2026"), a
 * week a person gives is read from its id or from any date in it ("2026-11-18", "18 Nov", "last week"), and a
 * list of weeks the service sent is read whatever its shape (plain ids, or objects with their dates).
 */
import * as chrono from 'chrono-node';

/** A chart week: its ISO id, and its first and last days (YYYY-MM-DD). */
export interface ChartWeek {
  readonly id: string;
  readonly start: string;
  readonly end: string;
}

const DAY_MS = 86_400_000;
const ISO_WEEK = /^(\d{4})-W(\d{2})$/i;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The ISO week (`YYYY-Www`) of a calendar day given as UTC midnight. */
function isoWeekOfDay(ms: number): string {
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  // The ISO year and week are those of the Thursday of the same Monday-to-Sunday week.
  const thursday = ms + (3 - weekday) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / DAY_MS / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The Monday (UTC midnight) that starts an ISO week id, or null when the id names no week. */
function weekStart(id: string): number | null {
  const match = ISO_WEEK.exec(id.trim());
  if (match === null) return null;
  const year = Number(match[1]);
  const week = Number(match[2]);
  const jan4 = Date.UTC(year, 0, 4);
  const start = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (week - 1) * 7 * DAY_MS;
  return week >= 1 && isoWeekOfDay(start) === `${year}-W${match[2]}` ? start : null;
}

/** The ISO id of a week written `YYYY-Www` (any case), or null when no such week exists. */
export function weekId(text: string): string | null {
  const id = text.trim().toUpperCase();
  return weekStart(id) === null ? null : id;
}

/** A week by its ISO id, Monday to Sunday; null when the id names no week. */
export function isoChartWeek(id: string): ChartWeek | null {
  const start = weekStart(id);
  return start === null
    ? null
    : { id: id.trim().toUpperCase(), start: dayText(start), end: dayText(start + 6 * DAY_MS) };
}

/** The ISO week just before a week id. */
export function weekBefore(id: string): string | null {
  const start = weekStart(id);
  return start === null ? null : isoWeekOfDay(start - 7 * DAY_MS);
}

const dayParts = (day: string) => {
  const [year = '', month = '', date = ''] = day.split('-');
  return { year, month: MONTHS[Number(month) - 1] ?? month, date: String(Number(date)) };
};

/** A week's dates in words: "16–22 Nov 2026", "30 Nov – 6 Dec 2026", "28 Dec 2026 – 3 Jan 2027". */
export function weekDates(week: ChartWeek): string {
  const a = dayParts(week.start);
  const b = dayParts(week.end);
  if (a.year !== b.year) return `${a.date} ${a.month} ${a.year} – ${b.date} ${b.month} ${b.year}`;
  if (a.month !== b.month) return `${a.date} ${a.month} – ${b.date} ${b.month} ${b.year}`;
  return `${a.date}–${b.date} ${b.month} ${b.year}`;
}

/** A week named in words: "week of 16–22 Nov 2026". */
export function weekName(week: ChartWeek): string {
  return `week of ${weekDates(week)}`;
}

/** A week id named in words, with its dates from `known` when listed there (the service's), else its ISO dates. */
export function nameOfWeek(id: string, known: readonly ChartWeek[] = []): string {
  const week = known.find((w) => w.id === id) ?? isoChartWeek(id);
  return week === null ? id : weekName(week);
}

/** What a week option accepts, for messages. */
export const WEEK_WORDS = 'a week such as 2026-W47, or a date in it such as 2026-11-18 or 18 Nov 2026';

/** Words around a date that still name its week: "week of", "the week of". */
const WEEK_LEAD = /^(the\s+)?week\s+(of\s+)?/i;

/** A calendar day as chrono reads it, looking back: a day or month said without a year is the last one. */
function spokenDay(text: string, now: Date): number | null {
  const said = text.replace(WEEK_LEAD, '').trim();
  const [found] = chrono.parse(said, now, { forwardDate: false });
  // The whole text is the date: "hello 18 Nov" or a bare number is no week.
  if (found === undefined || found.index !== 0 || found.text.length !== said.length) return null;
  const part = (unit: chrono.Component) => found.start.get(unit) ?? 0;
  let year = part('year');
  const month = part('month') - 1;
  const date = part('day');
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (!found.start.isCertain('year') && Date.UTC(year, month, date) > today) year -= 1;
  return Date.UTC(year, month, date);
}

/**
 * The ISO week a person means by `text`: a week id, or the week of a date written `YYYY-MM-DD` or in words
 * (read against `now`); null when it names neither.
 */
export function readWeek(text: string, now: Date): string | null {
  const trimmed = text.trim();
  if (ISO_WEEK.test(trimmed)) return weekId(trimmed);
  const day = ISO_DAY.exec(trimmed);
  if (day !== null) {
    const ms = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return dayText(ms) === trimmed ? isoWeekOfDay(ms) : null;
  }
  const spoken = spokenDay(trimmed, now);
  return spoken === null ? null : isoWeekOfDay(spoken);
}

const isDict = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A calendar day among an object's members whose names match `name`. */
function dayIn(item: Record<string, unknown>, name: RegExp): string | null {
  for (const [key, value] of Object.entries(item)) {
    if (!name.test(key) || typeof value !== 'string') continue;
    const day = value.trim().slice(0, 10);
    if (ISO_DAY.test(day)) return day;
  }
  return null;
}

/** One listed week: an id, or an object with a week id and perhaps its first and last days. */
function listedWeek(item: unknown): ChartWeek | null {
  if (typeof item === 'string') return isoChartWeek(item);
  if (!isDict(item)) return null;
  const start = dayIn(item, /start|from|first|begin/i);
  const end = dayIn(item, /end|to$|last|until/i);
  const named = Object.values(item).find((value) => typeof value === 'string' && weekId(value) !== null);
  const id =
    typeof named === 'string'
      ? weekId(named)
      : start === null
        ? null
        : isoWeekOfDay(Date.parse(`${start}T00:00:00Z`));
  const iso = id === null ? null : isoChartWeek(id);
  if (iso === null) return null;
  return start !== null && end !== null && start <= end ? { id: iso.id, start, end } : iso;
}

/** The weeks of a list the service sent, newest first, each once; empty when nothing in it reads as a week. */
export function weeksOf(list: readonly unknown[]): ChartWeek[] {
  const byId = new Map<string, ChartWeek>();
  for (const item of list) {
    const week = listedWeek(item);
    if (week !== null && !byId.has(week.id)) byId.set(week.id, week);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
