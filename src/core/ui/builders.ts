/**
 * Builders for reply nodes. They clean and cap text to the limits both platforms accept, and throw a
 * RangeError for structural mistakes (a bad action token, too many buttons or options) so a handler's
 * tests catch them instead of a platform rejecting the message.
 */
import { cleanText, formatAmount, MISSING, safeUrl, shortText, singleLine, truncate } from './format.js';
import { formatJson, type JsonTextOptions } from './json-text.js';
import {
  ACTION_ID_MAX,
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW_MAX,
  CARD_FIELDS_MAX,
  CARD_LINE_MAX,
  CARD_SHORT_TEXT_MAX,
  CARD_TITLE_MAX,
  CODE_BLOCK_MAX,
  FIELD_LABEL_MAX,
  FIELD_VALUE_MAX,
  FIELDS_MAX,
  FILES_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_VALUE_MAX,
  PLACEHOLDER_MAX,
  SELECT_OPTIONS_MAX,
} from './limits.js';
import { type Inline, toSpans } from './markup.js';
import type {
  Button,
  ButtonStyle,
  ButtonsNode,
  CardNode,
  CodeBlockNode,
  DividerNode,
  Field,
  FieldsNode,
  FileAttachment,
  ImageNode,
  NoticeLevel,
  NoticeNode,
  PagerNode,
  Reply,
  ReplyNode,
  SelectNode,
  SelectOption,
  TextNode,
  Visibility,
} from './model.js';

/** Printable ASCII without spaces, 1 to ACTION_ID_MAX long: valid Slack action_id and Discord custom_id. */
const ACTION_ID_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${ACTION_ID_MAX}}$`);

/** Whether a string is a valid action token. */
export function isActionId(value: string): boolean {
  return ACTION_ID_PATTERN.test(value);
}

/** Returns the token, or throws a RangeError naming what is wrong with it. */
function assertActionId(value: string): string {
  if (!isActionId(value)) {
    throw new RangeError(
      `Action token must be 1-${ACTION_ID_MAX} printable ASCII characters without spaces, ` +
        `got ${JSON.stringify(truncate(value, 120))} (${value.length} chars)`,
    );
  }
  return value;
}

/** Whether a reply says something went wrong (a warning or an error notice). */
export const isRefusal = (answer: Reply): boolean =>
  answer.nodes.some((node) => node.type === 'notice' && (node.level === 'warning' || node.level === 'error'));

/** Options of a reply. */
export interface ReplyOptions {
  readonly visibility?: Visibility;
  readonly replace?: boolean;
  /** Files delivered with the reply (see `file()`), at most FILES_MAX. */
  readonly files?: readonly FileAttachment[];
}

/** A reply, visible to its author by default; falsy entries are skipped so optional nodes fit inline. */
export function reply(
  nodes: ReadonlyArray<ReplyNode | null | undefined | false>,
  options: ReplyOptions = {},
): Reply {
  const kept = nodes.filter(
    (node): node is ReplyNode => node !== null && node !== undefined && node !== false,
  );
  const files = options.files ?? [];
  if (files.length > FILES_MAX) {
    throw new RangeError(`A reply may carry at most ${FILES_MAX} files, got ${files.length}`);
  }
  return {
    nodes: kept,
    visibility: options.visibility ?? 'author',
    ...(options.replace === undefined ? {} : { replace: options.replace }),
    ...(files.length === 0 ? {} : { files }),
  };
}

/** A text node from strings (plain) and spans: `text('Found ', bold('12'), ' creators')`. */
export function text(...parts: Inline[]): TextNode {
  return { type: 'text', spans: toSpans(parts) };
}

/** A notice; `reference` is an id the user can quote. */
export function notice(
  level: NoticeLevel,
  content: string | readonly Inline[],
  options: { readonly reference?: string } = {},
): NoticeNode {
  const reference = shortText(options.reference, 100);
  return {
    type: 'notice',
    level,
    spans: toSpans(typeof content === 'string' ? [content] : content),
    ...(reference === null ? {} : { reference }),
  };
}

/** Input of one field: missing values show as a dash, numbers with thousands separators. */
export interface FieldInput {
  readonly label: string;
  readonly value: string | number | null | undefined;
  readonly inline?: boolean;
}

/** A field with a cleaned label and value; the value keeps its newlines. */
export function field(input: FieldInput): Field {
  const raw = input.value;
  const value =
    typeof raw === 'number'
      ? formatAmount(raw)
      : typeof raw === 'string' && raw.trim() !== ''
        ? truncate(cleanLines(raw), FIELD_VALUE_MAX)
        : MISSING;
  return {
    label: shortText(input.label, FIELD_LABEL_MAX) ?? MISSING,
    value,
    ...(input.inline === undefined ? {} : { inline: input.inline }),
  };
}

/** Cleans each line of a multi-line value, keeping the line breaks. */
function cleanLines(value: string): string {
  return value
    .split(/\r\n?|\n|[\u2028\u2029]/)
    .map((line) => singleLine(line))
    .join('\n')
    .trim();
}

/** A fields node of 1 to FIELDS_MAX fields. */
export function fields(inputs: readonly FieldInput[]): FieldsNode {
  if (inputs.length === 0 || inputs.length > FIELDS_MAX) {
    throw new RangeError(`A fields node holds 1-${FIELDS_MAX} fields, got ${inputs.length}`);
  }
  return { type: 'fields', fields: inputs.map(field) };
}

/** Options of a button. */
export interface ButtonOptions {
  readonly style?: ButtonStyle;
  readonly disabled?: boolean;
}

/** A button; the label is cut to BUTTON_LABEL_MAX, the token must satisfy `isActionId`. */
export function button(label: string, actionId: string, options: ButtonOptions = {}): Button {
  const clean = shortText(label, BUTTON_LABEL_MAX);
  if (clean === null) throw new RangeError('A button needs a label');
  return {
    label: clean,
    actionId: assertActionId(actionId),
    style: options.style ?? 'secondary',
    ...(options.disabled === undefined ? {} : { disabled: options.disabled }),
  };
}

/** Checks a row of buttons: at most BUTTONS_PER_ROW_MAX, distinct tokens. */
function checkButtonRow(row: readonly Button[], min = 0): readonly Button[] {
  if (row.length < min || row.length > BUTTONS_PER_ROW_MAX) {
    throw new RangeError(`A button row holds ${min}-${BUTTONS_PER_ROW_MAX} buttons, got ${row.length}`);
  }
  const seen = new Set<string>();
  for (const item of row) {
    if (seen.has(item.actionId)) throw new RangeError(`Duplicate action token ${item.actionId}`);
    seen.add(item.actionId);
  }
  return row;
}

/** A row of 1 to BUTTONS_PER_ROW_MAX buttons. */
export function buttons(...row: Button[]): ButtonsNode {
  return { type: 'buttons', buttons: checkButtonRow(row, 1) };
}

/** What a card shows (see `CardNode`); every part but the title may be left out, and null parts are. */
export interface CardInput {
  readonly title: string;
  /** The page the title leads to; dropped when the URL is not an absolute http(s) URL. */
  readonly link?: { readonly url: string | null | undefined; readonly label: string } | null;
  readonly subtitle?: string | null | undefined;
  /** Lines under the title; blank ones are dropped. */
  readonly body?: ReadonlyArray<string | null | undefined>;
  /** The picture beside the title; dropped when the URL is not an absolute http(s) URL. */
  readonly image?: { readonly url: string | null | undefined; readonly alt: string } | null;
  readonly fields?: readonly FieldInput[];
  readonly footnote?: string | null | undefined;
  readonly actions?: readonly Button[] | undefined;
}

/**
 * A card: its text cleaned to single lines and capped (title CARD_TITLE_MAX, subtitle CARD_SHORT_TEXT_MAX, body
 * lines and footnote CARD_LINE_MAX), at most CARD_FIELDS_MAX fields and one row of buttons with distinct tokens.
 */
export function card(input: CardInput): CardNode {
  const inputs = input.fields ?? [];
  if (inputs.length > CARD_FIELDS_MAX) {
    throw new RangeError(`A card holds at most ${CARD_FIELDS_MAX} fields, got ${inputs.length}`);
  }
  const link = input.link ?? null;
  const image = input.image ?? null;
  const linkUrl = safeUrl(link?.url);
  const imageUrl = safeUrl(image?.url);
  return {
    type: 'card',
    title: shortText(input.title, CARD_TITLE_MAX) ?? MISSING,
    link:
      link === null || linkUrl === null
        ? null
        : { url: linkUrl, label: shortText(link.label, FIELD_LABEL_MAX) ?? 'Link' },
    subtitle: shortText(input.subtitle, CARD_SHORT_TEXT_MAX),
    body: (input.body ?? [])
      .map((line) => shortText(line, CARD_LINE_MAX))
      .filter((line): line is string => line !== null),
    image:
      image === null || imageUrl === null
        ? null
        : { url: imageUrl, alt: shortText(image.alt, 200) ?? 'image' },
    fields: inputs.map(field),
    footnote: shortText(input.footnote, CARD_LINE_MAX),
    actions: checkButtonRow(input.actions ?? []),
  };
}

/** Input of a select. */
export interface SelectInput {
  readonly placeholder: string;
  readonly actionId: string;
  readonly options: readonly SelectOption[];
  readonly selected?: string;
  /** Its action takes a typed value too (see SelectNode.typed). */
  readonly typed?: boolean;
  /** Several options may be chosen at once (see SelectNode.multiple). */
  readonly multiple?: boolean;
}

/**
 * A select of 1 to SELECT_OPTIONS_MAX options with distinct values of at most OPTION_VALUE_MAX characters;
 * callers with more choices page or filter them. A `selected` value that is not an option is dropped.
 */
export function select(input: SelectInput): SelectNode {
  if (input.options.length === 0 || input.options.length > SELECT_OPTIONS_MAX) {
    throw new RangeError(`A select holds 1-${SELECT_OPTIONS_MAX} options, got ${input.options.length}`);
  }
  const values = new Set<string>();
  const options = input.options.map((option): SelectOption => {
    if (option.value === '' || option.value.length > OPTION_VALUE_MAX) {
      throw new RangeError(`Option values are 1-${OPTION_VALUE_MAX} characters, got ${option.value.length}`);
    }
    if (values.has(option.value)) throw new RangeError(`Duplicate option value ${option.value}`);
    values.add(option.value);
    const description = shortText(option.description, OPTION_DESCRIPTION_MAX);
    return {
      label: shortText(option.label, OPTION_LABEL_MAX) ?? truncate(option.value, OPTION_LABEL_MAX),
      value: option.value,
      ...(description === null ? {} : { description }),
    };
  });
  return {
    type: 'select',
    placeholder: shortText(input.placeholder, PLACEHOLDER_MAX) ?? 'Choose…',
    actionId: assertActionId(input.actionId),
    options,
    ...(input.selected !== undefined && values.has(input.selected) ? { selected: input.selected } : {}),
    ...(input.typed === true ? { typed: true } : {}),
    ...(input.multiple === true ? { multiple: true } : {}),
  };
}

/** Input of a pager. */
export interface PagerInput {
  readonly page: number;
  readonly totalPages: number | null;
  readonly prevActionId: string | null;
  readonly nextActionId: string | null;
  readonly label?: string;
  /** What the next page may cost, or null / absent when it is free (see PagerNode.nextCost). */
  readonly nextCost?: string | null;
}

/** A pager; `page` is 1-based, `totalPages` null when unknown. */
export function pager(input: PagerInput): PagerNode {
  if (!Number.isInteger(input.page) || input.page < 1) {
    throw new RangeError(`Pages count from 1, got ${input.page}`);
  }
  if (input.totalPages !== null && (!Number.isInteger(input.totalPages) || input.totalPages < 0)) {
    throw new RangeError(`Total pages must be a whole number, got ${input.totalPages}`);
  }
  if (input.prevActionId !== null && input.prevActionId === input.nextActionId) {
    throw new RangeError(`Duplicate action token ${input.prevActionId}`);
  }
  const label = shortText(input.label, 100);
  const nextCost = input.nextActionId === null ? null : shortText(input.nextCost, 40);
  return {
    type: 'pager',
    page: input.page,
    totalPages: input.totalPages,
    prevActionId: input.prevActionId === null ? null : assertActionId(input.prevActionId),
    nextActionId: input.nextActionId === null ? null : assertActionId(input.nextActionId),
    ...(label === null ? {} : { label }),
    ...(nextCost === null ? {} : { nextCost }),
  };
}

/** The label of a pager's Next button: `next`, with what the next page may cost when it is not free. */
export function nextLabel(node: PagerNode, next: string): string {
  return node.nextCost === undefined ? next : `${next} (${node.nextCost})`;
}

/** A divider. */
export function divider(): DividerNode {
  return { type: 'divider' };
}

/** An image, or null when the URL is not an absolute http(s) URL (service data is not trusted). */
export function image(url: string, alt: string, options: { readonly title?: string } = {}): ImageNode | null {
  const safe = safeUrl(url);
  if (safe === null) return null;
  const title = shortText(options.title, 200);
  return {
    type: 'image',
    url: safe,
    alt: shortText(alt, 200) ?? 'image',
    ...(title === null ? {} : { title }),
  };
}

/** Options of a code block. */
export interface CodeBlockOptions {
  readonly language?: string;
  readonly title?: string;
  readonly maxChars?: number;
}

/** A code block; the body is cut to `maxChars` (default CODE_BLOCK_MAX). */
export function codeBlock(code: string, options: CodeBlockOptions = {}): CodeBlockNode {
  const language = shortText(options.language, 20);
  const title = shortText(options.title, 200);
  return {
    type: 'code-block',
    code: truncate(cleanText(code), options.maxChars ?? CODE_BLOCK_MAX),
    ...(language === null ? {} : { language }),
    ...(title === null ? {} : { title }),
  };
}

/** A code block showing any JSON-like value readably (see `formatJson`), within CODE_BLOCK_MAX by default. */
export function jsonBlock(
  value: unknown,
  options: { readonly title?: string } & JsonTextOptions = {},
): CodeBlockNode {
  const { title, ...jsonOptions } = options;
  const maxChars = jsonOptions.maxChars ?? CODE_BLOCK_MAX;
  return codeBlock(formatJson(value, { ...jsonOptions, maxChars }), {
    language: 'json',
    maxChars,
    ...(title === undefined ? {} : { title }),
  });
}
