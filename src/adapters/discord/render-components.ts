/**
 * The interactive parts both Discord layouts share: buttons, selects (one choice or several) and the pager's
 * buttons, each within Discord's limits on labels, options and values.
 */
import {
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIComponentInMessageActionRow,
  type APIMessageTopLevelComponent,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import { type Button, nextLabel, type PagerNode, type SelectNode } from '../../core/ui/index.js';
import { DISCORD } from './limits.js';
import { plainLine } from './markdown.js';

/** An action row of a message. */
export type DiscordRow = APIActionRowComponent<APIComponentInMessageActionRow>;

/** A top-level component of a message: an action row, or in a Components V2 message any layout component. */
export type DiscordComponent = APIMessageTopLevelComponent;

/** Prefix of custom_ids that do nothing (disabled pager parts), never routed to the dispatcher. */
export const NOOP_PREFIX = 'scout.noop';
/** custom_id of a select that carries buttons laid out as its options; its values are the buttons' tokens. */
export const MORE_PREFIX = 'scout.more';

const STYLES: Readonly<Record<Button['style'], APIButtonComponentWithCustomId['style']>> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  danger: ButtonStyle.Danger,
};

/** A button of the model as a Discord button. */
export function buttonComponent(b: Button): APIButtonComponentWithCustomId {
  return {
    type: ComponentType.Button,
    custom_id: b.actionId,
    label: plainLine(b.label, DISCORD.BUTTON_LABEL_MAX) || '·',
    style: STYLES[b.style],
    ...(b.disabled === true ? { disabled: true } : {}),
  };
}

/** A select of the model as a string select; one that takes several choices lets every option be chosen. */
export function selectComponent(node: SelectNode): APIStringSelectComponent {
  const options = node.options.slice(0, DISCORD.SELECT_OPTIONS_MAX).map((option) => ({
    label: plainLine(option.label, DISCORD.OPTION_LABEL_MAX) || '·',
    value: option.value,
    ...(option.description === undefined
      ? {}
      : { description: plainLine(option.description, DISCORD.OPTION_DESCRIPTION_MAX) }),
    ...(node.selected === option.value ? { default: true } : {}),
  }));
  return {
    type: ComponentType.StringSelect,
    custom_id: node.actionId,
    placeholder: plainLine(node.placeholder, DISCORD.PLACEHOLDER_MAX),
    options,
    ...(node.multiple === true ? { min_values: 1, max_values: options.length } : {}),
  };
}

/** A select of buttons: choosing an option presses the button whose token is its value. */
export function buttonsSelect(
  index: number,
  placeholder: string,
  options: ReadonlyArray<{ label: string; token: string; description?: string }>,
): DiscordRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: `${MORE_PREFIX}:${index}`,
        placeholder: plainLine(placeholder, DISCORD.PLACEHOLDER_MAX),
        options: options.slice(0, DISCORD.SELECT_OPTIONS_MAX).map((option) => ({
          label: plainLine(option.label, DISCORD.OPTION_LABEL_MAX) || '·',
          value: option.token,
          ...(option.description === undefined || option.description === ''
            ? {}
            : { description: plainLine(option.description, DISCORD.OPTION_DESCRIPTION_MAX) }),
        })),
      },
    ],
  };
}

/** Where a pager is: "Page 2 of 9", or its own label. */
export function pagerLabel(node: PagerNode): string {
  const of = node.totalPages === null ? '' : ` of ${node.totalPages}`;
  return plainLine(node.label ?? `Page ${node.page}${of}`, DISCORD.BUTTON_LABEL_MAX) || `Page ${node.page}`;
}

/**
 * The pager's buttons: Previous and Next (disabled where there is no page that way), with a disabled button saying
 * where we are between them unless `indicator` is false.
 */
export function pagerButtons(node: PagerNode, indicator = true): APIButtonComponentWithCustomId[] {
  const part = (id: string | null, text: string, noop: string): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    custom_id: id ?? `${NOOP_PREFIX}:${noop}`,
    label: text,
    style: ButtonStyle.Secondary,
    ...(id === null ? { disabled: true } : {}),
  });
  return [
    part(node.prevActionId, '◀ Previous', 'prev'),
    ...(indicator ? [part(null, pagerLabel(node), 'page')] : []),
    { ...part(node.nextActionId, nextLabel(node, 'Next ▶'), 'next'), style: ButtonStyle.Primary },
  ];
}
