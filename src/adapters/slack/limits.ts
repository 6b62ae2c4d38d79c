/**
 * Slack's own limits, which the Block Kit renderer and the modals keep to. Lengths count UTF-16 code units
 * (JavaScript `length`), never fewer than the characters Slack counts. Row numbers in brackets are those of
 * the shared platform-limits note. The neutral limits of core/ui are checked against these by
 * test/adapters/slack/limits.test.ts.
 */
export const SLACK = {
  /** Blocks per message [5] https://docs.slack.dev/reference/block-kit/blocks */
  MESSAGE_BLOCKS_MAX: 50,
  /** Blocks per modal or Home tab [5] https://docs.slack.dev/reference/block-kit/blocks */
  VIEW_BLOCKS_MAX: 100,
  /** Section block text [7] https://docs.slack.dev/reference/block-kit/blocks/section-block */
  SECTION_TEXT_MAX: 3000,
  /** Section block fields [7] https://docs.slack.dev/reference/block-kit/blocks/section-block */
  SECTION_FIELDS_MAX: 10,
  /** Text of one section field [7] https://docs.slack.dev/reference/block-kit/blocks/section-block */
  SECTION_FIELD_TEXT_MAX: 2000,
  /** Elements per actions block [6] https://api.slack.com/reference/messaging/blocks */
  ACTIONS_ELEMENTS_MAX: 25,
  /** Button text [11] https://docs.slack.dev/reference/block-kit/block-elements/button-element */
  BUTTON_TEXT_MAX: 75,
  /** Button value [11] https://docs.slack.dev/reference/block-kit/block-elements/button-element */
  BUTTON_VALUE_MAX: 2000,
  /** action_id of any element [11] https://docs.slack.dev/reference/block-kit/block-elements/button-element */
  ACTION_ID_MAX: 255,
  /** Options of a static select [8] https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element */
  SELECT_OPTIONS_MAX: 100,
  /** Option text, below 76 [8] https://docs.slack.dev/reference/block-kit/composition-objects/option-object */
  OPTION_TEXT_MAX: 75,
  /** Option description https://docs.slack.dev/reference/block-kit/composition-objects/option-object */
  OPTION_DESCRIPTION_MAX: 75,
  /** Option value https://docs.slack.dev/reference/block-kit/composition-objects/option-object */
  OPTION_VALUE_MAX: 150,
  /** Select placeholder https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element */
  PLACEHOLDER_MAX: 150,
  /** Modal title, submit and close labels [9] https://docs.slack.dev/reference/views/modal-views */
  MODAL_TITLE_MAX: 24,
  /** Modal private_metadata [9] https://docs.slack.dev/reference/views/modal-views */
  MODAL_PRIVATE_METADATA_MAX: 3000,
  /** Message text before Slack truncates it [10] https://docs.slack.dev/reference/methods/chat.postMessage */
  MESSAGE_TEXT_MAX: 40_000,
  /** Block text per message where msg_blocks_too_long appears in practice [10] https://github.com/slackapi/bolt-js/issues/2509 */
  MESSAGE_BLOCKS_TEXT_PRACTICAL_MAX: 13_000,
  /** Data rows of a data table, after its header https://docs.slack.dev/reference/block-kit/blocks/data-table-block */
  DATA_TABLE_ROWS_MAX: 100,
  /** Columns of a data table https://docs.slack.dev/reference/block-kit/blocks/data-table-block */
  DATA_TABLE_COLUMNS_MAX: 20,
  /** Characters across all cells of one data table, and of all tables of one message (same page) */
  DATA_TABLE_TEXT_MAX: 10_000,
  /** Cards of a carousel block, at least 1 https://docs.slack.dev/reference/block-kit/blocks/carousel-block */
  CAROUSEL_CARDS_MAX: 10,
  /** Title of a card block https://docs.slack.dev/reference/block-kit/blocks/card-block */
  CARD_TITLE_MAX: 150,
  /** Subtitle of a card block https://docs.slack.dev/reference/block-kit/blocks/card-block */
  CARD_SUBTITLE_MAX: 150,
  /** Body of a card block https://docs.slack.dev/reference/block-kit/blocks/card-block */
  CARD_BODY_MAX: 200,
  /** URL of an image element or accessory https://docs.slack.dev/reference/block-kit/block-elements/image-element */
  IMAGE_URL_MAX: 3000,
  /** Size of an uploaded file: 1 GB https://docs.slack.dev/reference/methods/files.getUploadURLExternal */
  FILE_BYTES_MAX: 1_000_000_000,
} as const;
