/**
 * Building blocks of the input schemas: lenient enumerations that send the contract spelling, bounded numbers,
 * dates, ISO weeks, URLs, and the conversion of zod issues into a ServiceInputError with short, human messages.
 */

import { z } from 'zod';
import { type InputIssue, ServiceInputError } from './errors.js';
import type { OperationName } from './operations.js';

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** Spelling-insensitive key: case, spaces, hyphens and underscores do not matter. */
const keyOf = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/** Describes allowed values briefly; long lists are summarized (the issue carries them all). */
export function describeAllowed(values: readonly string[]): string {
  if (values.length <= 12) return `must be one of: ${values.join(', ')}`;
  return `must be one of the ${values.length} allowed values, such as ${values.slice(0, 4).join(', ')}`;
}

const requiredOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : message;

/**
 * One value of an enumeration, matched regardless of case, spaces, hyphens and underscores (plus optional
 * aliases), and sent in the contract spelling.
 */
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  aliases: Readonly<Record<string, T[number]>> = {},
) {
  const lookup = new Map<string, T[number]>();
  for (const [alias, value] of Object.entries(aliases)) lookup.set(keyOf(alias), value);
  for (const value of values) lookup.set(keyOf(value), value);
  const message = describeAllowed(values);
  return z.string({ error: requiredOr(message) }).transform((raw, ctx): T[number] => {
    const hit = lookup.get(keyOf(raw));
    if (hit !== undefined) return hit;
    ctx.addIssue({ code: 'custom', message, params: { allowed: values }, input: raw });
    return z.NEVER;
  });
}

/** Several values of an enumeration, as a list or a comma-separated string; sent comma-joined. */
export function choices<const T extends readonly [string, ...string[]]>(
  values: T,
  aliases: Readonly<Record<string, T[number]>> = {},
) {
  const one = choice(values, aliases);
  return z
    .union([z.string(), z.array(z.string()).readonly()], {
      error: requiredOr('must be a value or a list of values'),
    })
    .transform((raw, ctx): T[number][] => {
      const parts = splitList(raw);
      const out: T[number][] = [];
      const unknown: string[] = [];
      for (const part of parts) {
        const parsed = one.safeParse(part);
        if (parsed.success) out.push(parsed.data);
        else unknown.push(part);
      }
      if (unknown.length > 0) {
        const message = `has unknown value${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}: ${describeAllowed(values)}`;
        ctx.addIssue({ code: 'custom', message, params: { allowed: values }, input: raw });
        return z.NEVER;
      }
      if (out.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'must name at least one value', input: raw });
        return z.NEVER;
      }
      return [...new Set(out)];
    });
}

function splitList(raw: string | readonly string[]): string[] {
  const items = typeof raw === 'string' ? raw.split(',') : raw;
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** Free-text values as a list or a comma-separated string. */
export function textList() {
  return z
    .union([z.string(), z.array(z.string()).readonly()], {
      error: requiredOr('must be text or a list of text'),
    })
    .transform((raw, ctx): string[] => {
      const items = splitList(raw);
      if (items.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'must name at least one value', input: raw });
        return z.NEVER;
      }
      return items;
    });
}

/** Non-empty text, trimmed. */
export const text = () => z.string().trim().min(1, 'must not be empty');

const toNumber = (value: number | string): unknown =>
  typeof value === 'string' && NUMERIC.test(value) ? Number(value) : value;

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  if (min !== undefined) return `of at least ${min}`;
  if (max !== undefined) return `of at most ${max}`;
  return '';
}

/** A whole number within bounds; numeric strings are accepted. */
export function wholeNumber(min?: number, max?: number) {
  const message = `must be a whole number ${rangeText(min, max)}`.trim();
  let schema = z.number({ error: requiredOr(message) }).int(message);
  if (min !== undefined) schema = schema.min(min, message);
  if (max !== undefined) schema = schema.max(max, message);
  return z.preprocess(toNumber, schema);
}

/** A finite number within bounds; numeric strings are accepted. */
export function decimal(min?: number, max?: number) {
  const message = `must be a number ${rangeText(min, max)}`.trim();
  let schema = z.number({ error: requiredOr(message) });
  if (min !== undefined) schema = schema.min(min, message);
  if (max !== undefined) schema = schema.max(max, message);
  return z.preprocess(toNumber, schema);
}

/** A boolean; `true`/`false` strings are accepted. */
export const flag = () =>
  z.preprocess(
    (value: boolean | 'true' | 'false'): unknown =>
      value === 'true' ? true : value === 'false' ? false : value,
    z.boolean({ error: requiredOr('must be true or false') }),
  );

const isRealDate = (value: string) => {
  const [y, m, d] = value.split('-').map(Number);
  if (y === undefined || m === undefined || d === undefined) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/** A real calendar date written `YYYY-MM-DD`. */
export const isoDate = () =>
  z
    .string({ error: requiredOr('must be a date written YYYY-MM-DD') })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
    .refine(isRealDate, 'must be a real calendar date (YYYY-MM-DD)');

/** ISO weeks in a year: 53 when 1 January is a Thursday, or a Wednesday in a leap year. */
function weeksInYear(year: number): number {
  const jan1 = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return jan1 === 4 || (leap && jan1 === 3) ? 53 : 52;
}

/** An ISO week written `YYYY-Www` (W01 to W52, or W53 in long years); sent upper-case. */
export const isoWeek = () =>
  z
    .string({ error: requiredOr('must be an ISO week such as 2026-W04') })
    .trim()
    .regex(/^\d{4}-[Ww]\d{2}$/, 'must be an ISO week such as 2026-W04')
    .transform((value) => value.toUpperCase())
    .refine((value) => {
      const year = Number(value.slice(0, 4));
      const week = Number(value.slice(6));
      return week >= 1 && week <= weeksInYear(year);
    }, 'must be a week that exists in that year (W01 to W52, W53 only in long years)');

/** An absolute http or https URL. */
export const httpUrl = () =>
  z.url({
    protocol: /^https?$/,
    error: requiredOr('must be an http(s) URL such as https://example.com/a.jpg'),
  });

/**
 * The public http(s) URL of a video. The contract names the files it takes (MP4, MOV, AVI, WebM), but a link need
 * not end in their extension (`https://host/download?id=5`): what it serves is for the service to judge.
 */
export const videoUrl = () => {
  const message = 'must be an http(s) URL such as https://example.com/clip.mp4';
  return z
    .url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: requiredOr(message), abort: true })
    .regex(/^\S+$/, message);
};

/** An email address. */
export const email = () => z.email({ error: requiredOr('must be an email address') });

/** Checks `min <= max` for each pair of bounds present in `value`. */
export function checkRanges(
  value: Readonly<Record<string, unknown>>,
  ctx: z.RefinementCtx,
  pairs: ReadonlyArray<readonly [string, string]>,
): void {
  for (const [lowKey, highKey] of pairs) {
    const low = value[lowKey];
    const high = value[highKey];
    if (typeof low === 'number' && typeof high === 'number' && low > high) {
      ctx.addIssue({ code: 'custom', path: [highKey], message: `must not be less than ${lowKey} (${low})` });
    } else if (typeof low === 'string' && typeof high === 'string' && low > high) {
      ctx.addIssue({ code: 'custom', path: [highKey], message: `must not be before ${lowKey} (${low})` });
    }
  }
}

/** Every `xMin`/`xMax` pair among the keys of an object shape. */
export function minMaxPairs(keys: readonly string[]): Array<readonly [string, string]> {
  return keys
    .filter((key) => key.endsWith('Min') && keys.includes(`${key.slice(0, -3)}Max`))
    .map((key) => [key, `${key.slice(0, -3)}Max`] as const);
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function sizeMessage(kind: 'least' | 'most', origin: string, limit: number | bigint): string {
  const n = Number(limit);
  if (origin === 'array' || origin === 'set') return `must have at ${kind} ${n} item${n === 1 ? '' : 's'}`;
  if (origin === 'string') {
    return kind === 'least' && n === 1 ? 'must not be empty' : `must have at ${kind} ${n} characters`;
  }
  return `must be at ${kind} ${n}`;
}

/** Messages for zod's own issues, where the schema did not set one. */
export const errorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return sizeMessage('least', issue.origin, issue.minimum);
    case 'too_big':
      return sizeMessage('most', issue.origin, issue.maximum);
    case 'invalid_format':
      return issue.format === 'email' ? 'must be an email address' : 'has the wrong format';
    case 'invalid_value':
      return describeAllowed(issue.values.map(String));
    case 'invalid_union':
      return 'is not valid';
    default:
      return undefined;
  }
};

function toIssues(error: z.ZodError): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ field: base ? `${base}.${key}` : key, message: 'is not a known field' });
      }
      continue;
    }
    const allowed =
      issue.code === 'invalid_value'
        ? issue.values.map(String)
        : issue.code === 'custom' && Array.isArray(issue.params?.allowed)
          ? (issue.params.allowed as string[])
          : undefined;
    issues.push({ field: base, message: issue.message, ...(allowed ? { allowed } : {}) });
  }
  return issues;
}

/** Validates an input before anything is sent; throws ServiceInputError naming each bad field. */
export function parseInput<S extends z.ZodType>(
  operation: OperationName,
  schema: S,
  input: unknown,
): z.output<S> {
  const parsed = schema.safeParse(input, { error: errorMap });
  if (!parsed.success) throw new ServiceInputError(operation, toIssues(parsed.error));
  return parsed.data;
}

/** One id: text, or a whole number sent as text. */
export const idValue = () =>
  z.union([z.string().trim().min(1, 'must not be empty'), z.number().int().nonnegative().transform(String)], {
    error: requiredOr('must be an id (text or a whole number)'),
  });

/** A list of ids with at least `min` and at most `max` entries. */
export function idList(min = 1, max?: number) {
  const counted = max === undefined ? `at least ${min === 1 ? 'one' : min}` : `from ${min} to ${max}`;
  const message = `must hold ${counted} id${max === undefined && min === 1 ? '' : 's'}`;
  let list = z.array(idValue(), { error: requiredOr('must be a list of ids') }).min(min, message);
  if (max !== undefined) list = list.max(max, message);
  return list.readonly().transform((ids): string[] => [...ids]);
}
