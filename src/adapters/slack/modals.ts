/**
 * A form as a Slack modal, rendered from the platform-neutral FormSpec (core/ui/form.ts): one input block per
 * option (a select for a short list of choices, a text input with the allowed values in its hint for a long one,
 * a plain input that opens empty for a secret), and the submitted view state read back into the form's values. A
 * command's form carries only the command, the options fixed by whatever opened it and where to answer; a private
 * form (isPrivateForm: a command's secrets) carries the id core keeps it under and where to answer, never a secret.
 */
import type { types } from '@slack/bolt';
import { personOf } from '../../core/chat/index.js';
import {
  choiceLabel,
  FORM_MORE,
  type FormField,
  type FormLayout,
  type FormSpec,
  formLayout,
  isPrivateForm,
} from '../../core/ui/index.js';
import { SLACK } from './limits.js';
import { clip } from './mrkdwn.js';

/** callback_id of command forms. */
export const FORM_MODAL = 'scout.form';

/** callback_id of private forms, answered to their author alone. */
export const SECRET_MODAL = 'scout.secret';

/** Prefix of a secret field's block id. */
const SECRET_BLOCK = 'secret.';

/** Slack's limits on an input block https://docs.slack.dev/reference/block-kit/blocks/input-block */
export const INPUT_LIMITS = {
  LABEL_MAX: 2000,
  HINT_MAX: 2000,
  BLOCK_ID_MAX: 255,
  /** A plain-text input's value https://docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element */
  VALUE_MAX: 3000,
} as const;

/** Input blocks a form shows: a modal's 100 blocks, less the one that says what the form runs. */
const INPUTS_MAX = SLACK.VIEW_BLOCKS_MAX - 1;

/** What the modal carries through Slack to its submission. */
export interface FormMetadata {
  /**
   * Which form: the id core keeps a private form under, or the command and the options set by whatever opened its
   * form, sent with it.
   */
  form: string | { family: string; command: string; fixed: Record<string, string> };
  channelId: string;
  /** The response_url of the command or press that opened the form, to answer as a typed command is answered. */
  responseUrl: string | null;
  /** When that response_url was issued (ms since the epoch), which sets how long it takes answers. */
  responseUrlAt: number | null;
  /**
   * The thread of the message whose button opened the form (a DM's thread, a mention's): the form is answered
   * there, as the press would have been, not at the top of the channel where its response_url posts.
   */
  threadTs?: string;
}

/** The value of one input of a submitted view, as Slack sends it. */
export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: ReadonlyArray<{ value: string }>;
  /** A users_select's choice. */
  selected_user?: string | null;
}

/** Submitted view state: block id → action id → value. */
export type ViewState = Readonly<Record<string, Readonly<Record<string, ViewStateValue>>>>;

const ACTION = 'value';

/**
 * Suffix of the block that offers a person field's other words (`everyone`) as checkboxes beside its user picker,
 * which cannot offer them.
 */
const ALSO = '+also';

const plain = (text: string, max: number): types.PlainTextElement => ({
  type: 'plain_text',
  text: clip(text, max),
});

const option = (value: string): types.PlainTextOption => ({
  text: plain(choiceLabel(value), SLACK.OPTION_TEXT_MAX),
  value,
});

/** A select can offer the choices: at most 100, each a valid option value. */
const selectable = (values: readonly string[]) =>
  values.length > 0 &&
  values.length <= SLACK.SELECT_OPTIONS_MAX &&
  values.every((value) => value.length <= SLACK.OPTION_VALUE_MAX);

function elementOf(field: FormField): types.InputBlockElement {
  // A secret opens empty and shows no example (Slack has no password input).
  if (field.input === 'secret') return { type: 'plain_text_input', action_id: ACTION };
  const placeholder = plain(field.placeholder === '' ? field.label : `e.g. ${field.placeholder}`, 150);
  if (field.input === 'person') {
    // A text input cannot carry a mention: a person is picked
    // (https://docs.slack.dev/reference/block-kit/block-elements/users-select-element).
    const initial = field.value !== undefined && personOf(field.value, 'slack');
    return {
      type: 'users_select',
      action_id: ACTION,
      placeholder: plain('Choose a person', 150),
      ...(typeof initial === 'string' ? { initial_user: initial } : {}),
    };
  }
  const choices = field.input === 'yes-no' ? ['yes', 'no'] : field.choices;
  if ((field.input === 'choice' || field.input === 'yes-no') && selectable(choices)) {
    const options = choices.map(option);
    const initial = options.find((o) => o.value === field.value);
    return {
      type: 'static_select',
      action_id: ACTION,
      placeholder: plain('Choose', 150),
      options,
      ...(initial === undefined ? {} : { initial_option: initial }),
    };
  }
  if (field.input === 'choices' && selectable(choices)) {
    const options = choices.map(option);
    const chosen = new Set((field.value ?? '').split(',').map((v) => v.trim()));
    const initial = options.filter((o) => o.value !== undefined && chosen.has(o.value));
    return {
      type: 'multi_static_select',
      action_id: ACTION,
      placeholder: plain('Choose one or more', 150),
      options,
      ...(initial.length === 0 ? {} : { initial_options: initial }),
    };
  }
  return {
    type: 'plain_text_input',
    action_id: ACTION,
    multiline: field.input === 'lines',
    placeholder,
    ...(field.value === undefined ? {} : { initial_value: field.value.slice(0, INPUT_LIMITS.VALUE_MAX) }),
  };
}

/** A field's input block; a person field's other words follow it as checkboxes (then the picker may stay empty). */
function inputBlocks(field: FormField): types.InputBlock[] {
  const also = field.input === 'person' ? field.also : [];
  const name = field.input === 'secret' ? `${SECRET_BLOCK}${field.name}` : field.name;
  const block: types.InputBlock = {
    type: 'input',
    block_id: name.slice(0, INPUT_LIMITS.BLOCK_ID_MAX - ALSO.length),
    optional: !field.required || also.length > 0,
    label: plain(field.label, INPUT_LIMITS.LABEL_MAX),
    ...(field.hint === '' ? {} : { hint: plain(field.hint, INPUT_LIMITS.HINT_MAX) }),
    element: elementOf(field),
  };
  if (also.length === 0) return [block];
  const options = also.map((word) => ({
    text: plain(word.charAt(0).toUpperCase() + word.slice(1), SLACK.OPTION_TEXT_MAX),
    value: word,
  }));
  const chosen = options.filter((o) => o.value === field.value);
  return [
    block,
    {
      type: 'input',
      block_id: `${block.block_id}${ALSO}`,
      optional: true,
      label: plain('Instead of a person', INPUT_LIMITS.LABEL_MAX),
      element: {
        type: 'checkboxes',
        action_id: ACTION,
        options,
        ...(chosen.length === 0 ? {} : { initial_options: chosen }),
      },
    },
  ];
}

function moreBlock(layout: FormLayout): types.InputBlock {
  const names = layout.rest.map((field) => `${field.name}:`).join(' ');
  return {
    type: 'input',
    block_id: FORM_MORE,
    optional: true,
    label: plain('More options', INPUT_LIMITS.LABEL_MAX),
    hint: plain(`Written name:value, as after the command: ${names}`, INPUT_LIMITS.HINT_MAX),
    element: {
      type: 'plain_text_input',
      action_id: ACTION,
      multiline: true,
      ...(layout.moreText === '' ? {} : { initial_value: layout.moreText }),
    },
  };
}

/** How Slack lays out `spec`: every field, within the modal's blocks. */
export function slackLayout(spec: FormSpec): FormLayout {
  return formLayout(spec, INPUTS_MAX);
}

/** Where a form's answer goes, as its modal carries it. */
export type ModalWhere = Pick<FormMetadata, 'channelId' | 'responseUrl' | 'responseUrlAt' | 'threadTs'>;

/** What a private form says above its inputs. */
const PRIVATE_NOTE =
  'Only you see this form. Scout checks what you enter with the service, keeps it encrypted and never shows it again.';

/** The block that says what the form is: what it runs, or that it is private. */
function aboutBlock(spec: FormSpec): types.KnownBlock {
  if (isPrivateForm(spec)) return { type: 'section', text: { type: 'mrkdwn', text: PRIVATE_NOTE } };
  const fixed = Object.entries(spec.fixed).map(([name, value]) => `${name}: ${value}`);
  return { type: 'context', elements: [plain([spec.line, ...fixed].join(' · '), 2000)] };
}

/**
 * The modal of the form `id` shows (`spec`); null when what it must carry does not fit Slack's metadata limit. A
 * command's form carries its command and fixed options, a private form its id.
 */
export function formModal(form: { id: string; spec: FormSpec }, where: ModalWhere): types.ModalView | null {
  const { spec } = form;
  const privately = isPrivateForm(spec);
  const carried = privately
    ? { id: form.id }
    : { family: spec.family, command: spec.command, fixed: { ...spec.fixed } };
  const privateMetadata = JSON.stringify({ ...carried, ...where });
  if (privateMetadata.length > SLACK.MODAL_PRIVATE_METADATA_MAX) return null;
  const layout = slackLayout(spec);
  return {
    type: 'modal',
    callback_id: privately ? SECRET_MODAL : FORM_MODAL,
    private_metadata: privateMetadata,
    title: plain(privately ? spec.line : spec.title, SLACK.MODAL_TITLE_MAX),
    submit: plain(privately ? 'Submit' : 'Run', SLACK.MODAL_TITLE_MAX),
    close: plain('Cancel', SLACK.MODAL_TITLE_MAX),
    blocks: [
      aboutBlock(spec),
      ...layout.shown.flatMap(inputBlocks),
      ...(layout.more ? [moreBlock(layout)] : []),
    ],
  };
}

/** The form a modal's metadata names: a private form's id, or a command's form with its fixed options. */
function formOf(carried: Record<string, unknown>): FormMetadata['form'] | null {
  const { id, family, command, fixed } = carried;
  if (typeof id === 'string') return id;
  // A private form's metadata from before it carried an id (its command and its fields' names) reads as its
  // command's form, which a command of secrets has not: its submission is answered as expired.
  if (typeof family !== 'string' || typeof command !== 'string') return null;
  const kept: Record<string, string> = {};
  if (typeof fixed === 'object' && fixed !== null)
    for (const [key, value] of Object.entries(fixed)) if (typeof value === 'string') kept[key] = value;
  return { family, command, fixed: kept };
}

/** Reads the modal's metadata back; null when it is not ours. */
export function readFormMetadata(raw: string | undefined): FormMetadata | null {
  try {
    const parsed: unknown = JSON.parse(raw ?? '');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const carried = parsed as Record<string, unknown>;
    const { channelId, responseUrl, responseUrlAt, threadTs } = carried;
    const form = formOf(carried);
    if (form === null || typeof channelId !== 'string') return null;
    return {
      form,
      channelId,
      responseUrl: typeof responseUrl === 'string' ? responseUrl : null,
      responseUrlAt: typeof responseUrlAt === 'number' ? responseUrlAt : null,
      ...(typeof threadTs === 'string' && threadTs !== '' ? { threadTs } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * The values of a submitted form by input id (an option's name, or FORM_MORE), several choices comma-joined, a
 * person field's other word in its place; and a problem for each field given two values at once (a person picked
 * and `everyone` ticked).
 */
export function readFormState(state: ViewState): {
  values: Record<string, string>;
  errors: Record<string, string>;
} {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const also: Array<[string, string]> = [];
  for (const [blockId, actions] of Object.entries(state)) {
    const value = actions[ACTION];
    if (value === undefined) continue;
    const list =
      value.selected_options?.map((o) => o.value) ??
      (value.selected_option ? [value.selected_option.value] : [value.selected_user ?? value.value ?? '']);
    const joined = list.join(',').trim();
    if (joined === '') continue;
    if (blockId.endsWith(ALSO)) also.push([blockId.slice(0, -ALSO.length), joined]);
    else values[blockId.startsWith(SECRET_BLOCK) ? blockId.slice(SECRET_BLOCK.length) : blockId] = joined;
  }
  for (const [name, word] of also) {
    if (values[name] === undefined) values[name] = word;
    else errors[name] = `Choose a person or ${word.replace(/,/g, ' or ')}, not both.`;
  }
  return { values, errors };
}

/** Problems keyed by input id (an option's name, or FORM_MORE), keyed by the blocks that show them. */
export function blockErrors(
  errors: Readonly<Record<string, string>>,
  privately: boolean,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([name, message]) => [privately ? `${SECRET_BLOCK}${name}` : name, message]),
  );
}
