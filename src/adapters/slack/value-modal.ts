/**
 * Typing a choice a picker cannot show: a picker select that is full (the core shows at most
 * SELECT_OPTIONS_MAX lists) and whose action takes a typed value (SelectNode.typed) gets a button that opens a modal with a text input; its submission runs the
 * select's action token with the typed text as the chosen value.
 */
import type { types } from '@slack/bolt';
import { SELECT_OPTIONS_MAX, type SelectNode } from '../../core/ui/index.js';
import { SLACK } from './limits.js';
import { clip } from './mrkdwn.js';

/** Action id prefix of the "type a name" buttons; the select's token follows it. */
export const TYPE_PREFIX = 'scout.type:';

/** callback_id of the modal the button opens. */
export const VALUE_MODAL = 'scout.value';

const BLOCK = 'value';
const ACTION = 'value';
const VALUE_MAX = 150;

/** The button beside a picker that cannot offer every choice; null when the picker shows them all. */
export function typeButton(node: SelectNode): types.Button | null {
  const actionId = `${TYPE_PREFIX}${node.actionId}`;
  if (node.typed !== true || node.options.length < SELECT_OPTIONS_MAX) return null;
  if (actionId.length > SLACK.ACTION_ID_MAX) return null;
  return {
    type: 'button',
    text: { type: 'plain_text', text: 'Type a name…', emoji: true },
    action_id: actionId,
    // The press of an ephemeral message carries no blocks: the value brings the words for the modal.
    value: clip(node.placeholder, SLACK.BUTTON_VALUE_MAX),
  };
}

/** What the modal carries to its submission. */
export interface ValueMetadata {
  token: string;
  channelId: string;
  /** The picker's response_url: the answer replaces the picker, ephemerally. */
  responseUrl: string | null;
}

/** The modal with one text input for the value of `metadata.token`. */
export function valueModal(metadata: ValueMetadata, prompt: string): types.ModalView {
  return {
    type: 'modal',
    callback_id: VALUE_MODAL,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text', text: clip(prompt, SLACK.MODAL_TITLE_MAX) },
    submit: { type: 'plain_text', text: 'OK' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: BLOCK,
        label: { type: 'plain_text', text: 'Name' },
        element: {
          type: 'plain_text_input',
          action_id: ACTION,
          max_length: VALUE_MAX,
          placeholder: { type: 'plain_text', text: 'The name, or the start of it' },
        },
      },
    ],
  };
}

/** Reads the modal's metadata back; null when it is not ours. */
export function readValueMetadata(raw: string | undefined): ValueMetadata | null {
  try {
    const parsed: unknown = JSON.parse(raw ?? '');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { token, channelId, responseUrl } = parsed as Record<string, unknown>;
    if (typeof token !== 'string' || typeof channelId !== 'string') return null;
    return { token, channelId, responseUrl: typeof responseUrl === 'string' ? responseUrl : null };
  } catch {
    return null;
  }
}

/** The typed value of a submitted modal, trimmed; empty when nothing was typed. */
export function readValue(
  state: Readonly<Record<string, Readonly<Record<string, { value?: string | null }>>>>,
) {
  return state[BLOCK]?.[ACTION]?.value?.trim() ?? '';
}
