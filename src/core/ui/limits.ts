/**
 * Platform limits as named constants. Lengths count UTF-16 code units (JavaScript `length`), which is never
 * less than the code-point count the platforms measure, so staying under them is always safe.
 * Sources: ../shared/notes/platform-limits.md (row numbers in brackets) and the linked platform docs.
 */

/** Slack limits. */
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
  /** action_id of any element [11] docs.slack.dev/reference/block-kit/block-elements/button-element */
  ACTION_ID_MAX: 255,
  /** Options of a static select [8] docs.slack.dev/reference/block-kit/block-elements/select-menu-element */
  SELECT_OPTIONS_MAX: 100,
  /** Option text, below 76 [8] docs.slack.dev/reference/block-kit/composition-objects/option-object */
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
  /** Block text per message where msg_blocks_too_long appears in practice [10] bolt-js#2509 */
  MESSAGE_BLOCKS_TEXT_PRACTICAL_MAX: 13_000,
  /** Size of an uploaded file: 1 GB https://docs.slack.dev/reference/methods/files.getUploadURLExternal */
  FILE_BYTES_MAX: 1_000_000_000,
} as const;

/** Discord limits. */
export const DISCORD = {
  /** Embeds per message [17] developers/resources/message.mdx#embed-object-embed-limits */
  EMBEDS_MAX: 10,
  /** Text across all embeds of a message [17] developers/resources/message.mdx#embed-object-embed-limits */
  EMBEDS_TOTAL_TEXT_MAX: 6000,
  /** Fields per embed [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_FIELDS_MAX: 25,
  /** Embed title [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_TITLE_MAX: 256,
  /** Embed description [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_DESCRIPTION_MAX: 4096,
  /** Embed field name [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_FIELD_NAME_MAX: 256,
  /** Embed field value [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_FIELD_VALUE_MAX: 1024,
  /** Embed footer text [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_FOOTER_MAX: 2048,
  /** Embed author name [18] developers/resources/message.mdx#embed-object-embed-limits */
  EMBED_AUTHOR_MAX: 256,
  /** Action rows per message [19] developers/components/reference.mdx (Action Row) */
  ACTION_ROWS_MAX: 5,
  /** Buttons per action row [19] developers/components/reference.mdx (Action Row) */
  ROW_BUTTONS_MAX: 5,
  /** Button label developers/components/reference.mdx (Button) */
  BUTTON_LABEL_MAX: 80,
  /** Options of a string select [22] developers/components/reference.mdx (String Select) */
  SELECT_OPTIONS_MAX: 25,
  /** custom_id of a component [21] developers/components/reference.mdx (Custom ID) */
  CUSTOM_ID_MAX: 100,
  /** Select option label developers/components/reference.mdx (Select Option Structure) */
  OPTION_LABEL_MAX: 100,
  /** Select option value developers/components/reference.mdx (Select Option Structure) */
  OPTION_VALUE_MAX: 100,
  /** Select option description developers/components/reference.mdx (Select Option Structure) */
  OPTION_DESCRIPTION_MAX: 100,
  /** Select placeholder developers/components/reference.mdx (String Select) */
  PLACEHOLDER_MAX: 150,
  /** Message content [17] developers/resources/message.mdx (Create Message) */
  CONTENT_MAX: 2000,
  /** Modal title [23] developers/interactions/receiving-and-responding.mdx (modal) */
  MODAL_TITLE_MAX: 45,
  /** Components of a modal [23] developers/interactions/receiving-and-responding.mdx (modal) */
  MODAL_COMPONENTS_MAX: 5,
  /** Size of an attachment in a server without boosts: 10 MiB https://discord.com/developers/docs/reference#uploading-files */
  FILE_BYTES_MAX: 10 * 1024 * 1024,
  /** Attachments per message https://discord.com/developers/docs/reference#uploading-files */
  MESSAGE_FILES_MAX: 10,
  /** Attachment description developers/resources/message.mdx (Attachment Object) */
  FILE_DESCRIPTION_MAX: 1024,
} as const;

/** Cards per page: 5 fits Slack's 50 blocks and Discord's embeds and rows alike (limits note, design). */
export const CARDS_PER_PAGE = 5;

/** Longest action token: Discord custom_id is the tighter of custom_id 100 and Slack action_id 255. */
export const ACTION_ID_MAX = Math.min(DISCORD.CUSTOM_ID_MAX, SLACK.ACTION_ID_MAX);

/** Buttons per button row: Discord 5 per row is tighter than Slack 25 per actions block. */
export const BUTTONS_PER_ROW_MAX = Math.min(DISCORD.ROW_BUTTONS_MAX, SLACK.ACTIONS_ELEMENTS_MAX);

/** Button label length: Slack 75 is tighter than Discord 80. */
export const BUTTON_LABEL_MAX = Math.min(SLACK.BUTTON_TEXT_MAX, DISCORD.BUTTON_LABEL_MAX);

/** Options per select: Discord 25 is tighter than Slack 100. */
export const SELECT_OPTIONS_MAX = Math.min(DISCORD.SELECT_OPTIONS_MAX, SLACK.SELECT_OPTIONS_MAX);

/** Option label length: Slack 75 is tighter than Discord 100. */
export const OPTION_LABEL_MAX = Math.min(SLACK.OPTION_TEXT_MAX, DISCORD.OPTION_LABEL_MAX);

/** Option description length: Slack 75 is tighter than Discord 100. */
export const OPTION_DESCRIPTION_MAX = Math.min(SLACK.OPTION_DESCRIPTION_MAX, DISCORD.OPTION_DESCRIPTION_MAX);

/** Option value length: Discord 100 is tighter than Slack 150. */
export const OPTION_VALUE_MAX = Math.min(DISCORD.OPTION_VALUE_MAX, SLACK.OPTION_VALUE_MAX);

/** Select placeholder length: both platforms allow 150. */
export const PLACEHOLDER_MAX = Math.min(DISCORD.PLACEHOLDER_MAX, SLACK.PLACEHOLDER_MAX);

/** Fields per fields node: Slack 10 per section is tighter than Discord 25 per embed. */
export const FIELDS_MAX = Math.min(SLACK.SECTION_FIELDS_MAX, DISCORD.EMBED_FIELDS_MAX);

/** Field label length: Discord field name 256 (Slack has no separate label). */
export const FIELD_LABEL_MAX = DISCORD.EMBED_FIELD_NAME_MAX;

/** Field value length: Discord field value 1024 is tighter than Slack field text 2000. */
export const FIELD_VALUE_MAX = Math.min(DISCORD.EMBED_FIELD_VALUE_MAX, SLACK.SECTION_FIELD_TEXT_MAX);

/** Text of one text node: Discord content 2000 beats Slack section 3000 and embed description 4096. */
export const TEXT_MAX = Math.min(DISCORD.CONTENT_MAX, SLACK.SECTION_TEXT_MAX, DISCORD.EMBED_DESCRIPTION_MAX);

/** Code block body: room for fences and a language tag inside TEXT_MAX. */
export const CODE_BLOCK_MAX = TEXT_MAX - 100;

/** Modal title length: Slack 24 is tighter than Discord 45. */
export const MODAL_TITLE_MAX = Math.min(SLACK.MODAL_TITLE_MAX, DISCORD.MODAL_TITLE_MAX);

/** Embed text per card, so five cards stay under Discord's 6000 per message (limits note, design). */
export const CARD_TEXT_BUDGET = 1200;

/** Short card strings (handle, nickname, country, usernames); keeps a card inside CARD_TEXT_BUDGET. */
export const CARD_SHORT_TEXT_MAX = 80;

/** Long card strings (caption, hook, notes); keeps a card inside CARD_TEXT_BUDGET. */
export const CARD_LONG_TEXT_MAX = 280;

/** Niches shown on a creator card; keeps a card inside CARD_TEXT_BUDGET. */
export const CARD_NICHES_MAX = 6;

/** A card's title: a handle and a nickname side by side fit, under Discord's 256 for an embed title. */
export const CARD_TITLE_MAX = 200;

/** A line of a card's body or its footnote: a long text (CARD_LONG_TEXT_MAX) after a short label fits. */
export const CARD_LINE_MAX = 300;

/** Fields of one card: as many as one fields node holds, so a card's facts sit in one Slack section. */
export const CARD_FIELDS_MAX = FIELDS_MAX;

/** Longest user id a mention keeps: Slack ids and Discord snowflakes are far shorter, terminal names at most 64. */
export const MENTION_ID_MAX = 64;

/** Buttons on one card: one Discord row. */
export const CARD_ACTIONS_MAX = BUTTONS_PER_ROW_MAX;

/** Size of a file a reply carries: Discord's 10 MiB (any server) is far tighter than Slack's 1 GB. */
export const FILE_BYTES_MAX = Math.min(DISCORD.FILE_BYTES_MAX, SLACK.FILE_BYTES_MAX);

/** Files per reply: all go with one Discord message, which takes 10. */
export const FILES_MAX = DISCORD.MESSAGE_FILES_MAX;

/** A file's title: one short line, well inside Discord's attachment description. */
export const FILE_TITLE_MAX = 100;

/** A file's name, extension included: short enough for any file system and every platform's listing. */
export const FILE_NAME_MAX = 100;
