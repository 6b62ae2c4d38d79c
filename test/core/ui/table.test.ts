/** Tables: the builder keeps to the limits every renderer shows; the text layout aligns columns. */
import { describe, expect, it } from 'vitest';
import { numberCell, renderText, reply, table, tableLines } from '../../../src/core/ui/index.js';
import { TABLE_CELL_MAX, TABLE_COLUMNS_MAX, TABLE_ROWS_MAX } from '../../../src/core/ui/limits.js';
import { EMOJI, LONG_HOSTILE, worstCaseTable } from './fixtures.js';

describe('table()', () => {
  it('caps rows, pads or cuts each row to the columns, and keeps cell text to one short line', () => {
    const built = worstCaseTable();
    expect(built.rows).toHaveLength(TABLE_ROWS_MAX);
    expect(built.columns).toHaveLength(TABLE_COLUMNS_MAX);
    for (const row of built.rows) {
      expect(row).toHaveLength(TABLE_COLUMNS_MAX);
      for (const cell of row) {
        expect(cell.text.length).toBeLessThanOrEqual(TABLE_CELL_MAX);
        expect(cell.text).not.toContain('\n');
      }
    }
    const ragged = table({
      caption: 'x',
      columns: [{ label: 'A' }, { label: 'B' }],
      rows: [['1'], ['1', '2', '3']],
    });
    expect(ragged.rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['1', ''],
      ['1', '2'],
    ]);
  });

  it('refuses a table with no column or more than it can show', () => {
    expect(() => table({ caption: 'x', columns: [], rows: [] })).toThrow(RangeError);
    const wide = Array.from({ length: TABLE_COLUMNS_MAX + 1 }, (_, i) => ({ label: `${i}` }));
    expect(() => table({ caption: 'x', columns: wide, rows: [] })).toThrow(RangeError);
  });

  it('keeps a number cell’s value for sorting, and drops one that is not finite', () => {
    const built = table({
      caption: 'Spend',
      columns: [{ label: 'Person' }, { label: 'Credits', numeric: true }],
      rows: [
        ['Ana', numberCell('1.2k', 1200)],
        ['Bo', numberCell('—', Number.NaN)],
      ],
    });
    expect(built.columns[1]?.align).toBe('right');
    expect(built.rows.map((row) => row[1]?.number)).toEqual([1200, null]);
  });
});

describe('tableLines()', () => {
  it('aligns columns, numbers to the right, counting an emoji or a right-to-left letter as one', () => {
    const built = table({
      caption: 'Contacts',
      columns: [{ label: 'Name' }, { label: 'Followers', numeric: true }],
      rows: [
        ['Ana', numberCell('12k', 12_000)],
        [EMOJI, numberCell('1.5M', 1_500_000)],
        ['مرحبا', numberCell('7', 7)],
      ],
    });
    const lines = tableLines(built);
    expect(lines[0]).toBe(`Name ${'  '}Followers`);
    expect(lines[1]).toBe(`─────${'  '}─────────`);
    expect(lines[2]).toBe(`Ana  ${'  '}      12k`);
    expect(lines[4]).toBe(`مرحبا${'  '}        7`);
    const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const width = (line: string) => [...seg.segment(line)].length;
    expect(lines.slice(2).every((line) => width(line) === width(lines[0] as string))).toBe(true);
  });

  it('prints the caption and the aligned rows as text', () => {
    const built = table({ caption: LONG_HOSTILE, columns: [{ label: 'A' }], rows: [['1']] });
    const { text } = renderText(reply([built]));
    expect(text.split('\n').slice(1)).toEqual(['A', '─', '1']);
  });
});
