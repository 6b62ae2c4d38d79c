/**
 * Discord's own limits, which the renderers (embeds, Components V2) and the modals keep to. Lengths count UTF-16 code
 * units (JavaScript `length`), never fewer than the characters Discord counts. Row numbers in brackets are those
 * of the shared platform-limits note. The neutral limits of core/ui are checked against these by
 * test/adapters/discord/limits.test.ts.
 */
export const DISCORD = {
  /** Embeds per message [17] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBEDS_MAX: 10,
  /** Text across all embeds of a message [17] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBEDS_TOTAL_TEXT_MAX: 6000,
  /** Fields per embed [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_FIELDS_MAX: 25,
  /** Embed title [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_TITLE_MAX: 256,
  /** Embed description [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_DESCRIPTION_MAX: 4096,
  /** Embed field name [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_FIELD_NAME_MAX: 256,
  /** Embed field value [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_FIELD_VALUE_MAX: 1024,
  /** Embed footer text [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_FOOTER_MAX: 2048,
  /** Embed author name [18] https://docs.discord.com/developers/resources/message#embed-object-embed-limits */
  EMBED_AUTHOR_MAX: 256,
  /** Action rows per message [19] https://docs.discord.com/developers/components/reference#action-row */
  ACTION_ROWS_MAX: 5,
  /** Buttons per action row [19] https://docs.discord.com/developers/components/reference#action-row */
  ROW_BUTTONS_MAX: 5,
  /** Button label https://docs.discord.com/developers/components/reference#button */
  BUTTON_LABEL_MAX: 80,
  /** Options of a string select [22] https://docs.discord.com/developers/components/reference#string-select */
  SELECT_OPTIONS_MAX: 25,
  /** custom_id of a component [21] https://docs.discord.com/developers/components/reference#anatomy-of-a-component-custom-id */
  CUSTOM_ID_MAX: 100,
  /** Select option label https://docs.discord.com/developers/components/reference#string-select-select-option-structure */
  OPTION_LABEL_MAX: 100,
  /** Select option value https://docs.discord.com/developers/components/reference#string-select-select-option-structure */
  OPTION_VALUE_MAX: 100,
  /** Select option description https://docs.discord.com/developers/components/reference#string-select-select-option-structure */
  OPTION_DESCRIPTION_MAX: 100,
  /** Select placeholder https://docs.discord.com/developers/components/reference#string-select */
  PLACEHOLDER_MAX: 150,
  /** Components of a Components V2 message, nested ones counted https://docs.discord.com/developers/components/reference#component-reference */
  V2_COMPONENTS_MAX: 40,
  /** Text across every text display of a Components V2 message https://docs.discord.com/developers/components/reference#text-display */
  V2_TEXT_MAX: 4000,
  /** Children of a container (as discord-api-types documents it) https://docs.discord.com/developers/components/reference#container */
  CONTAINER_CHILDREN_MAX: 10,
  /** Text displays of a section https://docs.discord.com/developers/components/reference#section */
  SECTION_TEXTS_MAX: 3,
  /** Items of a media gallery https://docs.discord.com/developers/components/reference#media-gallery */
  GALLERY_ITEMS_MAX: 10,
  /** Description of a thumbnail or a media gallery item https://docs.discord.com/developers/components/reference#thumbnail */
  MEDIA_DESCRIPTION_MAX: 1024,
  /** Message content [17] https://docs.discord.com/developers/resources/message#create-message */
  CONTENT_MAX: 2000,
  /** Modal title [23] https://docs.discord.com/developers/interactions/receiving-and-responding#interaction-response-object-modal */
  MODAL_TITLE_MAX: 45,
  /** Components of a modal [23] https://docs.discord.com/developers/interactions/receiving-and-responding#interaction-response-object-modal */
  MODAL_COMPONENTS_MAX: 5,
  /** Size of an attachment in a server without boosts: 10 MiB https://docs.discord.com/developers/reference#uploading-files */
  FILE_BYTES_MAX: 10 * 1024 * 1024,
  /** Attachments per message https://docs.discord.com/developers/reference#uploading-files */
  MESSAGE_FILES_MAX: 10,
  /** Attachment description https://docs.discord.com/developers/resources/message#attachment-object */
  FILE_DESCRIPTION_MAX: 1024,
} as const;
