/**
 * A table as Slack's data table block: the header row, then up to 100 rows that people page and sort in the
 * message. Number cells are raw numbers, so a column of numbers sorts by value, not by its text.
 */
import type { types } from '@slack/bolt';
import type { TableCell, TableNode } from '../../core/ui/index.js';
import { SLACK } from './limits.js';

/** What a cell without text shows: Slack refuses an empty raw_text. */
const EMPTY_CELL = '—';

/** Rows shown per page of the table: people page through the rest in the message. */
const TABLE_PAGE_SIZE = 10;

type Cell = types.RawTextElement | types.RawNumberElement | types.RichTextBlock;

function rawText(text: string): types.RawTextElement {
  return { type: 'raw_text', text: text === '' ? EMPTY_CELL : text };
}

/** A person's cell: a rich text user element, which Slack shows as their name. */
function personCell(userId: string): types.RichTextBlock {
  return {
    type: 'rich_text',
    elements: [{ type: 'rich_text_section', elements: [{ type: 'user', user_id: userId }] }],
  };
}

function cell(value: TableCell): Cell {
  if (value.person !== undefined) return personCell(value.person);
  return value.number === null
    ? rawText(value.text)
    : { type: 'raw_number', value: value.number, text: value.text === '' ? EMPTY_CELL : value.text };
}

/** Characters a cell counts: its text; a person's cell its JSON, more than Slack could count for it. */
const cellSize = (c: Cell) => ('text' in c ? c.text.length : JSON.stringify(c).length);
const cellsSize = (row: readonly Cell[]) => row.reduce((n, c) => n + cellSize(c), 0);

/**
 * The data table block of a table and the rows it left out to stay within Slack's character budget per table
 * (DATA_TABLE_TEXT_MAX across all cells); null for a table without rows, which Slack refuses.
 */
export function dataTableBlock(node: TableNode): { block: types.DataTableBlock; left: number } | null {
  if (node.rows.length === 0) return null;
  const header = node.columns.map((column) => rawText(column.label));
  const rows: Cell[][] = [];
  let size = cellsSize(header);
  for (const row of node.rows.slice(0, SLACK.DATA_TABLE_ROWS_MAX)) {
    const cells = row.map(cell);
    size += cellsSize(cells);
    if (size > SLACK.DATA_TABLE_TEXT_MAX) break;
    rows.push(cells);
  }
  if (rows.length === 0) return null;
  const block: types.DataTableBlock = {
    type: 'data_table',
    caption: node.caption,
    rows: [header, ...rows],
    page_size: Math.min(TABLE_PAGE_SIZE, rows.length),
  };
  return { block, left: node.rows.length - rows.length };
}

/** Characters a data table block counts against Slack's budget per message; 0 for any other block. */
export function dataTableSize(block: { type: string }): number {
  if (block.type !== 'data_table') return 0;
  return (block as types.DataTableBlock).rows.reduce((n, row) => n + cellsSize(row as Cell[]), 0);
}
