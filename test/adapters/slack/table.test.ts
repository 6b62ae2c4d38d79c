/** Tables on Slack: a data table people page and sort in the message, within Slack's limits. */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import { renderSlackMessages } from '../../../src/adapters/slack/render.js';
import { numberCell, personCell, reply, table } from '../../../src/core/ui/index.js';
import { worstCaseTable } from '../../core/ui/fixtures.js';
import { blocksProblem } from '../../fakes/slack-blocks.js';

type Obj = Record<string, unknown>;
const rowsOf = (block: Obj | undefined) => (block?.rows ?? []) as Obj[][];
const blocksOf = (r: ReturnType<typeof renderSlackMessages>) =>
  r.flatMap((m) => m.blocks as unknown as Obj[]);

const spend = (rows: number) =>
  table({
    caption: 'Spend by person',
    columns: [{ label: 'Person' }, { label: 'Credits', numeric: true }],
    rows: Array.from({ length: rows }, (_, i) => [
      i === 0 ? '' : `Person ${i}`,
      numberCell(`${i} credits`, i),
    ]),
  });

describe('tables on Slack', () => {
  it('renders a data table: labels as the header, numbers as raw numbers that sort by value, no empty cell', () => {
    const [block] = blocksOf(renderSlackMessages(reply([spend(3)])));
    expect(block).toEqual({
      type: 'data_table',
      caption: 'Spend by person',
      page_size: 3,
      rows: [
        [
          { type: 'raw_text', text: 'Person' },
          { type: 'raw_text', text: 'Credits' },
        ],
        [
          { type: 'raw_text', text: '—' },
          { type: 'raw_number', value: 0, text: '0 credits' },
        ],
        [
          { type: 'raw_text', text: 'Person 1' },
          { type: 'raw_number', value: 1, text: '1 credits' },
        ],
        [
          { type: 'raw_text', text: 'Person 2' },
          { type: 'raw_number', value: 2, text: '2 credits' },
        ],
      ],
    });
  });

  it('shows 100 rows ten at a time in one table', () => {
    const [block] = blocksOf(renderSlackMessages(reply([spend(100)])));
    expect(rowsOf(block).length).toBe(101);
    expect(block?.page_size).toBe(10);
  });

  it('cuts the rows past the 10,000 characters of a table and says how many were left out', () => {
    const blocks = blocksOf(renderSlackMessages(reply([worstCaseTable()])));
    const [data, note] = blocks;
    const size = rowsOf(data)
      .flat()
      .reduce((n, cell) => n + String(cell.text).length, 0);
    expect(size).toBeLessThanOrEqual(SLACK.DATA_TABLE_TEXT_MAX);
    const shown = rowsOf(data).length - 1;
    expect(JSON.stringify(note)).toContain(`${100 - shown} more not shown`);
  });

  it('puts two large tables in two messages, so no message holds more than 10,000 characters of cells', () => {
    const messages = renderSlackMessages(reply([worstCaseTable(), worstCaseTable()]));
    expect(messages.length).toBe(2);
  });

  it('says a table without rows is empty instead of sending one Slack refuses', () => {
    const blocks = blocksOf(renderSlackMessages(reply([spend(0)])));
    expect(blocks.map((b) => b.type)).toEqual(['context']);
    expect(JSON.stringify(blocks)).toContain('Spend by person: none.');
  });

  it('names a person in a cell by a user element, which Slack shows as their name, and Slack takes it', () => {
    const spent = table({
      caption: 'Team this month, by person',
      columns: [{ label: 'Person' }, { label: 'Credits', numeric: true }],
      rows: [[personCell('U0ANA'), numberCell('12', 12)]],
    });
    const blocks = blocksOf(renderSlackMessages(reply([spent])));
    expect(rowsOf(blocks[0])[1]?.[0]).toEqual({
      type: 'rich_text',
      elements: [{ type: 'rich_text_section', elements: [{ type: 'user', user_id: 'U0ANA' }] }],
    });
    expect(blocksProblem(blocks)).toBeNull();
  });
});
