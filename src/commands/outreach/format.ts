/** Small formatting and layout helpers of the outreach views: times, arrows, chunks and per-item pickers. */
import type { CommandContext } from '../../core/command/types.js';
import {
  BUTTONS_PER_ROW_MAX,
  button,
  buttons,
  type Inline,
  type ReplyNode,
  SELECT_OPTIONS_MAX,
  select,
  shortText,
  text,
  toEpochMs,
} from '../../core/ui/index.js';

/** Action kind of a select that opens one item of a long page (its value is the item's position). */
export const PICK_KIND = 'outreach.pick';

/** Items per text node: keeps each node well inside the 2,000-character text limit. */
export const ITEMS_PER_TEXT = 5;

/** Above this many items per page, per-item buttons would need more than four rows, so selects are used. */
export const BUTTON_ITEMS_MAX = 4 * BUTTONS_PER_ROW_MAX;

/** Most selects under one page: four rows plus the pager fit Discord's five action rows. */
const SELECTS_MAX = 4;

/** An instant as "2026-01-04 12:30 UTC", or null when missing or unreadable. */
export function formatWhen(value: string | null | undefined): string | null {
  const ms = toEpochMs(value);
  return ms === null ? null : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The arrow of a message: → sent by the agent, ← a creator's reply. */
export function arrowOf(direction: string | null | undefined): string {
  if (direction === 'outbound') return '→';
  if (direction === 'inbound') return '←';
  return '·';
}

/** Splits a list into runs of `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Text or null, single-line and cut. */
export const clip = (value: string | null | undefined, max: number): string | null =>
  shortText(value ?? null, max);

/** One text node holding several items separated by blank lines. */
export function itemsText(items: ReadonlyArray<readonly Inline[]>): ReplyNode {
  return text(...items.flatMap((parts, i) => (i === 0 ? [...parts] : ['\n\n', ...parts])));
}

/** How an item of a page opens: a label for its button or option, and the action it runs. */
export interface ItemTarget {
  /** Option label of the select form, e.g. "3. ← Ana Lee: Collab idea". */
  readonly label: string;
  /** The value the pick action receives (a thread id, an email); null when the item cannot be opened. */
  readonly value: string | null;
}

/** What a page's per-item actions do. */
export interface ItemActions {
  /** The button word, e.g. `Conversation` (buttons read "Conversation 3"). */
  readonly verb: string;
  /** What the pick select does with its value. */
  readonly pick: 'conversation' | 'messages';
  /** The token of one item's button. */
  token(value: string): string;
}

/**
 * The text of a page, a few items per node, each run followed by its buttons ("Conversation 1".."5"); pages
 * of more than BUTTON_ITEMS_MAX items get selects instead, so the action rows stay within Discord's limit.
 */
export function itemNodes(
  ctx: CommandContext,
  lines: ReadonlyArray<readonly Inline[]>,
  targets: readonly ItemTarget[],
  actions: ItemActions,
  offset: number,
): ReplyNode[] {
  const nodes: ReplyNode[] = [];
  const useButtons = targets.length <= BUTTON_ITEMS_MAX;
  chunk(
    lines.map((line, i) => ({ line, target: targets[i], n: offset + i + 1 })),
    ITEMS_PER_TEXT,
  ).forEach((run) => {
    nodes.push(itemsText(run.map((entry) => entry.line)));
    if (!useButtons) return;
    const row = run.flatMap(({ target, n }) =>
      target?.value == null ? [] : [button(`${actions.verb} ${n}`, actions.token(target.value))],
    );
    if (row.length > 0) nodes.push(buttons(...row));
  });
  if (useButtons) return nodes;
  const openable = targets
    .map((target, i) => ({ target, n: offset + i + 1 }))
    .filter(
      (entry): entry is { target: ItemTarget & { value: string }; n: number } => entry.target.value !== null,
    );
  for (const group of chunk(openable, SELECT_OPTIONS_MAX).slice(0, SELECTS_MAX)) {
    const first = group[0]?.n ?? 0;
    const last = group[group.length - 1]?.n ?? 0;
    nodes.push(
      select({
        placeholder: `${actions.verb}: choose one of ${first}–${last}`,
        actionId: ctx.token(PICK_KIND, { pick: actions.pick, values: group.map((g) => g.target.value) }),
        options: group.map((g, i) => ({ label: g.target.label, value: String(i) })),
      }),
    );
  }
  return nodes;
}
