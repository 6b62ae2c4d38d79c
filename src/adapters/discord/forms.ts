/**
 * Discord modals: the contact-update form behind "Edit", the form for filters without a typed option, and the
 * private form that asks for a command's secret options (an API key).
 */
import {
  type APIModalInteractionResponseCallbackData,
  ComponentType,
  type ModalSubmitInteraction,
  TextInputStyle,
} from 'discord.js';
import type { ParamSpec } from '../../core/command/params.js';
import { DISCORD, singleLine, truncate } from '../../core/ui/index.js';
import { FILTERS_OPTION, type OptionMapping } from './commands.js';

/** Element kinds whose button opens the contact-update modal instead of running at once. */
export const CONTACT_EDIT_KINDS: ReadonlySet<string> = new Set(['list.edit']);
/** Element kind of a stored filters form (its payload: family, command, typed options). */
export const FORM_KIND = 'discord.form';
/** Element kind of a stored secrets form (its payload: family, command, options given, secret field names). */
export const SECRET_FORM_KIND = 'discord.secret';
/** Text inputs per modal (Discord's five components). */
const INPUTS_MAX = DISCORD.MODAL_COMPONENTS_MAX;
const LABEL_MAX = 45;
const VALUE_MAX = 4000;

interface Input {
  id: string;
  label: string;
  placeholder?: string;
  paragraph?: boolean;
  required?: boolean;
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
            : { placeholder: truncate(singleLine(input.placeholder), 100) }),
        },
      ],
    })),
  };
}

/** The contact-update modal: status, notes, email and rates; empty fields leave the contact as it is. */
export function contactModal(token: string): APIModalInteractionResponseCallbackData {
  return modal(token, 'Update contact', [
    { id: 'status', label: 'Status', placeholder: 'to contact, contacted, negotiating, agreed, declined…' },
    { id: 'notes', label: 'Notes', paragraph: true },
    { id: 'contactEmail', label: 'Email', placeholder: 'ana@example.com' },
    { id: 'proposedRate', label: 'Proposed rate', placeholder: '500' },
    { id: 'agreedRate', label: 'Agreed rate', placeholder: '450' },
  ]);
}

const example = (spec: ParamSpec) => spec.example ?? spec.description;

/** The filters form of a command: the first overflow options as fields, the rest as one text field. */
export function filtersModal(
  token: string,
  title: string,
  overflow: readonly OptionMapping[],
): APIModalInteractionResponseCallbackData {
  const own = overflow.slice(0, INPUTS_MAX - 1);
  const rest = overflow.slice(INPUTS_MAX - 1);
  const inputs: Input[] = own.map((m) => ({ id: m.param, label: m.param, placeholder: example(m.spec) }));
  inputs.push({
    id: FILTERS_OPTION,
    label: 'More filters (name:value)',
    placeholder: rest.length === 0 ? 'name:value …' : rest.map((m) => `${m.param}:`).join(' '),
    paragraph: true,
  });
  return modal(token, title, inputs);
}

/** The secrets form: one required field per secret option, its id the option's name. */
export function secretModal(
  token: string,
  title: string,
  fields: ReadonlyArray<{ name: string; label: string }>,
): APIModalInteractionResponseCallbackData {
  return modal(
    token,
    title,
    fields.map((field) => ({ id: field.name, label: field.label, required: true })),
  );
}

/** The non-empty values of a submitted modal, by field id. */
export function modalValues(interaction: ModalSubmitInteraction): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of interaction.fields.fields.values()) {
    if ('value' in field && typeof field.value === 'string' && field.value.trim() !== '') {
      values[field.customId] = field.value.trim();
    }
  }
  return values;
}
