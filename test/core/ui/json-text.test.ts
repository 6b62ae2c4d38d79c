import { describe, expect, it } from 'vitest';
import { formatJson } from '../../../src/core/ui/json-text.js';
import { CODE_BLOCK_MAX } from '../../../src/core/ui/limits.js';
import { EMOJI, HOSTILE, LONG_HOSTILE, unsafeChars } from './fixtures.js';

describe('formatJson', () => {
  it('renders scalars like JSON', () => {
    expect(formatJson(null)).toBe('null');
    expect(formatJson(undefined)).toBe('null');
    expect(formatJson(true)).toBe('true');
    expect(formatJson(42.5)).toBe('42.5');
    expect(formatJson('a"b')).toBe('"a\\"b"');
    expect(formatJson(12345678901234567890n)).toBe('12345678901234567890');
    expect(formatJson(new Date('2026-01-02T03:04:05Z'))).toBe('"2026-01-02T03:04:05.000Z"');
  });

  it('indents containers and inlines short scalar arrays', () => {
    const value = { data: [{ id: 'a1', title: 'Song', rank: 1, tags: [1, 2, 3] }], empty: {}, none: [] };
    const out = formatJson(value);
    expect(out).toBe(
      [
        '{',
        '  "data": [',
        '    {',
        '      "id": "a1",',
        '      "title": "Song",',
        '      "rank": 1,',
        '      "tags": [1, 2, 3]',
        '    }',
        '  ],',
        '  "empty": {},',
        '  "none": []',
        '}',
      ].join('\n'),
    );
  });

  it('is valid JSON for plain data within the bounds', () => {
    const value = { a: [1, 'two', null, { b: false }], c: { d: 'e' } };
    expect(JSON.parse(formatJson(value))).toEqual(value);
  });

  it('drops undefined members and marks functions', () => {
    expect(JSON.parse(formatJson({ a: undefined, b: 1, f: () => 1 }))).toEqual({ b: 1, f: '[function]' });
  });

  it('escapes newlines, controls and bidi overrides in strings and keys', () => {
    const out = formatJson({ [HOSTILE]: HOSTILE });
    expect(out.split('\n')).toHaveLength(3);
    expect(unsafeChars(out)).toEqual([]);
    expect(out).toContain('\\u202e');
    expect(out).toContain('\\n');
  });

  it('marks cycles but not shared references', () => {
    const shared = { x: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    const parsed = JSON.parse(formatJson(cyclic));
    expect(parsed).toEqual({ shared: { x: 1 }, again: { x: 1 }, self: '[circular]' });
  });

  it('collapses deep nesting', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 50; i++) deep = { next: deep };
    const out = formatJson(deep, { maxDepth: 3 });
    expect(out).toContain('"next": {…}');
    expect(out).not.toContain('bottom');
  });

  it('shows the first items of long containers and counts the rest', () => {
    const out = formatJson(
      Array.from({ length: 100 }, (_, i) => ({ i })),
      { maxItems: 3 },
    );
    expect(out).toContain('"i": 2');
    expect(out).not.toContain('"i": 3');
    expect(out).toContain('… 97 more');
    expect(
      formatJson(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i])), { maxItems: 2 }),
    ).toContain('… 28 more');
  });

  it('cuts long strings safely', () => {
    const out = formatJson(EMOJI.repeat(100), { maxStringChars: 25 });
    expect(out.length).toBeLessThanOrEqual(27);
    expect(out.endsWith('…"')).toBe(true);
  });

  it('stays within maxChars on huge input, cutting at a line end', () => {
    const huge = { rows: Array.from({ length: 10_000 }, (_, i) => ({ i, text: LONG_HOSTILE })) };
    const out = formatJson(huge, { maxItems: 10_000 });
    expect(out.length).toBeLessThanOrEqual(CODE_BLOCK_MAX);
    expect(out.endsWith('\n… (truncated)')).toBe(true);
    const small = formatJson(huge, { maxChars: 120 });
    expect(small.length).toBeLessThanOrEqual(120);
  });

  it('falls back to a grapheme-safe cut for one long line', () => {
    const out = formatJson(`${EMOJI}`.repeat(500), { maxChars: 40, maxStringChars: 10_000 });
    expect(out.length).toBeLessThanOrEqual(40);
    expect(out.endsWith('…')).toBe(true);
  });

  it('survives getters that throw and renders Map and Set', () => {
    const hostile = {
      get boom(): never {
        throw new Error('no');
      },
    };
    expect(formatJson({ ok: 1, bad: hostile })).toContain('"bad": "[unreadable]"');
    expect(
      JSON.parse(
        formatJson({
          m: new Map<unknown, unknown>([
            ['a', 1],
            [2, 'b'],
          ]),
          s: new Set([1, 2]),
        }),
      ),
    ).toEqual({ m: { a: 1, '2': 'b' }, s: [1, 2] });
  });
});
