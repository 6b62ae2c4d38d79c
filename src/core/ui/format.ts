/**
 * Formatting helpers shared by every renderer: text hygiene and truncation, compact numbers, percentages,
 * dates and relative ages, safe URLs. All pure; time is always passed in.
 */

/** Shown wherever a value is missing. */
export const MISSING = '—';

/** The ellipsis appended by `truncate`. */
export const ELLIPSIS = '…';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** True for C0/C1 controls (but newline) and bidi overrides, which corrupt terminals or spoof text. */
function isUnsafeCodeUnit(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Normalizes line breaks and tabs, then drops control and bidi-override characters; keeps newlines. */
export function cleanText(text: string): string {
  const normalized = text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, ' ');
  let out = '';
  let start = 0;
  for (let i = 0; i < normalized.length; i++) {
    if (isUnsafeCodeUnit(normalized.charCodeAt(i))) {
      out += normalized.slice(start, i);
      start = i + 1;
    }
  }
  return start === 0 ? normalized : out + normalized.slice(start);
}

/** Cleans text and folds every run of whitespace (newlines included) into one space, trimmed. */
export function singleLine(text: string): string {
  return cleanText(text).replace(/\s+/g, ' ').trim();
}

/**
 * Shortens text to at most `max` UTF-16 code units, ending with an ellipsis when cut. Cuts only between
 * grapheme clusters, so surrogate pairs, emoji sequences, flags and combining marks stay whole.
 */
export function truncate(text: string, max: number, ellipsis: string = ELLIPSIS): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const budget = max - ellipsis.length;
  if (budget <= 0) return ellipsis.length <= max ? ellipsis : '';
  // Grapheme rules look one code point ahead, so a short window decides every boundary up to the budget
  // and keeps the cost independent of the text's length.
  let end = 0;
  for (const { segment } of graphemes.segment(text.slice(0, budget + 4))) {
    if (end + segment.length > budget) break;
    end += segment.length;
  }
  return text.slice(0, end).trimEnd() + ellipsis;
}

/** A single-line, cleaned, truncated string, or null when nothing printable remains. */
export function shortText(value: string | null | undefined, max: number): string | null {
  if (typeof value !== 'string') return null;
  // Long input is cleaned in growing windows, so a megabyte caption costs about as much as its first lines;
  // the margin past `max` lets truncate see the code point after its cut.
  let window = max * 2 + 64;
  for (;;) {
    const whole = window >= value.length;
    const line = singleLine(whole ? value : value.slice(0, window));
    if (whole || line.length > max + 4) return line === '' ? null : truncate(line, max);
    window *= 4;
  }
}

/** A finite number or null: service data may carry null, NaN or nothing. */
export function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

const COMPACT_UNITS = [
  { size: 1e3, suffix: 'K' },
  { size: 1e6, suffix: 'M' },
  { size: 1e9, suffix: 'B' },
  { size: 1e12, suffix: 'T' },
] as const;

/** Compact count: 999 -> "999", 1234 -> "1.2K", 1_250_000 -> "1.3M", 999_999 -> "1M" (halves round up). */
export function compactNumber(value: number): string {
  if (!Number.isFinite(value)) return MISSING;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (Math.round(abs) < 1000) return sign + String(Math.round(abs));
  let index = 0;
  while (index < COMPACT_UNITS.length - 1 && abs >= (COMPACT_UNITS[index + 1]?.size ?? Infinity)) index++;
  for (; index < COMPACT_UNITS.length; index++) {
    const unit = COMPACT_UNITS[index];
    if (unit === undefined) break;
    // Rounding whole tenths of the unit avoids binary-float surprises (1.15M must not read 1.1M).
    const tenths = Math.round(abs / (unit.size / 10));
    if (tenths < 1000) return sign + stripZeros((tenths / 10).toFixed(1)) + unit.suffix;
    const whole = Math.round(abs / unit.size);
    // 999_999 rounds to 1000K: show it as 1M instead.
    if (whole < 1000 || index === COMPACT_UNITS.length - 1) return sign + String(whole) + unit.suffix;
  }
  return sign + String(Math.round(abs));
}

/** A count in compact form ("1.2K"), or a dash when it is missing. */
export function formatCount(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? compactNumber(value) : MISSING;
}

/** Removes a trailing ".0" style fraction. */
function stripZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const amountFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Full count with thousands separators: 1234567 -> "1,234,567". */
export function formatInteger(value: number): string {
  return Number.isFinite(value) ? integerFormat.format(value) : MISSING;
}

/** Amount such as a rate or budget, up to two decimals: 1500.5 -> "1,500.5" (the currency is not known). */
export function formatAmount(value: number): string {
  return Number.isFinite(value) ? amountFormat.format(value) : MISSING;
}

/**
 * Converts an engagement rate as profiles carry it (a fraction: 0.034) into a percentage (3.4).
 * Creator search filters take percentages, profiles return fractions: always convert through here.
 */
export function engagementPercent(fraction: number | null | undefined): number | null {
  const value = finiteOrNull(fraction);
  // Rounded to 4 decimals so 0.034 * 100 reads 3.4, not 3.4000000000000004.
  return value === null ? null : Math.round(value * 1_000_000) / 10_000;
}

/** Percentage for display: 3.4 -> "3.4%", 12 -> "12%", 0.05 -> "0.05%". */
export function formatPercent(percent: number): string {
  if (!Number.isFinite(percent)) return MISSING;
  const digits = Math.abs(percent) < 1 ? 2 : 1;
  return `${stripZeros(percent.toFixed(digits))}%`;
}

/** Any instant the model accepts: a Date, epoch milliseconds, or an ISO 8601 string. */
export type Instant = Date | number | string;

/**
 * Epoch milliseconds of an instant, or null when it is missing or invalid. ISO strings without a zone
 * designator (the CRM's `date_created`) are read as UTC rather than as the host's local time.
 */
export function toEpochMs(value: Instant | null | undefined): number | null {
  if (value instanceof Date) return finiteOrNull(value.getTime());
  if (typeof value === 'number') return finiteOrNull(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const zoneless = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed);
  return finiteOrNull(Date.parse(zoneless ? `${trimmed.replace(' ', 'T')}Z` : trimmed));
}

/** The instant as an ISO 8601 UTC string, or null. */
export function toIsoString(value: Instant | null | undefined): string | null {
  const ms = toEpochMs(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** The UTC calendar date of an instant, "2026-01-04", or null. */
export function formatDate(value: Instant | null | undefined): string | null {
  const iso = toIsoString(value);
  return iso === null ? null : iso.slice(0, 10);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Counts with their unit, singular when one: (1, 'day') -> "1 day", (2, 'day') -> "2 days". */
export function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** An amount of credits: "1 credit", "12 credits". */
export function formatCredits(amount: number): string {
  return plural(amount, 'credit');
}

/** What a call cost, as a sentence: "No credits spent.", "1 credit spent.", "5 credits spent." */
export function creditsSpent(amount: number): string {
  return amount === 0 ? 'No credits spent.' : `${formatCredits(amount)} spent.`;
}

/**
 * The one line that ends every answer that spent credits or showed what was paid for before: "5 credits",
 * "5 credits · 2 cached, free", "0 credits · 5 cached, free"; null when there is nothing to say.
 */
export function costLine(credits: number, cached: number): string | null {
  if (credits <= 0 && cached <= 0) return null;
  return cached > 0 ? `${formatCredits(credits)} · ${cached} cached, free` : formatCredits(credits);
}

/** A duration in words, rounded down to its largest unit: 2.5 days -> "2 days". */
export function formatDuration(ms: number): string {
  const span = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (span < MINUTE) return 'less than a minute';
  if (span < HOUR) return plural(Math.floor(span / MINUTE), 'minute');
  if (span < DAY) return plural(Math.floor(span / HOUR), 'hour');
  if (span < 30 * DAY) return plural(Math.floor(span / DAY), 'day');
  if (span < 365 * DAY) return plural(Math.floor(span / (30 * DAY)), 'month');
  return plural(Math.floor(span / (365 * DAY)), 'year');
}

/** Age of data fetched at `then`, seen at `now`: "2 days old"; a future `then` (clock skew) counts as new. */
export function formatAge(then: Instant | null | undefined, now: Date | number): string {
  const from = toEpochMs(then);
  const to = toEpochMs(now);
  if (from === null || to === null) return 'age unknown';
  return `${formatDuration(to - from)} old`;
}

/** Longer URLs are dropped, never cut: a cut URL points somewhere else. */
const URL_MAX = 2048;

/** The URL, normalized, when it is absolute http(s); else null (no javascript:, data: or relative paths). */
export function safeUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > URL_MAX) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href.length > URL_MAX ? null : url.href;
}
