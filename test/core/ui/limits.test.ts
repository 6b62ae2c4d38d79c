import { describe, expect, it } from 'vitest';
import {
  ACTION_ID_MAX,
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW_MAX,
  CARD_ACTIONS_MAX,
  CARD_TEXT_BUDGET,
  CARDS_PER_PAGE,
  CODE_BLOCK_MAX,
  DISCORD,
  FIELD_LABEL_MAX,
  FIELD_VALUE_MAX,
  FIELDS_MAX,
  MODAL_TITLE_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_VALUE_MAX,
  PLACEHOLDER_MAX,
  SELECT_OPTIONS_MAX,
  SLACK,
  TEXT_MAX,
} from '../../../src/core/ui/limits.js';

describe('platform limits', () => {
  it('records the Slack values of the limits note', () => {
    expect(SLACK).toMatchObject({
      MESSAGE_BLOCKS_MAX: 50,
      VIEW_BLOCKS_MAX: 100,
      SECTION_TEXT_MAX: 3000,
      SECTION_FIELDS_MAX: 10,
      SECTION_FIELD_TEXT_MAX: 2000,
      ACTIONS_ELEMENTS_MAX: 25,
      BUTTON_TEXT_MAX: 75,
      BUTTON_VALUE_MAX: 2000,
      ACTION_ID_MAX: 255,
      SELECT_OPTIONS_MAX: 100,
      OPTION_TEXT_MAX: 75,
      MODAL_TITLE_MAX: 24,
    });
  });

  it('records the Discord values of the limits note', () => {
    expect(DISCORD).toMatchObject({
      EMBEDS_MAX: 10,
      EMBEDS_TOTAL_TEXT_MAX: 6000,
      EMBED_FIELDS_MAX: 25,
      EMBED_TITLE_MAX: 256,
      EMBED_DESCRIPTION_MAX: 4096,
      EMBED_FIELD_NAME_MAX: 256,
      EMBED_FIELD_VALUE_MAX: 1024,
      EMBED_FOOTER_MAX: 2048,
      EMBED_AUTHOR_MAX: 256,
      ACTION_ROWS_MAX: 5,
      ROW_BUTTONS_MAX: 5,
      SELECT_OPTIONS_MAX: 25,
      CUSTOM_ID_MAX: 100,
      OPTION_LABEL_MAX: 100,
      CONTENT_MAX: 2000,
      MODAL_TITLE_MAX: 45,
      MODAL_COMPONENTS_MAX: 5,
    });
  });

  it('takes the tighter platform value for every shared limit', () => {
    expect(ACTION_ID_MAX).toBe(100);
    expect(BUTTONS_PER_ROW_MAX).toBe(5);
    expect(BUTTON_LABEL_MAX).toBe(75);
    expect(SELECT_OPTIONS_MAX).toBe(25);
    expect(OPTION_LABEL_MAX).toBe(75);
    expect(OPTION_DESCRIPTION_MAX).toBe(75);
    expect(OPTION_VALUE_MAX).toBe(100);
    expect(PLACEHOLDER_MAX).toBe(150);
    expect(FIELDS_MAX).toBe(10);
    expect(FIELD_LABEL_MAX).toBe(256);
    expect(FIELD_VALUE_MAX).toBe(1024);
    expect(TEXT_MAX).toBe(2000);
    expect(MODAL_TITLE_MAX).toBe(24);
    expect(CARDS_PER_PAGE).toBe(5);
  });

  it('sizes a page of cards to fit both platforms', () => {
    expect(CARDS_PER_PAGE).toBeLessThanOrEqual(DISCORD.EMBEDS_MAX);
    expect(CARDS_PER_PAGE * CARD_TEXT_BUDGET).toBeLessThanOrEqual(DISCORD.EMBEDS_TOTAL_TEXT_MAX);
    // Four Slack blocks per card plus a header and a pager stay well under 50.
    expect(CARDS_PER_PAGE * 4 + 2).toBeLessThanOrEqual(SLACK.MESSAGE_BLOCKS_MAX);
    expect(CARD_ACTIONS_MAX).toBeLessThanOrEqual(DISCORD.ROW_BUTTONS_MAX);
    expect(CODE_BLOCK_MAX).toBeLessThan(TEXT_MAX);
  });
});
