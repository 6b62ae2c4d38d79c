/**
 * Readable rows from songs data. Rankings (the one documented shape) become a ranked list with movement; every
 * other shape is described generically: the first list in the response becomes rows, the other members facts.
 * Nothing here trusts the shape: any value renders as some text.
 */
import type { SongsResult } from '../../core/service/index.js';
import { formatAmount, MISSING, shortText, singleLine, type TextNode, text } from '../../core/ui/index.js';

/** One line of a songs reply; `songId` lets a chart line offer its history. */
export interface SongRow {
  text: string;
  songId: string | null;
  /** Short name of the row for menus: `Title — Artist`. */
  label: string;
}

/** A label/value pair describing the response as a whole (country, week, counts). */
export interface SongFact {
  label: string;
  value: string;
}

/** What a songs reply shows. */
export interface SongView {
  rows: SongRow[];
  facts: SongFact[];
}

const ROW_MAX = 300;
const LABEL_MAX = 70;
const VALUE_MAX = 200;
const LIST_SHOWN = 10;
const OBJECT_ENTRIES_SHOWN = 6;
/** Facts shown; a fields node holds at most ten. */
const FACTS_MAX = 10;
/** Characters per text node, well inside the smallest platform text limit. */
const TEXT_NODE_CHARS = 1800;

type Dict = Record<string, unknown>;

const isDict = (value: unknown): value is Dict =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown) =>
  value === null || value === undefined || ['string', 'number', 'boolean', 'bigint'].includes(typeof value);

/** `weeks_on_chart` -> `weeks on chart`, `peakRank` -> `peak rank`. */
export function humanize(key: string): string {
  const words = singleLine(key)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? 'value' : words;
}

const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return MISSING;
  if (typeof value === 'number') return formatAmount(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return shortText(String(value), VALUE_MAX) ?? MISSING;
}

function compactJson(value: unknown): string {
  try {
    return shortText(JSON.stringify(value) ?? String(value), VALUE_MAX) ?? MISSING;
  } catch {
    return '{…}';
  }
}

/** Any value as one short line. */
export function valueText(value: unknown): string {
  if (isScalar(value)) return scalarText(value);
  if (Array.isArray(value)) {
    if (!value.every(isScalar)) return `${value.length} items`;
    const shown = value.slice(0, LIST_SHOWN).map(scalarText).join(', ');
    return value.length > LIST_SHOWN ? `${shown} (+${value.length - LIST_SHOWN} more)` : shown || MISSING;
  }
  if (isDict(value)) {
    const entries = Object.entries(value).filter(([, v]) => isScalar(v));
    if (entries.length === 0) return compactJson(value);
    return entries
      .slice(0, OBJECT_ENTRIES_SHOWN)
      .map(([k, v]) => `${humanize(k)}: ${scalarText(v)}`)
      .join(' · ');
  }
  return compactJson(value);
}

const idOf = (item: Dict): string | null => {
  const raw = item.id ?? item.song_id ?? item.songId;
  return typeof raw === 'string' || typeof raw === 'number' ? (shortText(String(raw), 100) ?? null) : null;
};

const nameOf = (item: Dict): string | null => {
  const title = item.title ?? item.name;
  if (typeof title !== 'string' || title.trim() === '') return null;
  const artist = typeof item.artist === 'string' && item.artist.trim() !== '' ? ` — ${item.artist}` : '';
  return singleLine(`${title}${artist}`);
};

const rankOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'string' && /^\d+$/.test(value.trim())
      ? Number(value)
      : null;

/** How a chart entry moved since last week: `▲2 (was #5)`, `▼1 (was #3)`, `= (was #4)`, `new`, `re-entry`. */
export function movement(rank: number, previous: number | null, weeksOnChart: number | null): string {
  if (previous === null) return weeksOnChart !== null && weeksOnChart > 1 ? 're-entry' : 'new';
  if (previous > rank) return `▲${previous - rank} (was #${previous})`;
  if (previous < rank) return `▼${rank - previous} (was #${previous})`;
  return `= (was #${previous})`;
}

function rankedRow(item: Dict): SongRow {
  const rank = rankOf(item.rank) as number;
  const name = nameOf(item) ?? 'Untitled';
  const weeks = rankOf(item.weeks_on_chart);
  const peak = rankOf(item.peak_rank);
  const songId = idOf(item);
  const parts = [
    `#${rank} ${name}`,
    movement(rank, rankOf(item.previous_rank), weeks),
    weeks === null ? null : `${weeks} wk${weeks === 1 ? '' : 's'}`,
    peak === null ? null : `peak #${peak}`,
    songId,
  ];
  return {
    text: shortText(parts.filter((part) => part !== null).join(' · '), ROW_MAX) ?? name,
    songId,
    label: shortText(name, LABEL_MAX) ?? name,
  };
}

function genericRow(item: unknown): SongRow {
  if (!isDict(item)) {
    const line = valueText(item);
    return { text: line, songId: null, label: shortText(line, LABEL_MAX) ?? line };
  }
  const name = nameOf(item);
  const skip = new Set(name === null ? [] : ['title', 'name', 'artist']);
  const rest = Object.entries(item)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${humanize(key)} ${valueText(value)}`);
  const line = [name, ...rest].filter((part) => part !== null).join(' · ') || MISSING;
  const songId = idOf(item);
  const label = name ?? songId ?? line;
  return {
    text: shortText(line, ROW_MAX) ?? MISSING,
    songId,
    label: shortText(label, LABEL_MAX) ?? MISSING,
  };
}

const isRanked = (rows: readonly unknown[]) =>
  rows.length > 0 &&
  rows.every((row) => isDict(row) && rankOf(row.rank) !== null && typeof row.title === 'string');

/** Describes a songs result: rows from its list (ranked when it is a chart), facts from its other members. */
export function songView(result: SongsResult): SongView {
  const response: Dict = isDict(result.response) ? result.response : {};
  const listKey = Array.isArray(response.data)
    ? 'data'
    : (Object.keys(response).find((key) => Array.isArray(response[key])) ?? null);
  const list: unknown[] = listKey === null ? [] : (response[listKey] as unknown[]);
  const ranked = isRanked(list);
  const rows = list.map((item) => (ranked ? rankedRow(item as Dict) : genericRow(item)));
  const facts = Object.entries(response)
    .filter(([key]) => key !== listKey)
    .slice(0, FACTS_MAX)
    .map(([key, value]) => ({ label: capitalize(humanize(key)), value: valueText(value) }));
  return { rows, facts };
}

/** Rows as text nodes, each well inside the platforms' text limits. */
export function rowNodes(rows: readonly SongRow[]): TextNode[] {
  const nodes: TextNode[] = [];
  let block = '';
  for (const row of rows) {
    if (block !== '' && block.length + row.text.length + 1 > TEXT_NODE_CHARS) {
      nodes.push(text(block));
      block = '';
    }
    block = block === '' ? row.text : `${block}\n${row.text}`;
  }
  if (block !== '') nodes.push(text(block));
  return nodes;
}
