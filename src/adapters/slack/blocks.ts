/** Block Kit blocks for each node of the reply model: cards, fields, text, notices, buttons, selects, pager, tables. */
import type { types } from '@slack/bolt';
import {
  assertNever,
  type Button,
  type CardNode,
  type Field,
  type NoticeLevel,
  nextLabel,
  type PagerNode,
  plainText,
  type ReplyNode,
  type SelectNode,
  type Span,
  type TableNode,
} from '../../core/ui/index.js';
import { SLACK } from './limits.js';
import { clip, clipMrkdwn, escapeMrkdwn, linkUrl, spansMrkdwn, splitEscaped } from './mrkdwn.js';
import { dataTableBlock } from './table.js';
import { typeButton } from './value-modal.js';

/** A Block Kit block. */
export type Block = types.KnownBlock;

/** Text of one card field: ten of them plus the card's text stay inside a message's budget. */
const CARD_FIELD_MAX = 500;

/** Text of a fields section: ten long fields would otherwise pass the message budget on their own. */
const FIELDS_SECTION_BUDGET = 6000;

const NOTICE_EMOJI: Readonly<Record<NoticeLevel, string>> = {
  info: ':information_source:',
  success: ':white_check_mark:',
  warning: ':warning:',
  error: ':x:',
};

const plainTextObject = (text: string, max: number): types.PlainTextElement => ({
  type: 'plain_text',
  text: clip(text, max),
  emoji: true,
});

const mrkdwnObject = (text: string): types.MrkdwnElement => ({ type: 'mrkdwn', text, verbatim: true });

/** mrkdwn of literal text, cut to `max` escaped characters. */
export function literal(text: string, max: number): string {
  return splitEscaped(text, max - 1)
    .slice(0, 1)
    .map((piece) => escapeMrkdwn(piece) + (piece.length < text.length ? '…' : ''))
    .join('');
}

/** A Block Kit button from a model button; disabled buttons are left out (Slack has no disabled state). */
export function slackButton(button: Button): types.Button | null {
  if (button.disabled === true) return null;
  return {
    type: 'button',
    text: plainTextObject(button.label, SLACK.BUTTON_TEXT_MAX),
    action_id: button.actionId.slice(0, SLACK.ACTION_ID_MAX),
    value: button.actionId.slice(0, SLACK.BUTTON_VALUE_MAX),
    ...(button.style === 'secondary' ? {} : { style: button.style }),
  };
}

/** Actions blocks of at most 25 elements for a run of buttons. */
export function actionBlocks(buttons: readonly Button[]): Block[] {
  const elements = buttons.map(slackButton).filter((b): b is types.Button => b !== null);
  const blocks: Block[] = [];
  for (let i = 0; i < elements.length; i += SLACK.ACTIONS_ELEMENTS_MAX) {
    blocks.push({ type: 'actions', elements: elements.slice(i, i + SLACK.ACTIONS_ELEMENTS_MAX) });
  }
  return blocks;
}

/** Sections of mrkdwn for spans, each within the section text limit; a span too long is split. */
function textSections(spans: readonly Span[]): Block[] {
  const max = SLACK.SECTION_TEXT_MAX;
  const chunks: string[] = [];
  let current = '';
  const push = (piece: string) => {
    if (current.length + piece.length > max) {
      if (current !== '') chunks.push(current);
      current = '';
    }
    current += piece;
  };
  for (const span of spans) {
    if (span.kind === 'plain') {
      for (const piece of splitEscaped(span.text, max)) push(escapeMrkdwn(piece));
    } else {
      const rendered = spansMrkdwn([span]);
      push(rendered.length <= max ? rendered : literal(plainText([span]), max));
    }
  }
  if (current !== '') chunks.push(current);
  return chunks.map((chunk) => ({ type: 'section', text: mrkdwnObject(chunk) }));
}

const fieldText = (field: Field, max: number) =>
  `*${literal(field.label, 200)}*\n${literal(field.value === '' ? ' ' : field.value, max - 220)}`;

/** Section blocks for label/value pairs: at most 10 fields each, and within the fields budget. */
function fieldSections(fields: readonly Field[], max: number): Block[] {
  const blocks: Block[] = [];
  let current: types.MrkdwnElement[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) blocks.push({ type: 'section', fields: current });
    current = [];
    size = 0;
  };
  for (const field of fields) {
    const text = fieldText(field, max);
    if (current.length === SLACK.SECTION_FIELDS_MAX || size + text.length > FIELDS_SECTION_BUDGET) flush();
    current.push(mrkdwnObject(text));
    size += text.length;
  }
  flush();
  return blocks;
}

/** A context line of mrkdwn. */
export const contextBlock = (text: string): Block => ({
  type: 'context',
  elements: [mrkdwnObject(clip(text, SLACK.SECTION_TEXT_MAX))],
});

/**
 * A card: a section with the title (a link when the card has one), the subtitle and body lines, the first fields
 * and the image as its accessory; further fields in sections of their own; the footnote as a context line; then
 * the buttons.
 */
function cardBlocks(card: CardNode): Block[] {
  const title = literal(card.title, 300);
  const head = [
    card.link === null ? `*${title}*` : `*<${linkUrl(card.link.url)}|${title}>*`,
    ...(card.subtitle === null ? [] : [literal(card.subtitle, 100)]),
    ...card.body.map((line) => literal(line, 1000)),
  ].join('\n');
  const [firstFields, ...moreFields] = fieldSections(card.fields, CARD_FIELD_MAX);
  const section: types.SectionBlock = {
    type: 'section',
    text: mrkdwnObject(clip(head, SLACK.SECTION_TEXT_MAX)),
    ...(firstFields?.type === 'section' && firstFields.fields !== undefined
      ? { fields: firstFields.fields }
      : {}),
    // Slack rejects longer image URLs; the card is still useful without the picture.
    ...(card.image === null || card.image.url.length > SLACK.IMAGE_URL_MAX
      ? {}
      : { accessory: { type: 'image', image_url: card.image.url, alt_text: clip(card.image.alt, 200) } }),
  };
  return [
    section,
    ...moreFields,
    ...(card.footnote === null ? [] : [contextBlock(literal(card.footnote, 500))]),
    ...actionBlocks(card.actions),
  ];
}

function selectBlock(node: SelectNode): Block {
  const options: types.PlainTextOption[] = node.options.slice(0, SLACK.SELECT_OPTIONS_MAX).map((option) => ({
    text: plainTextObject(option.label, SLACK.OPTION_TEXT_MAX),
    value: option.value.slice(0, SLACK.OPTION_VALUE_MAX),
    ...(option.description === undefined
      ? {}
      : { description: plainTextObject(option.description, SLACK.OPTION_DESCRIPTION_MAX) }),
  }));
  const initial = options.find((option) => option.value === node.selected);
  const common = {
    action_id: node.actionId.slice(0, SLACK.ACTION_ID_MAX),
    placeholder: plainTextObject(node.placeholder, SLACK.PLACEHOLDER_MAX),
    options,
  };
  // Several choices at once: a multi-select that lets every option be chosen.
  const element: types.StaticSelect | types.MultiStaticSelect =
    node.multiple === true
      ? {
          type: 'multi_static_select',
          ...common,
          max_selected_items: options.length,
          ...(initial === undefined ? {} : { initial_options: [initial] }),
        }
      : { type: 'static_select', ...common, ...(initial === undefined ? {} : { initial_option: initial }) };
  const typed = typeButton(node);
  return { type: 'actions', elements: typed === null ? [element] : [element, typed] };
}

/** The pager: where we are, and previous/next buttons for the pages that exist. */
function pagerBlocks(node: PagerNode): Block[] {
  const where = `Page ${node.page}${node.totalPages === null ? '' : ` of ${node.totalPages}`}`;
  const label = node.label === undefined ? where : `${where} · ${node.label}`;
  const buttons: types.Button[] = [];
  if (node.prevActionId !== null) {
    buttons.push({
      type: 'button',
      text: plainTextObject('Previous', SLACK.BUTTON_TEXT_MAX),
      action_id: node.prevActionId,
      value: node.prevActionId,
    });
  }
  if (node.nextActionId !== null) {
    buttons.push({
      type: 'button',
      text: plainTextObject(nextLabel(node, 'Next'), SLACK.BUTTON_TEXT_MAX),
      action_id: node.nextActionId,
      value: node.nextActionId,
      style: 'primary',
    });
  }
  return [
    contextBlock(literal(label, 500)),
    ...(buttons.length === 0 ? [] : [{ type: 'actions', elements: buttons } satisfies Block]),
  ];
}

/** The blocks of one node. */
export function nodeBlocks(node: ReplyNode): Block[] {
  switch (node.type) {
    case 'text':
      return textSections(node.spans);
    case 'fields':
      return fieldSections(node.fields, SLACK.SECTION_FIELD_TEXT_MAX);
    case 'card':
      return cardBlocks(node);
    case 'notice': {
      const [first, ...rest] = textSections(node.spans);
      const lead: Block =
        first?.type === 'section' && first.text !== undefined
          ? {
              type: 'section',
              text: mrkdwnObject(
                clipMrkdwn(`${NOTICE_EMOJI[node.level]} ${first.text.text}`, SLACK.SECTION_TEXT_MAX),
              ),
            }
          : { type: 'section', text: mrkdwnObject(NOTICE_EMOJI[node.level]) };
      const reference =
        node.reference === undefined ? [] : [contextBlock(`Reference: \`${literal(node.reference, 200)}\``)];
      return [lead, ...rest, ...reference];
    }
    case 'buttons':
      return actionBlocks(node.buttons);
    case 'select':
      return [selectBlock(node)];
    case 'pager':
      return pagerBlocks(node);
    case 'divider':
      return [{ type: 'divider' }];
    case 'image':
      return [
        {
          type: 'image',
          image_url: node.url,
          alt_text: clip(node.alt, 2000),
          ...(node.title === undefined ? {} : { title: plainTextObject(node.title, 2000) }),
        },
      ];
    case 'code-block': {
      const fence = '```';
      const title = node.title === undefined ? [] : [contextBlock(`*${literal(node.title, 300)}*`)];
      // Inside a fence Slack shows text literally except entities, so only &<> are escaped.
      const pieces = splitEscaped(node.code, SLACK.SECTION_TEXT_MAX - 8, (s) => s.replace(/[&<>]/g, 'xxxxx'));
      return [
        ...title,
        ...pieces.map(
          (piece): Block => ({
            type: 'section',
            text: mrkdwnObject(
              `${fence}${piece.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}${fence}`,
            ),
          }),
        ),
      ];
    }
    case 'table':
      return tableBlocks(node);
    default:
      return assertNever(node, 'reply node');
  }
}

/** A table as a data table, with a line saying how many rows did not fit; its caption alone when it has no rows. */
function tableBlocks(node: TableNode): Block[] {
  const table = dataTableBlock(node);
  if (table === null) return [contextBlock(`${literal(node.caption, 300)}: none.`)];
  const left = table.left === 0 ? [] : [contextBlock(`… ${table.left} more not shown.`)];
  return [table.block, ...left];
}
