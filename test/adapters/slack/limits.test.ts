/**
 * The neutral limits core/ui enforces are within Slack's own: core cannot import the adapter, so this is where a
 * core limit raised above Slack's fails. Each row: the neutral limit, the length or count it lets reach Slack,
 * and the Slack limit that must hold it.
 */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import * as core from '../../../src/core/ui/limits.js';

type Neutral = keyof typeof core;

const WITHIN: ReadonlyArray<readonly [Neutral, number, keyof typeof SLACK]> = [
  ['ACTION_ID_MAX', core.ACTION_ID_MAX, 'ACTION_ID_MAX'],
  // A button's value is its token.
  ['ACTION_ID_MAX', core.ACTION_ID_MAX, 'BUTTON_VALUE_MAX'],
  ['BUTTONS_PER_ROW_MAX', core.BUTTONS_PER_ROW_MAX, 'ACTIONS_ELEMENTS_MAX'],
  ['BUTTON_LABEL_MAX', core.BUTTON_LABEL_MAX, 'BUTTON_TEXT_MAX'],
  ['SELECT_OPTIONS_MAX', core.SELECT_OPTIONS_MAX, 'SELECT_OPTIONS_MAX'],
  ['OPTION_LABEL_MAX', core.OPTION_LABEL_MAX, 'OPTION_TEXT_MAX'],
  ['OPTION_DESCRIPTION_MAX', core.OPTION_DESCRIPTION_MAX, 'OPTION_DESCRIPTION_MAX'],
  ['OPTION_VALUE_MAX', core.OPTION_VALUE_MAX, 'OPTION_VALUE_MAX'],
  ['PLACEHOLDER_MAX', core.PLACEHOLDER_MAX, 'PLACEHOLDER_MAX'],
  ['FIELDS_MAX', core.FIELDS_MAX, 'SECTION_FIELDS_MAX'],
  // A card's facts sit in one section.
  ['CARD_FIELDS_MAX', core.CARD_FIELDS_MAX, 'SECTION_FIELDS_MAX'],
  // A field's label and value share one section field.
  ['FIELD_LABEL_MAX', core.FIELD_LABEL_MAX + core.FIELD_VALUE_MAX, 'SECTION_FIELD_TEXT_MAX'],
  ['FIELD_VALUE_MAX', core.FIELD_VALUE_MAX, 'SECTION_FIELD_TEXT_MAX'],
  ['TEXT_MAX', core.TEXT_MAX, 'SECTION_TEXT_MAX'],
  ['CODE_BLOCK_MAX', core.CODE_BLOCK_MAX, 'SECTION_TEXT_MAX'],
  ['CARD_TITLE_MAX', core.CARD_TITLE_MAX, 'SECTION_TEXT_MAX'],
  ['CARD_LINE_MAX', core.CARD_LINE_MAX, 'SECTION_TEXT_MAX'],
  ['FILE_BYTES_MAX', core.FILE_BYTES_MAX, 'FILE_BYTES_MAX'],
  // A page of cards is one carousel.
  ['CARDS_PER_PAGE_MAX', core.CARDS_PER_PAGE_MAX, 'CAROUSEL_CARDS_MAX'],
  ['TABLE_ROWS_MAX', core.TABLE_ROWS_MAX, 'DATA_TABLE_ROWS_MAX'],
  ['TABLE_COLUMNS_MAX', core.TABLE_COLUMNS_MAX, 'DATA_TABLE_COLUMNS_MAX'],
  // A full table of the longest cells is cut by the renderer to the budget (table.test.ts); one cell always fits.
  ['TABLE_CELL_MAX', core.TABLE_CELL_MAX * core.TABLE_COLUMNS_MAX, 'DATA_TABLE_TEXT_MAX'],
];

/** Neutral limits with no Slack limit of their own to compare, and why. */
const NOT_SLACK: ReadonlySet<Neutral> = new Set<Neutral>([
  // Core's own choices, far inside every platform limit they reach.
  'CARD_SHORT_TEXT_MAX',
  'CARD_LONG_TEXT_MAX',
  'CARD_NICHES_MAX',
  'MENTION_ID_MAX',
  'FILE_NAME_MAX',
  // The default page and Discord's budget; a page of cards in one Slack message is checked by rendering one
  // (render.test.ts).
  'CARDS_PER_PAGE',
  'CARD_TEXT_BUDGET',
  // Slack uploads each file on its own, its title within an image block's 2,000.
  'FILES_MAX',
  'FILE_TITLE_MAX',
  // A data table's caption is a plain string with no documented limit; core keeps it to one short line.
  'TABLE_CAPTION_MAX',
]);

describe('core limits within Slack limits', () => {
  it.each(WITHIN)('%s lets %i reach Slack, within its %s', (_, value, limit) => {
    expect(value).toBeLessThanOrEqual(SLACK[limit]);
  });

  it('checks every neutral limit core exports, or says why Slack has none', () => {
    const checked = new Set(WITHIN.map(([name]) => name));
    const unchecked = (Object.keys(core) as Neutral[]).filter(
      (name) => !checked.has(name) && !NOT_SLACK.has(name),
    );
    expect(unchecked).toEqual([]);
  });
});
