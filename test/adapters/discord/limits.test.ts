/**
 * The neutral limits core/ui enforces are within Discord's own: core cannot import the adapter, so this is where
 * a core limit raised above Discord's fails. Each row: the neutral limit, the length or count it lets reach
 * Discord, and the Discord limit that must hold it.
 */
import { describe, expect, it } from 'vitest';
import { DISCORD } from '../../../src/adapters/discord/limits.js';
import * as core from '../../../src/core/ui/limits.js';

type Neutral = keyof typeof core;

/** What the renderer puts before a card's title and buttons in a message of several cards (`10. `). */
const NUMBER = `${core.CARDS_PER_PAGE_MAX}. `.length;

const WITHIN: ReadonlyArray<readonly [Neutral, number, keyof typeof DISCORD]> = [
  ['ACTION_ID_MAX', core.ACTION_ID_MAX, 'CUSTOM_ID_MAX'],
  // Buttons beyond a message's rows become options of a select, valued by their tokens.
  ['ACTION_ID_MAX', core.ACTION_ID_MAX, 'OPTION_VALUE_MAX'],
  ['BUTTONS_PER_ROW_MAX', core.BUTTONS_PER_ROW_MAX, 'ROW_BUTTONS_MAX'],
  ['BUTTON_LABEL_MAX', core.BUTTON_LABEL_MAX + NUMBER, 'BUTTON_LABEL_MAX'],
  ['BUTTON_LABEL_MAX', core.BUTTON_LABEL_MAX, 'OPTION_LABEL_MAX'],
  ['SELECT_OPTIONS_MAX', core.SELECT_OPTIONS_MAX, 'SELECT_OPTIONS_MAX'],
  ['OPTION_LABEL_MAX', core.OPTION_LABEL_MAX, 'OPTION_LABEL_MAX'],
  ['OPTION_DESCRIPTION_MAX', core.OPTION_DESCRIPTION_MAX, 'OPTION_DESCRIPTION_MAX'],
  ['OPTION_VALUE_MAX', core.OPTION_VALUE_MAX, 'OPTION_VALUE_MAX'],
  ['PLACEHOLDER_MAX', core.PLACEHOLDER_MAX, 'PLACEHOLDER_MAX'],
  ['FIELDS_MAX', core.FIELDS_MAX, 'EMBED_FIELDS_MAX'],
  ['CARD_FIELDS_MAX', core.CARD_FIELDS_MAX, 'EMBED_FIELDS_MAX'],
  ['FIELD_LABEL_MAX', core.FIELD_LABEL_MAX, 'EMBED_FIELD_NAME_MAX'],
  ['FIELD_VALUE_MAX', core.FIELD_VALUE_MAX, 'EMBED_FIELD_VALUE_MAX'],
  ['TEXT_MAX', core.TEXT_MAX, 'CONTENT_MAX'],
  ['TEXT_MAX', core.TEXT_MAX, 'EMBED_DESCRIPTION_MAX'],
  ['CODE_BLOCK_MAX', core.CODE_BLOCK_MAX, 'EMBED_DESCRIPTION_MAX'],
  ['CARD_TITLE_MAX', core.CARD_TITLE_MAX + NUMBER, 'EMBED_TITLE_MAX'],
  ['CARD_LINE_MAX', core.CARD_LINE_MAX, 'EMBED_FOOTER_MAX'],
  // A post with a footer note lays its cards out as embeds.
  ['CARDS_PER_PAGE', core.CARDS_PER_PAGE, 'EMBEDS_MAX'],
  // A full page is one container of sections; each section (with its text and picture) is 3 components, and the
  // container 1, so a page leaves room under 40 for its other text, selects and pager (render-v2.test.ts).
  ['CARDS_PER_PAGE_MAX', core.CARDS_PER_PAGE_MAX, 'CONTAINER_CHILDREN_MAX'],
  ['CARDS_PER_PAGE_MAX', 1 + 3 * core.CARDS_PER_PAGE_MAX, 'V2_COMPONENTS_MAX'],
  // The buttons of a page's cards, two each, as options of one select.
  ['CARDS_PER_PAGE_MAX', 2 * core.CARDS_PER_PAGE_MAX, 'SELECT_OPTIONS_MAX'],
  ['CARD_TEXT_BUDGET', core.CARDS_PER_PAGE * core.CARD_TEXT_BUDGET, 'EMBEDS_TOTAL_TEXT_MAX'],
  ['FILE_BYTES_MAX', core.FILE_BYTES_MAX, 'FILE_BYTES_MAX'],
  ['FILES_MAX', core.FILES_MAX, 'MESSAGE_FILES_MAX'],
  ['FILE_TITLE_MAX', core.FILE_TITLE_MAX, 'FILE_DESCRIPTION_MAX'],
  // A table is aligned text in embeds of whole rows: one row of the longest cells fits one description.
  ['TABLE_CELL_MAX', (core.TABLE_CELL_MAX + 2) * core.TABLE_COLUMNS_MAX, 'EMBED_DESCRIPTION_MAX'],
  ['TABLE_CAPTION_MAX', core.TABLE_CAPTION_MAX, 'EMBED_DESCRIPTION_MAX'],
];

/** Core's own choices, with no Discord limit of their own to compare: far inside every limit they reach. */
const NOT_DISCORD: ReadonlySet<Neutral> = new Set<Neutral>([
  'CARD_SHORT_TEXT_MAX',
  'CARD_LONG_TEXT_MAX',
  'CARD_NICHES_MAX',
  'MENTION_ID_MAX',
  'FILE_NAME_MAX',
  // Discord has no table: rows and columns become lines of text, split across embeds (render.test.ts).
  'TABLE_ROWS_MAX',
  'TABLE_COLUMNS_MAX',
]);

describe('core limits within Discord limits', () => {
  it.each(WITHIN)('%s lets %i reach Discord, within its %s', (_, value, limit) => {
    expect(value).toBeLessThanOrEqual(DISCORD[limit]);
  });

  it('checks every neutral limit core exports, or says why Discord has none', () => {
    const checked = new Set(WITHIN.map(([name]) => name));
    const unchecked = (Object.keys(core) as Neutral[]).filter(
      (name) => !checked.has(name) && !NOT_DISCORD.has(name),
    );
    expect(unchecked).toEqual([]);
  });
});
