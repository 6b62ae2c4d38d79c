/**
 * Discord modals: a form, rendered from the platform-neutral FormSpec (core/ui/form.ts) within Discord's five inputs
 * (the most used options as their own inputs, the rest in one "more options" input written in the text syntax); a
 * private form's secrets are short inputs that open empty.
 */
import {
  type APIModalInteractionResponseCallbackData,
  ComponentType,
  type ModalSubmitInteraction,
  TextInputStyle,
} from 'discord.js';
import { helpLineOf, USER_ID_EXAMPLE } from '../../core/chat/index.js';
import {
  choicesText,
  FORM_MORE,
  type FormField,
  type FormLayout,
  type FormSpec,
  formLayout,
  singleLine,
  truncate,
} from '../../core/ui/index.js';
import { DISCORD } from './limits.js';

/** Text inputs per modal (Discord's five components). */
const INPUTS_MAX = DISCORD.MODAL_COMPONENTS_MAX;
/** A text input's label, placeholder and value (developers/components/reference.mdx, Text Input). */
export const TEXT_INPUT_LIMITS = { LABEL_MAX: 45, PLACEHOLDER_MAX: 100, VALUE_MAX: 4000 } as const;
const LABEL_MAX = TEXT_INPUT_LIMITS.LABEL_MAX;
const VALUE_MAX = TEXT_INPUT_LIMITS.VALUE_MAX;

interface Input {
  id: string;
  label: string;
  placeholder?: string;
  paragraph?: boolean;
  required?: boolean;
  value?: string;
}

function modal(
  customId: string,
  title: string,
  inputs: readonly Input[],
): APIModalInteractionResponseCallbackData {
  return {
    custom_id: customId,
    title: truncate(singleLine(title), DISCORD.MODAL_TITLE_MAX),
    components: inputs.slice(0, INPUTS_MAX).map((input) => ({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.TextInput,
          custom_id: input.id,
          label: truncate(singleLine(input.label), LABEL_MAX),
          style: input.paragraph === true ? TextInputStyle.Paragraph : TextInputStyle.Short,
          required: input.required === true,
          max_length: VALUE_MAX,
          ...(input.placeholder === undefined
            ? {}
            : { placeholder: truncate(singleLine(input.placeholder), TEXT_INPUT_LIMITS.PLACEHOLDER_MAX) }),
          ...(input.value === undefined ? {} : { value: input.value.slice(0, VALUE_MAX) }),
        },
      ],
    })),
  };
}

/** How Discord lays out `spec`: four inputs and "more" when the options do not fit five. */
export function discordLayout(spec: FormSpec): FormLayout {
  return formLayout(spec, INPUTS_MAX);
}

const PLACEHOLDER_MAX = TEXT_INPUT_LIMITS.PLACEHOLDER_MAX;

/**
 * What a field's placeholder says, a modal's only room for help: the allowed values when they fit; else what the
 * field allows (bounds, a range's form, its default), or the option's help when that says nothing more, with an
 * example; shorter versions where that does not fit.
 */
function placeholderOf(field: FormField): string {
  // A modal's text input takes no mention: a person is named by their user id.
  if (field.input === 'person')
    return `User ID such as ${USER_ID_EXAMPLE.discord} (Developer Mode: right-click, Copy User ID)${field.also.map((word) => `, or ${word}`).join('')}`;
  if (field.choices.length > 0) {
    const prefix = field.input === 'choices' ? 'any of: ' : '';
    const listed = choicesText(field.choices, PLACEHOLDER_MAX - prefix.length);
    if (listed !== null) return `${prefix}${listed}`;
  }
  const { description } = field;
  const allows = unsaid(field.allows, description);
  const example =
    field.placeholder === '' || field.input === 'yes-no' || description.includes(field.placeholder)
      ? ''
      : `e.g. ${field.placeholder}`;
  const join = (...parts: string[]) => parts.filter((part) => part !== '').join(' ');
  const full = join(description, allows, example);
  const versions = [
    full,
    join(description, allows),
    join(allows, example),
    allows,
    join(description, example),
  ];
  return [...versions, description, example].find((t) => t !== '' && t.length <= PLACEHOLDER_MAX) ?? full;
}

/** The sentences of `allows` that `description` does not already say: one whose numbers it all gives is left out. */
function unsaid(allows: string, description: string): string {
  const numbers = (text: string) => text.match(/-?\d+(?:\.\d+)?[kmb]?/gi) ?? [];
  const said = new Set(numbers(description));
  return allows
    .split(/(?<=\.)\s+/)
    .filter((sentence) => {
      const own = numbers(sentence);
      return own.length === 0 || !own.every((n) => said.has(n));
    })
    .join(' ');
}

/**
 * The "more options" input's placeholder: the names of the options it takes, the most used first, as many as fit,
 * then where the help lists them all.
 */
function morePlaceholder(spec: FormSpec, rest: readonly FormField[]): string {
  const names = rest.map((field) => `${field.name}:`);
  if (names.join(' ').length <= PLACEHOLDER_MAX) return names.join(' ');
  const help = ` … all in ${helpLineOf(spec.family, spec.command)}`;
  let shown = '';
  for (const name of names) {
    const next = shown === '' ? name : `${shown} ${name}`;
    if (next.length + help.length > PLACEHOLDER_MAX) break;
    shown = next;
  }
  return `${shown}${help}`;
}

/** The modal of `spec`, submitted under `customId` (the form id that opened it). */
export function commandModal(customId: string, spec: FormSpec): APIModalInteractionResponseCallbackData {
  const layout = discordLayout(spec);
  const inputs: Input[] = layout.shown.map((field) => ({
    id: field.name,
    label: field.label,
    ...(field.input === 'secret' ? {} : { placeholder: placeholderOf(field) }),
    paragraph: field.input === 'lines',
    required: field.required,
    ...(field.value === undefined ? {} : { value: field.value }),
  }));
  if (layout.more) {
    inputs.push({
      id: FORM_MORE,
      label: 'More options (name:value …)',
      placeholder: morePlaceholder(spec, layout.rest),
      paragraph: true,
      ...(layout.moreText === '' ? {} : { value: layout.moreText }),
    });
  }
  return modal(customId, `/scout ${spec.title}`, inputs);
}

/** The non-empty values of a submitted modal, by field id (an option's name, or FORM_MORE). */
export function modalValues(interaction: ModalSubmitInteraction): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of interaction.fields.fields.values()) {
    if ('value' in field && typeof field.value === 'string' && field.value.trim() !== '') {
      values[field.customId] = field.value.trim();
    }
  }
  return values;
}
