/**
 * The neutral limits the reply builders enforce. Lengths count UTF-16 code units (JavaScript `length`), which is
 * never less than the code-point count the platforms measure, so staying under them is always safe. Each
 * platform's own limits live with its renderer (adapters/slack/limits.ts, adapters/discord/limits.ts), whose
 * tests check every limit here is within them; core/ui imports no adapter.
 */

/** Cards a page shows unless a command asks for another size: the default, and so the default cost, of a page. */
export const CARDS_PER_PAGE = 5;

/**
 * Most cards one page may hold (a creator search's perPage): a Slack carousel holds 10 cards, and ten creators with
 * their avatars fit one Discord Components V2 message (40 components, 10 per container).
 */
export const CARDS_PER_PAGE_MAX = 10;

/** Longest action token: the smallest of the platforms' (Discord custom_id 100, Slack action_id 255). */
export const ACTION_ID_MAX = 100;

/** Buttons per button row: the smallest of the platforms' (Discord 5 per row, Slack 25 per actions block). */
export const BUTTONS_PER_ROW_MAX = 5;

/** Button label length: the smallest of the platforms' (Slack 75, Discord 80). */
export const BUTTON_LABEL_MAX = 75;

/** Options per select: the smallest of the platforms' (Discord 25, Slack 100). */
export const SELECT_OPTIONS_MAX = 25;

/** Option label length: the smallest of the platforms' (Slack 75, Discord 100). */
export const OPTION_LABEL_MAX = 75;

/** Option description length: the smallest of the platforms' (Slack 75, Discord 100). */
export const OPTION_DESCRIPTION_MAX = 75;

/** Option value length: the smallest of the platforms' (Discord 100, Slack 150). */
export const OPTION_VALUE_MAX = 100;

/** Select placeholder length: the smallest of the platforms' (both allow 150). */
export const PLACEHOLDER_MAX = 150;

/** Fields per fields node: the smallest of the platforms' (Slack 10 per section, Discord 25 per embed). */
export const FIELDS_MAX = 10;

/** Field label length: the smallest of the platforms' (Discord field name 256; Slack has no separate label). */
export const FIELD_LABEL_MAX = 256;

/** Field value length: the smallest of the platforms' (Discord field value 1024, Slack field text 2000). */
export const FIELD_VALUE_MAX = 1024;

/** Text of one text node: the smallest of the platforms' (Discord content 2000, Slack section 3000). */
export const TEXT_MAX = 2000;

/** Code block body: room for fences and a language tag inside TEXT_MAX. */
export const CODE_BLOCK_MAX = TEXT_MAX - 100;

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

/** Size of a file a reply carries: the smallest of the platforms' (Discord 10 MiB in any server, Slack 1 GB). */
export const FILE_BYTES_MAX = 10 * 1024 * 1024;

/** Files per reply: the smallest of the platforms' (all go with one Discord message, which takes 10). */
export const FILES_MAX = 10;

/** A file's title: one short line, well inside Discord's attachment description. */
export const FILE_TITLE_MAX = 100;

/** A file's name, extension included: short enough for any file system and every platform's listing. */
export const FILE_NAME_MAX = 100;

/** Rows of a table: Slack's data table and table blocks hold 100; longer answers say how many were left out. */
export const TABLE_ROWS_MAX = 100;

/** Columns of a table: few enough to read side by side in text (Slack's tables take 20). */
export const TABLE_COLUMNS_MAX = 8;

/** Text of one table cell: a name or a short fact; longer text is cut with "…". */
export const TABLE_CELL_MAX = 60;

/** A table's caption: one short line. */
export const TABLE_CAPTION_MAX = 100;
