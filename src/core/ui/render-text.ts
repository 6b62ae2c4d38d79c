/**
 * Plain-text renderer: the terminal adapter's output and Slack's notification fallback. Buttons, select
 * options and pager arrows are numbered in reading order so a terminal user can press them by number.
 */
import { nextLabel } from './builders.js';
import { plainText } from './markup.js';
import {
  assertNever,
  type Button,
  type CardNode,
  type Field,
  type NoticeLevel,
  type Reply,
  type ReplyNode,
  type SelectNode,
  type SelectOption,
} from './model.js';
import { tableLines } from './table.js';

/** One actionable element of a rendered reply, numbered from 1 in reading order. */
export interface TextAction {
  readonly index: number;
  readonly actionId: string;
  readonly label: string;
  readonly kind: 'button' | 'select';
  /** The choices of a select, shown as "<index>.<n>" with n counting from 1. */
  readonly options?: readonly SelectOption[];
}

/** A reply rendered as text, with its actions in the order they were numbered. */
export interface TextRendering {
  readonly text: string;
  readonly actions: readonly TextAction[];
}

/** Options of `renderText`. */
export interface TextRenderOptions {
  /** Show and number buttons, selects and pager arrows (default true); false suits notification text. */
  readonly actions?: boolean;
}

const NOTICE_PREFIX: Readonly<Record<NoticeLevel, string>> = {
  info: 'Info:',
  success: 'Done:',
  warning: 'Warning:',
  error: 'Error:',
};

const INDENT = '  ';
const INLINE_FIELDS_PER_LINE = 3;
const DIVIDER = '─'.repeat(24);

interface State {
  readonly numbered: boolean;
  readonly actions: TextAction[];
}

/** Renders every node of a reply as readable plain text and lists its numbered actions. */
export function renderText(reply: Reply, options: TextRenderOptions = {}): TextRendering {
  const state: State = { numbered: options.actions ?? true, actions: [] };
  const blocks: string[] = [];
  for (const node of reply.nodes) {
    const lines = renderNode(node, state);
    if (lines.length > 0) blocks.push(lines.map((line) => line.trimEnd()).join('\n'));
  }
  return { text: blocks.join('\n\n'), actions: state.actions };
}

function renderNode(node: ReplyNode, state: State): string[] {
  switch (node.type) {
    case 'text':
      return [plainText(node.spans)];
    case 'fields':
      return fieldLines(node.fields, '');
    case 'card':
      return cardLines(node, state);
    case 'notice': {
      const reference = node.reference === undefined ? '' : ` (ref: ${node.reference})`;
      return [`${NOTICE_PREFIX[node.level]} ${plainText(node.spans)}${reference}`];
    }
    case 'buttons':
      return buttonLines(node.buttons, state, '');
    case 'select':
      return selectLines(node, state);
    case 'pager':
      return pagerLines(node, state);
    case 'divider':
      return [DIVIDER];
    case 'image':
      return [`Image: ${node.title ?? node.alt} <${node.url}>`];
    case 'code-block':
      return node.title === undefined ? [node.code] : [`${node.title}:`, node.code];
    case 'table':
      return [`${node.caption}:`, ...tableLines(node)];
    default:
      return assertNever(node, 'reply node');
  }
}

/** "Label: value" lines; consecutive inline fields share a line, a few at a time. */
function fieldLines(fields: readonly Field[], indent: string): string[] {
  const lines: string[] = [];
  let row: string[] = [];
  const flush = () => {
    if (row.length > 0) lines.push(indent + row.join(' · '));
    row = [];
  };
  for (const field of fields) {
    if (field.inline === true && !field.value.includes('\n')) {
      row.push(`${field.label}: ${field.value}`);
      if (row.length === INLINE_FIELDS_PER_LINE) flush();
      continue;
    }
    flush();
    const [first = '', ...rest] = field.value.split('\n');
    lines.push(`${indent}${field.label}: ${first}`, ...rest.map((line) => `${indent}${INDENT}${line}`));
  }
  flush();
  return lines;
}

/** A card: its title (with the subtitle in brackets), body, fields, link, footnote and buttons, indented. */
function cardLines(card: CardNode, state: State): string[] {
  return [
    card.subtitle === null ? card.title : `${card.title} (${card.subtitle})`,
    ...card.body.map((line) => INDENT + line),
    ...fieldLines(card.fields, INDENT),
    ...(card.link === null ? [] : [`${INDENT}${card.link.label}: ${card.link.url}`]),
    ...(card.footnote === null ? [] : [INDENT + card.footnote]),
    ...buttonLines(card.actions, state, INDENT),
  ];
}

/** Numbers an action and returns its index. */
function register(state: State, action: Omit<TextAction, 'index'>): number {
  const index = state.actions.length + 1;
  state.actions.push({ index, ...action });
  return index;
}

function buttonLines(buttons: readonly Button[], state: State, indent: string): string[] {
  if (!state.numbered || buttons.length === 0) return [];
  const items = buttons.map((item) => {
    if (item.disabled === true) return `[-] ${item.label}`;
    const index = register(state, { actionId: item.actionId, label: item.label, kind: 'button' });
    return `[${index}] ${item.label}`;
  });
  return [indent + items.join('  ')];
}

function selectLines(node: SelectNode, state: State): string[] {
  if (!state.numbered) return [];
  const index = register(state, {
    actionId: node.actionId,
    label: node.placeholder,
    kind: 'select',
    options: node.options,
  });
  // Several options are chosen at once by their numbers, comma-separated.
  const several =
    node.multiple === true && node.options.length > 1 ? ` (choose several: ${index}.1,${index}.2)` : '';
  return [
    `[${index}] ${node.placeholder}${several}`,
    ...node.options.map((option, n) => {
      const description = option.description === undefined ? '' : ` — ${option.description}`;
      const selected = option.value === node.selected ? ' (selected)' : '';
      return `${INDENT}${INDENT}${index}.${n + 1} ${option.label}${description}${selected}`;
    }),
  ];
}

function pagerLines(node: Extract<ReplyNode, { type: 'pager' }>, state: State): string[] {
  const position = node.totalPages === null ? `Page ${node.page}` : `Page ${node.page} of ${node.totalPages}`;
  const lines = [node.label === undefined ? position : `${node.label} · ${position}`];
  if (!state.numbered) return lines;
  const items: string[] = [];
  if (node.prevActionId !== null) {
    const index = register(state, { actionId: node.prevActionId, label: 'Previous', kind: 'button' });
    items.push(`[${index}] ‹ Previous`);
  }
  if (node.nextActionId !== null) {
    const index = register(state, { actionId: node.nextActionId, label: 'Next', kind: 'button' });
    items.push(`[${index}] ${nextLabel(node, 'Next ›')}`);
  }
  if (items.length > 0) lines.push(items.join('  '));
  return lines;
}
