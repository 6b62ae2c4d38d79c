/**
 * Readable text for any JSON-like value, for responses whose shape is not documented (most song actions).
 * Output looks like indented JSON; it stays readable and bounded whatever arrives: cycles, deep nesting,
 * huge arrays, long or hostile strings, getters that throw, bigint, Map and Set.
 */
import { truncate } from './format.js';
import { CODE_BLOCK_MAX } from './limits.js';

/** Bounds of `formatJson`. */
export interface JsonTextOptions {
  /** Longest output, in UTF-16 code units (default CODE_BLOCK_MAX). */
  readonly maxChars?: number;
  /** Nesting shown before a container collapses to `{…}` or `[…]` (default 6). */
  readonly maxDepth?: number;
  /** Entries shown per array or object before "… N more" (default 20). */
  readonly maxItems?: number;
  /** Longest string value or key shown (default 200). */
  readonly maxStringChars?: number;
}

interface Context {
  readonly maxDepth: number;
  readonly maxItems: number;
  readonly maxStringChars: number;
  readonly budget: number;
  readonly ancestors: Set<object>;
  spent: number;
}

const TRUNCATED_MARKER = '\n… (truncated)';
const INLINE_MAX = 60;

/** Renders any value as indented, JSON-like readable text of at most `maxChars` characters. */
export function formatJson(value: unknown, options: JsonTextOptions = {}): string {
  const maxChars = Math.max(1, options.maxChars ?? CODE_BLOCK_MAX);
  const ctx: Context = {
    maxDepth: Math.max(0, options.maxDepth ?? 6),
    maxItems: Math.max(1, options.maxItems ?? 20),
    maxStringChars: Math.max(1, options.maxStringChars ?? 200),
    budget: maxChars,
    ancestors: new Set(),
    spent: 0,
  };
  const out = render(value, '', 0, ctx);
  if (out.length <= maxChars) return out;
  // Cut at a line end so no value is half shown; one very long line falls back to a grapheme-safe cut.
  const cut = out.lastIndexOf('\n', maxChars - TRUNCATED_MARKER.length);
  return cut > 0 ? out.slice(0, cut) + TRUNCATED_MARKER : truncate(out, maxChars);
}

/** A quoted, escaped string; also escapes characters JSON leaves raw that could reorder or hide text. */
function quote(text: string, ctx: Context): string {
  const quoted = JSON.stringify(truncate(text, ctx.maxStringChars)).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  ctx.spent += quoted.length;
  return quoted;
}

/** A scalar rendered, or undefined for containers. */
function renderScalar(value: unknown, ctx: Context): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value, ctx);
    case 'number':
    case 'boolean':
    case 'bigint':
      ctx.spent += 8;
      return String(value);
    case 'undefined':
      return 'null';
    case 'function':
      return '"[function]"';
    case 'symbol':
      return quote(String(value), ctx);
    case 'object':
      if (value === null) return 'null';
      if (value instanceof Date)
        return Number.isNaN(value.getTime()) ? 'null' : quote(value.toISOString(), ctx);
      return undefined;
  }
}

/** Entries of a container: [key or null for array items, value]. */
function entriesOf(value: object): {
  readonly list: boolean;
  readonly entries: Array<[string | null, unknown]>;
} {
  if (Array.isArray(value))
    return { list: true, entries: value.map((item): [null, unknown] => [null, item]) };
  if (value instanceof Set)
    return { list: true, entries: [...value].map((item): [null, unknown] => [null, item]) };
  if (value instanceof Map) {
    return { list: false, entries: [...value].map(([k, v]): [string, unknown] => [String(k), v]) };
  }
  const record = value as Record<string, unknown>;
  const entries: Array<[string, unknown]> = [];
  for (const key of Object.keys(record)) {
    const item = record[key];
    // JSON drops undefined members; so do we.
    if (item !== undefined) entries.push([key, item]);
  }
  return { list: false, entries };
}

function render(value: unknown, indent: string, depth: number, ctx: Context): string {
  if (ctx.spent > ctx.budget) return '…';
  const scalar = renderScalar(value, ctx);
  if (scalar !== undefined) return scalar;
  const container = value as object;
  if (ctx.ancestors.has(container)) return '"[circular]"';
  let shape: ReturnType<typeof entriesOf>;
  try {
    shape = entriesOf(container);
  } catch {
    return '"[unreadable]"';
  }
  const [open, close] = shape.list ? ['[', ']'] : ['{', '}'];
  if (shape.entries.length === 0) return open + close;
  if (depth >= ctx.maxDepth) return `${open}…${close}`;
  ctx.ancestors.add(container);
  try {
    const inner = `${indent}  `;
    const parts: string[] = [];
    let allScalar = true;
    for (const [key, item] of shape.entries.slice(0, ctx.maxItems)) {
      if (ctx.spent > ctx.budget) {
        parts.push('…');
        break;
      }
      if (typeof item === 'object' && item !== null && !(item instanceof Date)) allScalar = false;
      const rendered = render(item, inner, depth + 1, ctx);
      parts.push(key === null ? rendered : `${quote(key, ctx)}: ${rendered}`);
    }
    const hidden = shape.entries.length - Math.min(shape.entries.length, ctx.maxItems);
    if (hidden > 0) parts.push(`… ${hidden} more`);
    const oneLine = `${open}${parts.join(', ')}${close}`;
    if (shape.list && allScalar && oneLine.length <= INLINE_MAX) return oneLine;
    return `${open}\n${parts.map((part) => inner + part).join(',\n')}\n${indent}${close}`;
  } finally {
    ctx.ancestors.delete(container);
  }
}
