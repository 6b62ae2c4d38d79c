/**
 * The `/scout` application command generated from the command declarations: one subcommand group per family,
 * one subcommand per command, typed options. Commands with more options than Discord allows keep the most
 * used ones as typed options and reach the rest through a `filters` text option and a `form` modal. Secret
 * options are never registered.
 */
import {
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandSubcommandGroupOption,
  type APIApplicationCommandSubcommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { ParamSpec } from '../../core/command/params.js';
import type { CommandDef, CommandRegistry } from '../../core/command/types.js';
import { singleLine, truncate } from '../../core/ui/index.js';

/** Discord's limits on application commands (developers/interactions/application-commands.mdx). */
export const COMMAND_LIMITS = {
  /** Options, subcommands or groups under one parent. */
  OPTIONS_MAX: 25,
  /** Choices of one option. */
  CHOICES_MAX: 25,
  /** Name, description and value characters of the whole command together. */
  TOTAL_TEXT_MAX: 8000,
  NAME_MAX: 32,
  DESCRIPTION_MAX: 100,
  CHOICE_NAME_MAX: 100,
} as const;

/** The root command's name. */
export const ROOT_COMMAND = 'scout';
/** The text option that takes every filter in the chat syntax (`hairColor:blonde bio:vegan`). */
export const FILTERS_OPTION = 'filters';
/** The boolean option that opens a form (modal) for the filters without a typed option. */
export const FORM_OPTION = 'form';
/** Text options whose value names one of the team's CRM lists: they autocomplete from the service. */
export const LIST_PARAMS: ReadonlySet<string> = new Set(['list']);

// Options most people set, typed first when a command has more options than Discord allows.
const PREFERRED = [
  'source',
  'followers',
  'country',
  'countries',
  'language',
  'mainCategory',
  'categories',
  'engagementRate',
  'averageViews',
  'views',
  'viralityScore',
  'keywords',
  'nichesToPromote',
  'gender',
  'emailExists',
  'username',
  'sortBy',
  'sortOrder',
  'page',
  'perPage',
  'pageSize',
];

/** How a declared option appears on Discord. */
export interface OptionMapping {
  /** The Discord option name (lowercase snake case). */
  discordName: string;
  /** The declared option name, which the dispatcher resolves. */
  param: string;
  spec: ParamSpec;
}

/** How one command is exposed: its typed options and the declared options left to `filters` and the form. */
export interface CommandMapping {
  typed: OptionMapping[];
  overflow: OptionMapping[];
}

/** `averageViews` → `average_views`: Discord option names must be lowercase. */
export function discordName(param: string): string {
  return param
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^-_\p{L}\p{N}]/gu, '_')
    .slice(0, COMMAND_LIMITS.NAME_MAX);
}

const rank = (name: string, spec: ParamSpec, index: number) => {
  const preferred = PREFERRED.indexOf(name);
  if (spec.required === true) return index;
  if (spec.positional === true || spec.rest === true) return 1000 + index;
  return (preferred >= 0 ? 2000 + preferred : 3000) * 100 + index;
};

/**
 * Splits a command's options into typed ones (required first) and those reached through filters/form. Secret
 * options (an API key) are neither: an option's value can show in the channel, so a private form asks for them.
 */
export function mapCommand(def: CommandDef<unknown>): CommandMapping {
  const declared = Object.entries(def.params).filter(([, spec]) => spec.secret !== true);
  const entries = declared.map(([param, spec], index) => ({
    param,
    spec,
    discordName: discordName(param),
    rank: rank(param, spec, index),
  }));
  const fits = entries.length <= COMMAND_LIMITS.OPTIONS_MAX;
  // Two places go to `filters` and `form` when the options do not all fit.
  const room = fits ? entries.length : COMMAND_LIMITS.OPTIONS_MAX - 2;
  const ranked = [...entries].sort((a, b) => a.rank - b.rank);
  const typedSet = new Set(ranked.slice(0, room));
  const strip = ({ rank: _, ...mapping }: (typeof entries)[number]): OptionMapping => mapping;
  // Required options must come first; the rest keep their declared order.
  const typed = [
    ...entries.filter((e) => typedSet.has(e) && e.spec.required === true),
    ...entries.filter((e) => typedSet.has(e) && e.spec.required !== true),
  ].map(strip);
  return { typed, overflow: entries.filter((e) => !typedSet.has(e)).map(strip) };
}

const describe = (text: string, max: number) => truncate(singleLine(text), max) || '—';

/** Whether an option's value is completed as the person types (long enumerations, comma lists, CRM lists). */
export function autocompletes(param: string, spec: ParamSpec): boolean {
  if (spec.kind === 'choice') return spec.values.length > COMMAND_LIMITS.CHOICES_MAX;
  if (spec.kind === 'choices') return true;
  return spec.kind === 'text' && LIST_PARAMS.has(param);
}

function basicOption(mapping: OptionMapping, descriptionMax: number): APIApplicationCommandBasicOption {
  const { spec, param } = mapping;
  const base = {
    name: mapping.discordName,
    description: describe(spec.description, descriptionMax),
    ...(spec.required === true ? { required: true } : {}),
  };
  switch (spec.kind) {
    case 'integer':
      return { ...base, type: ApplicationCommandOptionType.Integer };
    case 'number':
      // A percent option also takes "3%", which only a text option can carry.
      return spec.percent === true
        ? { ...base, type: ApplicationCommandOptionType.String }
        : { ...base, type: ApplicationCommandOptionType.Number };
    case 'boolean':
      return { ...base, type: ApplicationCommandOptionType.Boolean };
    case 'choice':
      if (!autocompletes(param, spec)) {
        return {
          ...base,
          type: ApplicationCommandOptionType.String,
          choices: spec.values.map((value) => ({
            name: truncate(value, COMMAND_LIMITS.CHOICE_NAME_MAX),
            value,
          })),
        };
      }
      return { ...base, type: ApplicationCommandOptionType.String, autocomplete: true };
    case 'choices':
    case 'text':
    case 'texts':
    case 'range':
      return autocompletes(param, spec)
        ? { ...base, type: ApplicationCommandOptionType.String, autocomplete: true }
        : { ...base, type: ApplicationCommandOptionType.String };
    default: {
      const unknownKind: never = spec;
      throw new Error(`Unknown option kind ${JSON.stringify(unknownKind)}`);
    }
  }
}

function subcommand(
  def: CommandDef<unknown>,
  commandMax: number,
  descriptionMax: number,
): APIApplicationCommandSubcommandOption {
  const { typed, overflow } = mapCommand(def);
  const options: APIApplicationCommandBasicOption[] = typed.map((m) => basicOption(m, descriptionMax));
  if (overflow.length > 0) {
    const sample = overflow
      .slice(0, 2)
      .map((m) => `${m.param}:…`)
      .join(' ');
    options.push(
      {
        type: ApplicationCommandOptionType.String,
        name: FILTERS_OPTION,
        description: describe(`More filters as text, e.g. ${sample}`, descriptionMax),
      },
      {
        type: ApplicationCommandOptionType.Boolean,
        name: FORM_OPTION,
        description: describe('Open a form with the filters not listed here', descriptionMax),
      },
    );
  }
  return {
    type: ApplicationCommandOptionType.Subcommand,
    name: discordName(def.name),
    description: describe(def.description, commandMax),
    ...(options.length > 0 ? { options } : {}),
  };
}

/** Characters Discord counts toward a command's 8,000: every name, description and choice value. */
export function commandTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + commandTextLength(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let total = 0;
  for (const [key, item] of Object.entries(value)) {
    if ((key === 'name' || key === 'description' || key === 'value') && typeof item === 'string') {
      total += item.length;
    } else if (typeof item === 'object') {
      total += commandTextLength(item);
    }
  }
  return total;
}

// Descriptions (subcommand, option) shrink step by step until the whole command fits Discord's 8,000
// characters: names and choice values alone take about three quarters of it.
const DESCRIPTION_STEPS: ReadonlyArray<readonly [number, number]> = [
  [100, 100],
  [100, 60],
  [80, 40],
  [60, 30],
  [50, 24],
  [40, 20],
  [32, 16],
  [24, 12],
  [16, 8],
];

/** Builds the `/scout` command JSON (the body of a bulk overwrite) from the registry. */
export function buildCommandJson(
  registry: CommandRegistry,
): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  let command: RESTPostAPIChatInputApplicationCommandsJSONBody | null = null;
  for (const [commandMax, optionMax] of DESCRIPTION_STEPS) {
    const groups = registry.families.slice(0, COMMAND_LIMITS.OPTIONS_MAX).map(
      (family): APIApplicationCommandSubcommandGroupOption => ({
        type: ApplicationCommandOptionType.SubcommandGroup,
        name: discordName(family.name),
        description: describe(family.description, COMMAND_LIMITS.DESCRIPTION_MAX),
        options: family.commands
          .slice(0, COMMAND_LIMITS.OPTIONS_MAX)
          .map((def) => subcommand(def, commandMax, optionMax)),
      }),
    );
    command = {
      type: ApplicationCommandType.ChatInput,
      name: ROOT_COMMAND,
      description: 'Scout: find creators, run outreach lists, follow replies and watch viral content.',
      contexts: [InteractionContextType.Guild],
      integration_types: [ApplicationIntegrationType.GuildInstall],
      options: groups,
    };
    if (commandTextLength(command) <= COMMAND_LIMITS.TOTAL_TEXT_MAX) return [command];
  }
  throw new Error(
    `The /scout command needs ${commandTextLength(command)} characters, over Discord's ${COMMAND_LIMITS.TOTAL_TEXT_MAX}.`,
  );
}
