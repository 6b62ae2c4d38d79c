/** Slack's limits on rendered messages, asserted block by block, and ways to read blocks in the renderer's tests. */
import { expect } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import {
  blocksTextSize,
  MAX_MESSAGES,
  MESSAGE_TEXT_BUDGET,
  type SlackMessage,
} from '../../../src/adapters/slack/render.js';
import { blocksProblem } from '../../fakes/slack-blocks.js';

/** A block or element as a test reads it. */
export type Obj = Record<string, unknown>;

/** Asserts every limit of Slack on the messages, walking each block and element. */
export function assertLimits(messages: readonly SlackMessage[]): void {
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.length).toBeLessThanOrEqual(MAX_MESSAGES);
  for (const message of messages) {
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.text.length).toBeLessThanOrEqual(SLACK.MESSAGE_TEXT_MAX);
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK.MESSAGE_BLOCKS_MAX);
    expect(blocksTextSize(message.blocks)).toBeLessThanOrEqual(MESSAGE_TEXT_BUDGET);
    assertTableLimits(message.blocks as unknown as Obj[]);
    // What Slack answers invalid_blocks to, as the fake Slack refuses it.
    expect(blocksProblem(message.blocks)).toBeNull();
    for (const block of message.blocks as unknown as Obj[]) {
      if (block.type === 'section') {
        const sectionText = (block.text as Obj | undefined)?.text as string | undefined;
        expect((sectionText ?? '').length).toBeLessThanOrEqual(SLACK.SECTION_TEXT_MAX);
        const fields = (block.fields ?? []) as Obj[];
        expect(fields.length).toBeLessThanOrEqual(SLACK.SECTION_FIELDS_MAX);
        for (const field of fields)
          expect(String(field.text).length).toBeLessThanOrEqual(SLACK.SECTION_FIELD_TEXT_MAX);
        expect(sectionText !== undefined || fields.length > 0).toBe(true);
      }
      if (block.type === 'context') {
        for (const element of block.elements as Obj[])
          expect(String(element.text).length).toBeLessThanOrEqual(3000);
      }
      if (block.type === 'actions') {
        const elements = block.elements as Obj[];
        expect(elements.length).toBeGreaterThan(0);
        expect(elements.length).toBeLessThanOrEqual(SLACK.ACTIONS_ELEMENTS_MAX);
        for (const element of elements) {
          expect(String(element.action_id).length).toBeLessThanOrEqual(SLACK.ACTION_ID_MAX);
          if (element.type === 'button') {
            expect(((element.text as Obj).text as string).length).toBeLessThanOrEqual(SLACK.BUTTON_TEXT_MAX);
            expect(String(element.value).length).toBeLessThanOrEqual(SLACK.BUTTON_VALUE_MAX);
          }
          if (element.type === 'static_select') {
            const options = element.options as Obj[];
            expect(options.length).toBeLessThanOrEqual(SLACK.SELECT_OPTIONS_MAX);
            expect(((element.placeholder as Obj).text as string).length).toBeLessThanOrEqual(
              SLACK.PLACEHOLDER_MAX,
            );
            for (const option of options) {
              expect(((option.text as Obj).text as string).length).toBeLessThanOrEqual(SLACK.OPTION_TEXT_MAX);
              expect(String(option.value).length).toBeLessThanOrEqual(SLACK.OPTION_VALUE_MAX);
            }
          }
        }
        const ids = elements.map((e) => e.action_id);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  }
}

/** Slack's data table rules: a header and 1-100 rows of one length, 1-20 columns, no empty cell, 10,000 characters. */
export function assertTableLimits(blocks: readonly Obj[]): void {
  let size = 0;
  for (const block of blocks.filter((b) => b.type === 'data_table')) {
    const rows = block.rows as Obj[][];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeLessThanOrEqual(SLACK.DATA_TABLE_ROWS_MAX + 1);
    const width = rows[0]?.length ?? 0;
    expect(width).toBeGreaterThanOrEqual(1);
    expect(width).toBeLessThanOrEqual(SLACK.DATA_TABLE_COLUMNS_MAX);
    for (const row of rows) {
      expect(row).toHaveLength(width);
      for (const cell of row) expect(String(cell.text).length).toBeGreaterThan(0);
      size += row.reduce((n, cell) => n + String(cell.text).length, 0);
    }
    expect(block.page_size).toBeLessThanOrEqual(100);
  }
  expect(size).toBeLessThanOrEqual(SLACK.DATA_TABLE_TEXT_MAX);
}

/** Every block of some messages. */
export const allBlocks = (messages: readonly SlackMessage[]) =>
  messages.flatMap((m) => m.blocks as unknown as Obj[]);
/** The cards of the carousels of some messages. */
export const carouselCards = (messages: readonly SlackMessage[]) =>
  allBlocks(messages)
    .filter((b) => b.type === 'carousel')
    .flatMap((b) => b.elements as Obj[]);
/** The elements of actions blocks and the buttons of carousel cards, in order. */
export const elementsOf = (messages: readonly SlackMessage[]) =>
  allBlocks(messages).flatMap((b) =>
    b.type === 'actions'
      ? (b.elements as Obj[])
      : b.type === 'carousel'
        ? (b.elements as Obj[]).flatMap((c) => (c.actions ?? []) as Obj[])
        : [],
  );
/** The action ids of the elements of some messages, in order. */
export const buttonIds = (messages: readonly SlackMessage[]) =>
  elementsOf(messages).map((e) => String(e.action_id));
