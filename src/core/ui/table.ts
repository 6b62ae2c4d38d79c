/**
 * Tables: the builder that caps a table to the limits every renderer can show, and the aligned text layout the
 * terminal and Discord use (Slack lays a table out natively).
 */
import { shortText, singleLine, truncate } from './format.js';
import { TABLE_CAPTION_MAX, TABLE_CELL_MAX, TABLE_COLUMNS_MAX, TABLE_ROWS_MAX } from './limits.js';
import { mention } from './markup.js';
import type { TableCell, TableColumn, TableNode } from './model.js';

/** A number with the text it is shown as. */
export type NumberCellInput = { readonly text: string; readonly number: number | null };

/** A cell as a caller gives it: text, a number, or a person. */
export type CellInput = string | NumberCellInput | { readonly person: string };

/** Input of a table: a column is a label, right-aligned when its cells are numbers. */
export interface TableInput {
  readonly caption: string;
  readonly columns: readonly { readonly label: string; readonly numeric?: boolean }[];
  readonly rows: readonly (readonly CellInput[])[];
}

/** A number cell: `text` as shown ("1.2M"), `value` for sorting. */
export function numberCell(text: string, value: number | null): NumberCellInput {
  return { text, number: value !== null && Number.isFinite(value) ? value : null };
}

/** A cell naming a chat user by their platform id: each platform shows their name where it can. */
export function personCell(userId: string): CellInput {
  return { person: mention(userId).userId };
}

function cellOf(input: CellInput | undefined): TableCell {
  if (input === undefined) return { text: '', number: null };
  if (typeof input !== 'string' && 'person' in input) {
    return { text: truncate(`@${input.person}`, TABLE_CELL_MAX), number: null, person: input.person };
  }
  const raw = typeof input === 'string' ? input : input.text;
  const text = truncate(singleLine(raw), TABLE_CELL_MAX);
  return { text, number: typeof input === 'string' ? null : input.number };
}

/**
 * A table of 1 to TABLE_COLUMNS_MAX columns; rows past TABLE_ROWS_MAX are left out (callers say so), each row is
 * padded or cut to the columns, cell text is one line of at most TABLE_CELL_MAX characters.
 */
export function table(input: TableInput): TableNode {
  if (input.columns.length === 0 || input.columns.length > TABLE_COLUMNS_MAX) {
    throw new RangeError(`A table has 1-${TABLE_COLUMNS_MAX} columns, got ${input.columns.length}`);
  }
  const columns: TableColumn[] = input.columns.map((column) => ({
    label: truncate(singleLine(column.label), TABLE_CELL_MAX),
    align: column.numeric === true ? 'right' : 'left',
  }));
  const rows = input.rows
    .slice(0, TABLE_ROWS_MAX)
    .map((row) => columns.map((_, index) => cellOf(row[index])));
  return {
    type: 'table',
    caption: shortText(singleLine(input.caption), TABLE_CAPTION_MAX) ?? 'Table',
    columns,
    rows,
  };
}

const GAP = '  ';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Characters as a reader counts them: an emoji of several code points, or a letter with its accent, is one. */
function width(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

/** The table as lines of aligned text: a header, a rule, then one line per row, each character counted once. */
export function tableLines(node: TableNode): string[] {
  const widths = node.columns.map((column, index) =>
    Math.max(width(column.label), ...node.rows.map((row) => width(row[index]?.text ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => {
        const pad = ' '.repeat(Math.max(0, (widths[index] ?? 0) - width(cell)));
        return node.columns[index]?.align === 'right' ? pad + cell : cell + pad;
      })
      .join(GAP)
      .trimEnd();
  const header = line(node.columns.map((column) => column.label));
  const rule = widths.map((width) => '─'.repeat(width)).join(GAP);
  return [header, rule, ...node.rows.map((row) => line(row.map((cell) => cell.text)))];
}

/**
 * A table split for a layout that can show a person's name only outside aligned text: the table without its
 * columns of people, and for the header and each row the people's columns (their labels, their user ids).
 */
export function peopleApart(node: TableNode): {
  rest: TableNode;
  labels: string[];
  people: string[][];
} | null {
  const columns = node.columns.map((_, index) => index);
  const isPeople = (index: number) => node.rows.some((row) => row[index]?.person !== undefined);
  const people = columns.filter(isPeople);
  if (people.length === 0 || people.length === columns.length) return null;
  const kept = columns.filter((index) => !people.includes(index));
  return {
    rest: {
      ...node,
      columns: kept.map((index) => node.columns[index] as TableColumn),
      rows: node.rows.map((row) => kept.map((index) => row[index] as TableCell)),
    },
    labels: people.map((index) => node.columns[index]?.label ?? ''),
    people: node.rows.map((row) => people.map((index) => row[index]?.person ?? row[index]?.text ?? '')),
  };
}
