/**
 * Files that travel with a reply: the `file()` builder (a safe name, a title, a size every platform accepts) and
 * a CSV writer for tables, with spreadsheet formula injection neutralised.
 */
import { stringify } from 'csv-stringify/sync';
import { shortText } from './format.js';
import { FILE_BYTES_MAX, FILE_NAME_MAX, FILE_TITLE_MAX } from './limits.js';
import type { FileAttachment } from './model.js';

/** Names Windows keeps for devices: a file named so (any extension) cannot be created there. */
const RESERVED_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * A file name from free text (a list name): accents dropped, anything but letters, digits, dot, dash and underscore
 * turned into dashes, never hidden (no leading dot), never a device name, at most FILE_NAME_MAX long with its
 * extension; `fallback` when nothing is left.
 */
export function safeFileName(base: string, extension: string, fallback = 'file'): string {
  const ext = extension.replace(/[^A-Za-z0-9]/g, '').slice(0, 10);
  const suffix = ext === '' ? '' : `.${ext}`;
  let stem = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, FILE_NAME_MAX - suffix.length)
    .replace(/[-.]+$/g, '');
  if (stem === '') stem = fallback;
  if (RESERVED_NAMES.test(stem)) stem = `${stem}-file`;
  return `${stem}${suffix}`;
}

/** Options of a file. */
export interface FileOptions {
  readonly mimeType: string;
  /** Shown with the file; the name when not given. */
  readonly title?: string;
  /** 'image' for a picture shown with the reply (see FileAttachment.display). */
  readonly display?: 'image';
}

/**
 * A file for a reply. The name is made safe (see safeFileName); a file larger than FILE_BYTES_MAX throws a
 * RangeError, as other structural mistakes do, since a platform would refuse it.
 */
export function file(name: string, bytes: Uint8Array, options: FileOptions): FileAttachment {
  if (bytes.byteLength > FILE_BYTES_MAX) {
    throw new RangeError(`A file may hold at most ${FILE_BYTES_MAX} bytes, got ${bytes.byteLength}`);
  }
  const dot = name.lastIndexOf('.');
  const safe = dot > 0 ? safeFileName(name.slice(0, dot), name.slice(dot + 1)) : safeFileName(name, '');
  return {
    name: safe,
    mimeType: options.mimeType,
    bytes,
    title: shortText(options.title ?? safe, FILE_TITLE_MAX) ?? safe,
    ...(options.display === undefined ? {} : { display: options.display }),
  };
}

/** One cell of a CSV table: text, a number, a yes/no, or nothing (an empty cell). */
export type CsvCell = string | number | boolean | null | undefined;

/** A CSV table: the header row and the data rows, each as long as the header. */
export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly CsvCell[])[];
}

/** A written CSV file's bytes, and how many data rows fit in them. */
export interface CsvOutput {
  readonly bytes: Uint8Array;
  readonly rows: number;
}

/** MIME type of CSV files (RFC 7111). */
export const CSV_MIME_TYPE = 'text/csv';

/**
 * RFC 4180 output: CRLF between records, fields with a quote, comma or line break quoted. Cells that a spreadsheet
 * would run as a formula (starting with = + - @, a tab or a carriage return, or their full-width forms) get a
 * leading single quote, as OWASP recommends (https://owasp.org/www-community/attacks/CSV_Injection); numbers are
 * written as numbers, so a negative rate stays a number.
 */
const CSV_OPTIONS = {
  record_delimiter: 'windows',
  quote_record_delimiter: true,
  escape_formulas: true,
  cast: { boolean: (value: boolean) => (value ? 'true' : 'false') },
} as const;

/** A byte-order mark first, so spreadsheet programs read the file as UTF-8 (names often are not ASCII). */
const BOM = '\uFEFF';

/**
 * Rows written between two turns of the event loop: writing takes about 2 µs a cell, so a 20,000-row export written
 * at once would hold every other chat request for over a second; a run of 500 rows takes a few tens of ms.
 */
const RUN_ROWS = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes a table as CSV, keeping as many rows as fit in `maxBytes` (FILE_BYTES_MAX by default) so the file can
 * be delivered on every platform; `rows` says how many were kept. Big tables are written in runs, letting other
 * work through between them.
 */
export async function csvBytes(table: CsvTable, options: { maxBytes?: number } = {}): Promise<CsvOutput> {
  const maxBytes = options.maxBytes ?? FILE_BYTES_MAX;
  const width = table.header.length;
  const write = (rows: readonly (readonly CsvCell[])[]) =>
    Buffer.from(
      stringify(
        rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? null)),
        CSV_OPTIONS,
      ),
      'utf8',
    );
  const parts: Buffer[] = [Buffer.from(BOM + stringify([[...table.header]], CSV_OPTIONS), 'utf8')];
  let size = parts[0]?.byteLength ?? 0;
  let kept = 0;
  for (let start = 0; start < table.rows.length; start += RUN_ROWS) {
    if (start > 0) await nextTurn();
    const run = table.rows.slice(start, start + RUN_ROWS);
    const written = write(run);
    if (size + written.byteLength <= maxBytes) {
      parts.push(written);
      size += written.byteLength;
      kept += run.length;
      continue;
    }
    // The run does not fit whole: as many of its rows as fit, one by one, and the file is full.
    for (const row of run) {
      const line = write([row]);
      if (size + line.byteLength > maxBytes) break;
      parts.push(line);
      size += line.byteLength;
      kept += 1;
    }
    break;
  }
  return { bytes: Buffer.concat(parts, size), rows: kept };
}
