/**
 * Dates as people say them ("last week", "since Monday", "this month", "past 30 days", "today"), read with
 * chrono-node against the interpreter's clock and written as the calendar day (YYYY-MM-DD) in its time zone,
 * the form date options take. The start of a period is in the past: "since Monday" is the last Monday.
 */
import * as chrono from 'chrono-node';
import type { Word } from './text.js';

/** A date found in a sentence: the words it spans, and whether it starts or ends a period. */
export interface DateSpan {
  start: number;
  end: number;
  /** YYYY-MM-DD. */
  day: string;
  /** "until March 3", "before Monday": the end of the period; otherwise its start. */
  until: boolean;
}

/** A date is looked for only in sentences that have a word such as these (chrono is not cheap on long text). */
const DATE_WORD =
  /^(today|yesterday|tonight|week|weeks|month|months|year|years|day|days|ago|since|until|till|before|after|last|past|recent|monday|tuesday|wednesday|thursday|friday|saturday|sunday|jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|\d{4}-\d{2}-\d{2})$/;

/** Longest text handed to chrono. */
const DATE_TEXT_MAX = 300;

const UNTIL = /^(until|till|til|before|through|to)$/;

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/**
 * The start of a period looks back: a weekday or a month said alone ("since Monday", "from March") is the last
 * one, not the next, when chrono puts it after today ("next Monday" stays where it is).
 */
function lookingBack(result: chrono.ParsedResult, now: Date, timeZone: string): Date {
  const date = result.start.date();
  if (/\b(next|coming)\b/i.test(result.text)) return date;
  const today = dayIn(now, timeZone);
  const known = (unit: chrono.Component) => result.start.isCertain(unit);
  if (known('weekday') && !known('day') && !known('month')) {
    while (dayIn(date, timeZone) > today) date.setUTCDate(date.getUTCDate() - 7);
  } else if (known('month') && !known('year')) {
    while (dayIn(date, timeZone) > today) date.setUTCFullYear(date.getUTCFullYear() - 1);
  }
  return date;
}

/** The date spans of a sentence's words. */
export function findDates(words: readonly Word[], now: Date, timeZone: string): DateSpan[] {
  if (!words.some((word) => DATE_WORD.test(word.lower))) return [];
  // The words joined by single spaces, with where each starts, so chrono's matches map back to words.
  const starts: number[] = [];
  let text = '';
  for (const word of words) {
    if (text.length > DATE_TEXT_MAX) break;
    if (text !== '') text += ' ';
    starts.push(text.length);
    text += word.text;
  }
  const spans: DateSpan[] = [];
  for (const result of chrono.parse(text, now, { forwardDate: false })) {
    const first = starts.findIndex((at) => at >= result.index);
    const endAt = result.index + result.text.length;
    let end = starts.findIndex((at) => at >= endAt);
    if (end < 0) end = starts.length;
    if (first < 0 || end <= first) continue;
    // A bare number or a lone word chrono reads as a date ("5", "may") is not one here.
    // A time of day alone ("at 09:00") is a digest's time, not a date.
    if (/^(at\s+)?\d{1,2}(:\d{2})?\s*(am|pm|h)?$/i.test(result.text.trim())) continue;
    const before = words[first - 1];
    const lead =
      before !== undefined && /^(since|from|after|until|till|til|before|through)$/.test(before.lower);
    // "may" and "march" are words too: a month only after "since", "from", "until" and the like.
    const bare = /^(may|march|sat|sun|second|now)$/i.test(result.text.trim());
    if (!/[a-z]/i.test(result.text) || (bare && !(lead && /^(may|march)$/i.test(result.text.trim()))))
      continue;
    const until = before !== undefined && UNTIL.test(before.lower);
    spans.push({
      start: lead ? first - 1 : first,
      end,
      day: dayIn(until ? result.start.date() : lookingBack(result, now, timeZone), timeZone),
      until,
    });
  }
  return spans;
}
