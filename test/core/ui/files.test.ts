/** CSV files of replies: formula injection neutralised, RFC 4180 quoting that round-trips, sizes and names kept safe. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CSV_MIME_TYPE,
  csvBytes,
  FILE_BYTES_MAX,
  file,
  reply,
  safeFileName,
} from '../../../src/core/ui/index.js';

const read = (bytes: Uint8Array) =>
  parse(Buffer.from(bytes), { bom: true, relax_column_count: false }) as string[][];

describe('csvBytes', () => {
  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const hostile = [
      "=cmd|' /C calc'!A0",
      '+1',
      '-1',
      '@SUM(A1:A2)',
      '\t=1+1',
      '\r=1+1',
      '＝1+1',
      '=HYPERLINK("http://evil.example","click")',
    ];
    const { bytes } = await csvBytes({ header: ['value'], rows: hostile.map((cell) => [cell]) });
    const [header, ...rows] = read(bytes);
    expect(header).toEqual(['value']);
    expect(rows.map(([cell]) => cell)).toEqual(hostile.map((cell) => `'${cell}`));
    // Nothing in the file starts a cell with a formula character.
    for (const [cell] of rows) expect(cell).toMatch(/^'/);
  });

  it('leaves harmless cells alone and writes numbers, yes/no and empty cells plainly', async () => {
    const { bytes, rows } = await csvBytes({
      header: ['text', 'rate', 'negative', 'active', 'missing'],
      rows: [['Spring, "launch"\nline two', 450.5, -3, true, null]],
    });
    expect(rows).toBe(1);
    const text = Buffer.from(bytes).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toContain('\r\n');
    // A negative number is a number, not a formula: it is written as is.
    expect(text).toContain(',-3,true,\r\n');
    expect(read(bytes)[1]).toEqual(['Spring, "launch"\nline two', '450.5', '-3', 'true', '']);
    // A line break alone is quoted too, so the row stays one record for any reader.
    const lone = Buffer.from((await csvBytes({ header: ['a'], rows: [['one\ntwo']] })).bytes).toString(
      'utf8',
    );
    expect(lone).toBe('\uFEFFa\r\n"one\ntwo"\r\n');
  });

  it('keeps only the rows that fit in the size given, and says how many', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => [`row ${i}`, 'x'.repeat(80)]);
    const whole = await csvBytes({ header: ['name', 'pad'], rows });
    expect(whole.rows).toBe(100);
    const cut = await csvBytes({ header: ['name', 'pad'], rows }, { maxBytes: 1000 });
    expect(cut.rows).toBeGreaterThan(5);
    expect(cut.rows).toBeLessThan(100);
    expect(cut.bytes.byteLength).toBeLessThanOrEqual(1000);
    expect(read(cut.bytes)).toHaveLength(cut.rows + 1);
  });
});

describe('file', () => {
  it('makes names safe for any file system and titles single lines', () => {
    expect(safeFileName('Spring Launch: Été/2026', 'csv')).toBe('Spring-Launch-Ete-2026.csv');
    expect(safeFileName('../../etc/passwd', 'csv')).toBe('etc-passwd.csv');
    expect(safeFileName('...', 'csv', 'list')).toBe('list.csv');
    expect(safeFileName('con', 'csv')).toBe('con-file.csv');
    expect(safeFileName('x'.repeat(300), 'csv')).toHaveLength(100);
    const made = file('../Spring Launch.csv', new Uint8Array([1, 2, 3]), {
      mimeType: CSV_MIME_TYPE,
      title: 'Spring\nLaunch',
    });
    expect(made).toMatchObject({ name: 'Spring-Launch.csv', title: 'Spring Launch', mimeType: 'text/csv' });
  });

  it('refuses a file no platform would take, and more files than a message holds', () => {
    expect(() => file('big.csv', new Uint8Array(FILE_BYTES_MAX + 1), { mimeType: CSV_MIME_TYPE })).toThrow(
      RangeError,
    );
    const one = file('a.csv', new Uint8Array(1), { mimeType: CSV_MIME_TYPE });
    expect(reply([], { files: [one] }).files).toEqual([one]);
    expect(reply([]).files).toBeUndefined();
    expect(() => reply([], { files: Array.from({ length: 11 }, () => one) })).toThrow(RangeError);
  });
});
