/**
 * The search modals of `/scout creators` and `/scout viral` typed without filters: their important filters as
 * form inputs, and the submission read back into the command's options (the same names the text syntax uses).
 */
import type { types } from '@slack/bolt';
import { parseHumanNumber } from '../../core/command/params.js';
import { COUNTRIES, MAIN_CATEGORIES, SEARCH_PLATFORMS } from '../../core/service/enums.js';
import { SLACK } from '../../core/ui/index.js';
import { clip } from './mrkdwn.js';

/** callback_id of the search modals. */
export const SEARCH_MODAL = 'scout.search';

/** The families whose bare command opens a modal. */
export type ModalFamily = 'creators' | 'viral';

/** What the modal carries through Slack to its submission. */
export interface ModalMetadata {
  family: ModalFamily;
  channelId: string;
}

/** The value of one input of a submitted view, as Slack sends it. */
export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: ReadonlyArray<{ value: string }>;
}

/** Submitted view state: block id → action id → value. */
export type ViewState = Readonly<Record<string, Readonly<Record<string, ViewStateValue>>>>;

const ACTION = 'value';

interface OptionGroup {
  label: types.PlainTextElement;
  options: types.PlainTextOption[];
}

const option = (value: string): types.PlainTextOption => ({
  text: { type: 'plain_text', text: clip(value, SLACK.OPTION_TEXT_MAX) },
  value: value.slice(0, SLACK.OPTION_VALUE_MAX),
});

/** Options, or option groups of at most 100 when there are more (Slack's limit per select). */
function choices(values: readonly string[]): {
  options?: types.PlainTextOption[];
  option_groups?: OptionGroup[];
} {
  const sorted = [...values];
  if (sorted.length <= SLACK.SELECT_OPTIONS_MAX) return { options: sorted.map(option) };
  sorted.sort((a, b) => a.localeCompare(b));
  const groups: OptionGroup[] = [];
  for (let i = 0; i < sorted.length; i += SLACK.SELECT_OPTIONS_MAX) {
    const part = sorted.slice(i, i + SLACK.SELECT_OPTIONS_MAX);
    const label = `${part[0]?.[0] ?? ''}–${part[part.length - 1]?.[0] ?? ''}`;
    groups.push({ label: { type: 'plain_text', text: label }, options: part.map(option) });
  }
  return { option_groups: groups };
}

const label = (text: string): types.PlainTextElement => ({ type: 'plain_text', text });

function select(blockId: string, title: string, values: readonly string[], multi = false): types.InputBlock {
  const placeholder = label(multi ? 'Any (choose several)' : 'Any');
  const element: types.StaticSelect | types.MultiStaticSelect = multi
    ? { type: 'multi_static_select', action_id: ACTION, placeholder, ...choices(values) }
    : { type: 'static_select', action_id: ACTION, placeholder, ...choices(values) };
  return { type: 'input', block_id: blockId, optional: true, label: label(title), element };
}

function input(blockId: string, title: string, hint: string): types.InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: label(title),
    element: { type: 'plain_text_input', action_id: ACTION, placeholder: label(hint) },
  };
}

function checkbox(blockId: string, title: string, text: string): types.InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: label(title),
    element: { type: 'checkboxes', action_id: ACTION, options: [{ text: label(text), value: 'yes' }] },
  };
}

const CREATOR_INPUTS = (): types.InputBlock[] => [
  select('mainCategory', 'Category', MAIN_CATEGORIES),
  select('country', 'Country', COUNTRIES),
  select('source', 'Platform', SEARCH_PLATFORMS),
  input('followersMin', 'Followers at least', 'e.g. 10k'),
  input('followersMax', 'Followers at most', 'e.g. 250k'),
  input('engagementMin', 'Engagement at least (%)', 'e.g. 3'),
  input('nichesToPromote', 'Niche', 'e.g. yoga (comma list: all must match)'),
  input('keywords', 'Keywords', 'e.g. pilates, barre'),
  checkbox('emailExists', 'Email', 'Only creators with a known email'),
];

const VIRAL_INPUTS = (): types.InputBlock[] => [
  select('categories', 'Categories', MAIN_CATEGORIES, true),
  select('countries', 'Countries', COUNTRIES, true),
  input('viewsMin', 'Views at least', 'e.g. 1m'),
  input('viralityMin', 'Virality at least (0-1)', 'e.g. 0.5 (highly viral)'),
  input('followersMin', 'Creator followers at least', 'e.g. 10k'),
  input('followersMax', 'Creator followers at most', 'e.g. 1m'),
  input('dateCreatedFrom', 'Posted since', 'e.g. 7d or 2026-01-31'),
  input('hook', 'Hook contains', 'e.g. wait for it'),
];

/** The modal of a bare `/scout creators` or `/scout viral`. */
export function searchModal(metadata: ModalMetadata): types.ModalView {
  return {
    type: 'modal',
    callback_id: SEARCH_MODAL,
    private_metadata: JSON.stringify(metadata),
    title: label(metadata.family === 'creators' ? 'Find creators' : 'Find viral posts'),
    submit: label('Search'),
    close: label('Cancel'),
    blocks: metadata.family === 'creators' ? CREATOR_INPUTS() : VIRAL_INPUTS(),
  };
}

/** Reads the modal's metadata back; null when it is not ours. */
export function readMetadata(raw: string | undefined): ModalMetadata | null {
  try {
    const parsed: unknown = JSON.parse(raw ?? '');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { family, channelId } = parsed as Record<string, unknown>;
    if ((family !== 'creators' && family !== 'viral') || typeof channelId !== 'string') return null;
    return { family, channelId };
  } catch {
    return null;
  }
}

/** The outcome of reading a submission: command options, or errors per input for the modal to show. */
export type Submission =
  | { ok: true; options: Record<string, string> }
  | { ok: false; errors: Record<string, string> };

function valuesOf(state: ViewState): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [blockId, actions] of Object.entries(state)) {
    const value = actions[ACTION];
    if (value === undefined) continue;
    const list =
      value.selected_options?.map((o) => o.value) ??
      (value.selected_option ? [value.selected_option.value] : value.value ? [value.value.trim()] : []);
    const kept = list.filter((v) => v !== '');
    if (kept.length > 0) out.set(blockId, kept);
  }
  return out;
}

/** Reads a submitted search modal into the options the command takes. */
export function readSubmission(family: ModalFamily, state: ViewState): Submission {
  const values = valuesOf(state);
  const errors: Record<string, string> = {};
  const options: Record<string, string> = {};
  const one = (key: string) => values.get(key)?.[0];
  const number = (key: string, percent = false): string | undefined => {
    const raw = one(key);
    if (raw === undefined) return undefined;
    if (parseHumanNumber(raw, { percent }) === null) {
      errors[key] = `"${clip(raw, 40)}" is not a number: write it like 10k, 2.5 or 1m.`;
      return undefined;
    }
    return raw;
  };
  const low = number('followersMin');
  const high = number('followersMax');
  if (low !== undefined && high !== undefined) options.followers = `${low}-${high}`;
  else if (low !== undefined) options.followers = `>=${low}`;
  else if (high !== undefined) options.followers = `<=${high}`;
  const copy = (key: string, as = key) => {
    const list = values.get(key);
    if (list !== undefined) options[as] = list.join(',');
  };
  if (family === 'creators') {
    copy('mainCategory');
    copy('country');
    copy('source');
    copy('nichesToPromote');
    copy('keywords');
    const engagement = number('engagementMin', true);
    if (engagement !== undefined) options.engagementRate = `>=${engagement}`;
    if (one('emailExists') === 'yes') options.emailExists = 'yes';
  } else {
    copy('categories');
    copy('countries');
    copy('dateCreatedFrom');
    copy('hook');
    const views = number('viewsMin');
    if (views !== undefined) options.views = `>=${views}`;
    const virality = number('viralityMin');
    if (virality !== undefined) options.viralityScore = `>=${virality}`;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, options };
}
