/**
 * Building blocks of the response schemas: lenient scalars (numbers sent as strings, nulls), envelope unwrapping
 * and page normalization. Unknown fields are kept by the resource schemas (z.looseObject).
 */

import { z } from 'zod';
import type { Page } from './types.js';

const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/;

/** A number that may arrive as a numeric string; empty strings read as null. */
export const num = z
  .preprocess(
    (value: unknown): unknown =>
      typeof value === 'string'
        ? value.trim() === ''
          ? null
          : NUMERIC.test(value)
            ? Number(value)
            : value
        : value,
    z.number().nullable(),
  )
  .optional();

/** A boolean that may arrive as `true`/`false` strings or 0/1. */
export const bool = z
  .preprocess((value: unknown): unknown => {
    if (value === 'true' || value === 1) return true;
    if (value === 'false' || value === 0) return false;
    return value;
  }, z.boolean().nullable())
  .optional();

/** An identifier: numbers become strings. */
export const id = z.union([z.string(), z.number().transform(String)]);

/** Optional text; numbers become strings. */
export const str = z
  .union([z.string(), z.number().transform(String)])
  .nullable()
  .optional();

/** An optional list of strings. */
export const strList = z.array(id).nullable().optional();

/** An optional object with members the contract does not show. */
export const record = z.record(z.string(), z.unknown()).nullable().optional();

/** Checks a value is a plain object. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `response` member of the usual envelope, or the body itself when the service sent no envelope. */
export function unwrap(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new TypeError('the body is not a JSON object');
  return isRecord(body.response) ? body.response : body;
}

/** Pagination numbers as read from a body (any may be missing). */
export interface PageNumbers {
  page?: number | null | undefined;
  nextPage?: number | null | undefined;
  totalPages?: number | null | undefined;
  total?: number | null | undefined;
}

/**
 * Builds a Page: `nextPage` is null when the service says 0 or nothing further exists; when the service gives no
 * next page, it is derived from the page count.
 */
export function toPage<T>(items: T[], numbers: PageNumbers, requestedPage = 1): Page<T> {
  const page = numbers.page ?? requestedPage;
  const totalPages = numbers.totalPages ?? null;
  let nextPage: number | null;
  if (typeof numbers.nextPage === 'number') nextPage = numbers.nextPage > 0 ? numbers.nextPage : null;
  else if (totalPages !== null) nextPage = page < totalPages ? page + 1 : null;
  else nextPage = null;
  return { items, page, nextPage, totalPages, total: numbers.total ?? null };
}

/** Pagination members in the contract's snake_case. */
export const snakePage = {
  page: num,
  next_page: num,
  total_pages: num,
  total: num,
  per_page: num,
};

/** Reads snake_case pagination members. */
export const snakePageNumbers = (value: {
  page?: number | null | undefined;
  next_page?: number | null | undefined;
  total_pages?: number | null | undefined;
  total?: number | null | undefined;
}): PageNumbers => ({
  page: value.page,
  nextPage: value.next_page,
  totalPages: value.total_pages,
  total: value.total,
});
