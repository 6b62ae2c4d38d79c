/** Strict readers of query strings and JSON bodies: each bad value fails with a message naming it. */
import { SandboxHttpError } from './http.js';

/** Bounds of a numeric input. */
export interface NumberBounds {
  min?: number;
  max?: number;
}

/** Typed access to a query string; every value read is recorded in `accepted` for the `params` echo. */
export interface QueryReader {
  /** Values read so far, by name, as parsed. */
  readonly accepted: Record<string, unknown>;
  /** A trimmed non-empty string under the first present name. */
  string(...names: string[]): string | undefined;
  /** An integer within bounds. */
  integer(name: string, bounds?: NumberBounds): number | undefined;
  /** A finite number within bounds. */
  number(name: string, bounds?: NumberBounds): number | undefined;
  /** `true`/`false` (also `1`/`0`). */
  boolean(name: string): boolean | undefined;
  /** A comma-separated list of trimmed non-empty values. */
  list(name: string): string[] | undefined;
  /** One value of an enumeration, matched case-insensitively and returned in its canonical spelling. */
  choice<T extends string>(name: string, values: readonly T[]): T | undefined;
  /** Fails when the query holds a name outside `allowed`. */
  rejectUnknown(allowed: readonly string[]): void;
}

/** Matches a value of an enumeration case-insensitively; undefined when it is not one. */
export function canonical<T extends string>(values: readonly T[], value: string): T | undefined {
  const lower = value.trim().toLowerCase();
  return values.find((v) => v.toLowerCase() === lower);
}

function parseNumber(
  raw: string,
  name: string,
  integer: boolean,
  bounds: NumberBounds,
  status: number,
): number {
  const value = Number(raw);
  const kind = integer ? 'an integer' : 'a number';
  const range =
    bounds.min !== undefined && bounds.max !== undefined
      ? ` between ${bounds.min} and ${bounds.max}`
      : bounds.min !== undefined
        ? ` of at least ${bounds.min}`
        : '';
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new SandboxHttpError(status, `${name} must be ${kind}${range}, got '${raw}'`);
  }
  if ((bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max)) {
    throw new SandboxHttpError(status, `${name} must be ${kind}${range}, got ${value}`);
  }
  return value;
}

/** Creates a reader over a query string; bad values fail with `status` (400 by default). */
export function createQueryReader(query: URLSearchParams, status = 400): QueryReader {
  const accepted: Record<string, unknown> = {};
  const raw = (name: string): string | undefined => {
    const value = query.get(name);
    return value === null || value.trim() === '' ? undefined : value.trim();
  };
  const record = <T>(name: string, value: T | undefined): T | undefined => {
    if (value !== undefined) accepted[name] = value;
    return value;
  };
  return {
    accepted,
    string: (...names) => {
      for (const name of names) {
        const value = raw(name);
        if (value !== undefined) return record(name, value);
      }
      return undefined;
    },
    integer: (name, bounds = {}) => {
      const value = raw(name);
      return record(name, value === undefined ? undefined : parseNumber(value, name, true, bounds, status));
    },
    number: (name, bounds = {}) => {
      const value = raw(name);
      return record(name, value === undefined ? undefined : parseNumber(value, name, false, bounds, status));
    },
    boolean: (name) => {
      const value = raw(name)?.toLowerCase();
      if (value === undefined) return undefined;
      if (value === 'true' || value === '1') return record(name, true);
      if (value === 'false' || value === '0') return record(name, false);
      throw new SandboxHttpError(status, `${name} must be true or false, got '${value}'`);
    },
    list: (name) => {
      const value = raw(name);
      if (value === undefined) return undefined;
      const items = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      return record(name, items.length > 0 ? items : undefined);
    },
    choice: (name, values) => {
      const value = raw(name);
      if (value === undefined) return undefined;
      const match = canonical(values, value);
      if (match === undefined) {
        throw new SandboxHttpError(status, `${name} must be one of ${values.join(', ')}; got '${value}'`);
      }
      return record(name, match);
    },
    rejectUnknown: (allowed) => {
      for (const name of new Set(query.keys())) {
        if (!allowed.includes(name)) {
          throw new SandboxHttpError(status, `Unknown query parameter '${name}'`);
        }
      }
    },
  };
}

/** Typed access to the members of a JSON object body; null and absent both read as undefined. */
export interface BodyReader {
  /** The object itself. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** A string member. */
  string(name: string): string | undefined;
  /** A finite number member within bounds. */
  number(name: string, bounds?: NumberBounds): number | undefined;
  /** An integer member within bounds. */
  integer(name: string, bounds?: NumberBounds): number | undefined;
  /** A boolean member. */
  boolean(name: string): boolean | undefined;
  /** An array of strings; an empty array reads as undefined. */
  strings(name: string): string[] | undefined;
  /** Fails when the body holds a member outside `allowed`. */
  rejectUnknown(allowed: readonly string[]): void;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Creates a reader over a parsed JSON body, which must be an object (an empty body reads as `{}`). */
export function createBodyReader(body: unknown, status = 400): BodyReader {
  if (body !== undefined && !isObject(body)) {
    throw new SandboxHttpError(status, 'The request body must be a JSON object');
  }
  const raw = body ?? {};
  const get = (name: string): unknown => (raw[name] === null ? undefined : raw[name]);
  const numeric = (name: string, integer: boolean, bounds: NumberBounds): number | undefined => {
    const value = get(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'number') {
      throw new SandboxHttpError(status, `${name} must be ${integer ? 'an integer' : 'a number'}`);
    }
    return parseNumber(String(value), name, integer, bounds, status);
  };
  return {
    raw,
    string: (name) => {
      const value = get(name);
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw new SandboxHttpError(status, `${name} must be a string`);
      return value;
    },
    number: (name, bounds = {}) => numeric(name, false, bounds),
    integer: (name, bounds = {}) => numeric(name, true, bounds),
    boolean: (name) => {
      const value = get(name);
      if (value === undefined) return undefined;
      if (typeof value !== 'boolean') throw new SandboxHttpError(status, `${name} must be true or false`);
      return value;
    },
    strings: (name) => {
      const value = get(name);
      if (value === undefined) return undefined;
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
        throw new SandboxHttpError(status, `${name} must be an array of strings`);
      }
      return value.length > 0 ? (value as string[]) : undefined;
    },
    rejectUnknown: (allowed) => {
      for (const name of Object.keys(raw)) {
        if (!allowed.includes(name)) throw new SandboxHttpError(status, `Unknown body field '${name}'`);
      }
    },
  };
}
