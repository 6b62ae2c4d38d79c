/**
 * The `/scout` application command generated from the command declarations: one subcommand group per family,
 * one subcommand per command, typed options with their declared descriptions; beside them, the adapter's own
 * `/scout ask`, whose one text option takes a request in plain words (or a command line) as a message would.
 * Discord counts every name, description and choice of the whole command toward one limit, so a command offers
 * its required options and the long enumerations people filter by most; its other options are reached through a
 * `filters` text option (the chat syntax, completing option names and values as it is typed) and the command's
 * form, which a `form` option opens on every command that has one (where no option is marked required, so that it
 * opens without them). Enumerations of more than a few values autocomplete rather than list static choices. Secret
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
import {
  type Catalogue,
  type CatalogueCommand,
  type CatalogueParam,
  completes,
  MESSAGE_MAX,
} from '../../core/chat/index.js';
import { InternalError } from '../../core/errors.js';
import { ELLIPSIS, singleLine } from '../../core/ui/index.js';

/** Discord's limits on application commands (developers/interactions/application-commands.mdx). */
export const COMMAND_LIMITS = {
  /** Options, subcommands or groups under one parent. */
  OPTIONS_MAX: 25,
  /** Choices of one option, and of one autocomplete answer. */
  CHOICES_MAX: 25,
  /** Name, description and value characters of the whole command together (commandTextLength). */
  TOTAL_TEXT_MAX: 8000,
  NAME_MAX: 32,
  DESCRIPTION_MAX: 100,
  CHOICE_NAME_MAX: 100,
  /** A string choice's value. */
  CHOICE_VALUE_MAX: 100,
} as const;

/** What `/scout` may take of Discord's 8,000 characters: a quarter stays free for what is still to come. */
export const COMMAND_TEXT_BUDGET = 6000;

/**
 * Enumerations of up to this many values are static choices; longer ones autocomplete. A static choice costs its
 * name and its value in the command's size (the 58 categories alone would take 1,400 characters), while
 * autocomplete costs nothing and lists the same values as soon as the option is opened, then narrows them to what
 * is typed, prefix first. What a static list adds is Discord refusing any other value, and Scout's own validation
 * answers a wrong value anyway (with a "did you mean"): that is worth its characters only for the shortest lists
 * (asc or desc, male or female).
 */
export const STATIC_CHOICES_MAX = 4;

/** The root command's name. */
export const ROOT_COMMAND = 'scout';
/** The text option that takes every filter in the chat syntax (`hairColor:blonde bio:vegan`). */
export const FILTERS_OPTION = 'filters';
/** The boolean option that opens a form (modal) for the filters without a typed option. */
export const FORM_OPTION = 'form';
/**
 * The top-level subcommand that takes a request in words (`/scout ask request:fitness creators in France`): the
 * adapter's own door to what a direct message reaches, not a command of Scout's, so no family may take its name.
 */
export const ASK_SUBCOMMAND = 'ask';
/** Its one required text option: the request. */
export const ASK_OPTION = 'request';

/** How a declared option appears on Discord. */
export interface OptionMapping {
  /** The Discord option name: the name people are given for the option, in lowercase. */
  discordName: string;
  /** The declared option name, which the dispatcher resolves. */
  param: string;
  spec: CatalogueParam;
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

/**
 * An option's name on Discord: the name people are given for it (`category`, `has-email`), or, should another
 * option of the command already show that name, its own declared name.
 */
function optionName(def: CatalogueCommand, param: string, taken: Set<string>): string {
  const people = discordName(def.names[param] ?? param);
  const name = taken.has(people) ? discordName(param) : people;
  taken.add(name);
  return name;
}

/** Whether an interaction's group and subcommand names are `/scout ask`, which sits outside every group. */
export const isAsk = (group: string | null, sub: string | null) => group === null && sub === ASK_SUBCOMMAND;

/** The command an interaction names by its Discord group and subcommand names (see discordName). */
export function findCommand(
  catalogue: Catalogue,
  group: string | null,
  sub: string | null,
): CatalogueCommand | undefined {
  const family = catalogue.families.find((f) => discordName(f.name) === group);
  return family?.commands.find((c) => discordName(c.name) === sub);
}

/**
 * Text on one line, cut to at most `max` characters at a word boundary and ending with an ellipsis when cut;
 * Discord refuses an empty description, so text with nothing printable becomes a dash.
 */
export function cutAtWord(text: string, max: number): string {
  const line = singleLine(text);
  if (line.length <= max) return line || '—';
  const room = line.slice(0, max - ELLIPSIS.length + 1);
  const space = room.lastIndexOf(' ');
  const words = space > 0 ? room.slice(0, space) : room.slice(0, max - ELLIPSIS.length);
  return `${words.replace(/[\s,;:(–-]+$/u, '')}${ELLIPSIS}`;
}

/**
 * Whether an option autocompletes as the person types: what the chat port completes (ChatCore.complete), but for
 * enumerations short enough to be static choices.
 */
export function autocompletes(spec: CatalogueParam): boolean {
  if (spec.kind === 'choice' && spec.values.length <= STATIC_CHOICES_MAX) return false;
  return completes(spec);
}

/**
 * A declared option as a Discord option. A required one is marked required only where `requiredMarked`: Discord's
 * client sends no command until every required option is filled in, so on a command with a form it would keep the
 * form (`form:true`) out of reach; there Scout itself asks for what is missing, with the form.
 */
function basicOption(mapping: OptionMapping, requiredMarked = true): APIApplicationCommandBasicOption {
  const { spec } = mapping;
  const base = {
    name: mapping.discordName,
    description: cutAtWord(spec.description, COMMAND_LIMITS.DESCRIPTION_MAX),
    ...(spec.required === true && requiredMarked ? { required: true } : {}),
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
      if (!autocompletes(spec)) {
        return {
          ...base,
          type: ApplicationCommandOptionType.String,
          choices: spec.values.map((value) => ({ name: value, value })),
        };
      }
      return { ...base, type: ApplicationCommandOptionType.String, autocomplete: true };
    case 'choices':
    case 'text':
    case 'texts':
    case 'range':
      return autocompletes(spec)
        ? { ...base, type: ApplicationCommandOptionType.String, autocomplete: true }
        : { ...base, type: ApplicationCommandOptionType.String };
    default: {
      const unknownKind: never = spec;
      throw new InternalError(`Unknown option kind ${JSON.stringify(unknownKind)}`);
    }
  }
}

/** Characters of a text as Discord counts them: code points. */
const characters = (text: string) => [...text].length;

/** A name or description's characters: with localizations, only the longest version counts. */
function longest(value: unknown, localizations: unknown): number {
  let most = typeof value === 'string' ? characters(value) : 0;
  if (localizations !== null && typeof localizations === 'object') {
    for (const text of Object.values(localizations)) {
      if (typeof text === 'string') most = Math.max(most, characters(text));
    }
  }
  return most;
}

interface Counted {
  name?: unknown;
  name_localizations?: unknown;
  description?: unknown;
  description_localizations?: unknown;
  value?: unknown;
  options?: unknown;
  choices?: unknown;
}

/**
 * Characters Discord counts toward a command's 8,000: "combined name, description, and value properties for each
 * command, its options (including subcommands and groups), and choices. When localization fields are present,
 * only the longest localization for each field (including the default value) is counted towards the size limit"
 * (developers/interactions/application-commands.mdx, Slash Commands). A numeric choice value counts as its
 * decimal text, which can only overstate the size.
 */
export function commandTextLength(command: unknown): number {
  if (command === null || typeof command !== 'object') return 0;
  const item = command as Counted;
  let total =
    longest(item.name, item.name_localizations) + longest(item.description, item.description_localizations);
  if (typeof item.value === 'string' || typeof item.value === 'number')
    total += characters(String(item.value));
  for (const list of [item.options, item.choices]) {
    if (Array.isArray(list)) for (const child of list) total += commandTextLength(child);
  }
  return total;
}

/** The option that reaches a command's untyped options: the chat syntax as text. */
const FILTERS: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.String,
  name: FILTERS_OPTION,
  description: 'More options as name:value',
  autocomplete: true,
};

/** The option that opens a command's form, on every command that has one. */
const FORM: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.Boolean,
  name: FORM_OPTION,
  description: 'Open a form',
};

const sizeOf = (options: readonly APIApplicationCommandBasicOption[]) =>
  options.reduce((sum, option) => sum + commandTextLength(option), 0);

const FILTERS_SIZE = sizeOf([FILTERS]);

/**
 * How early an optional option is typed, lower first: positional ones, then the long enumerations people filter by
 * most (ranked common, with more values than one answer of completions lists, so that `filters` shows them only in
 * part), by their rank; null for an option typed only when every option fits.
 */
function rankOf(m: OptionMapping): number | null {
  const { spec } = m;
  if (spec.positional === true || spec.rest === true) return -1;
  const long =
    (spec.kind === 'choice' || spec.kind === 'choices') && spec.values.length > COMMAND_LIMITS.CHOICES_MAX;
  return long && typeof spec.rank === 'object' ? spec.rank.common : null;
}

// Declarations are made once: each command is mapped once.
const MAPPINGS = new WeakMap<CatalogueCommand, CommandMapping>();

/**
 * Splits a command's options into typed ones (required first, then the others in declared order) and those
 * reached through `filters` and the form. A command types every option when its optional ones take no more
 * characters than `filters` would; otherwise its positional options and the long enumerations people filter by most
 * (see rankOf). Secret options (an API key) are neither: an option's value can show in the channel, so a private
 * form asks for them.
 */
export function mapCommand(def: CatalogueCommand): CommandMapping {
  const known = MAPPINGS.get(def);
  if (known !== undefined) return known;
  const taken = new Set<string>();
  const declared = Object.entries(def.params)
    .filter(([, spec]) => spec.secret !== true)
    .map(([param, spec]): OptionMapping => ({ param, spec, discordName: optionName(def, param, taken) }));
  const required = declared.filter((m) => m.spec.required === true);
  const optional = declared.filter((m) => m.spec.required !== true);
  const form = def.form ? 1 : 0;
  const fitsAll =
    declared.length + form <= COMMAND_LIMITS.OPTIONS_MAX &&
    sizeOf(optional.map((m) => basicOption(m))) <= FILTERS_SIZE;
  const rank = (m: OptionMapping) => rankOf(m) ?? Number.MAX_SAFE_INTEGER;
  const offered = (fitsAll ? [...optional] : optional.filter((m) => rankOf(m) !== null)).sort(
    (a, b) => rank(a) - rank(b),
  );
  const everything =
    offered.length === optional.length &&
    required.length + offered.length + form <= COMMAND_LIMITS.OPTIONS_MAX;
  const room = COMMAND_LIMITS.OPTIONS_MAX - required.length - form - (everything ? 0 : 1);
  const chosen = new Set(offered.slice(0, Math.max(0, room)));
  const mapping = {
    typed: [...required, ...optional.filter((m) => chosen.has(m))],
    overflow: optional.filter((m) => !chosen.has(m)),
  };
  MAPPINGS.set(def, mapping);
  return mapping;
}

function subcommand(def: CatalogueCommand, descriptionMax: number): APIApplicationCommandSubcommandOption {
  const { typed, overflow } = mapCommand(def);
  const { form } = def;
  const options = typed.map((mapping) => basicOption(mapping, !form));
  if (overflow.length > 0) options.push(FILTERS);
  if (form) options.push(FORM);
  return {
    type: ApplicationCommandOptionType.Subcommand,
    name: discordName(def.name),
    description: cutAtWord(def.description, descriptionMax),
    ...(options.length > 0 ? { options } : {}),
  };
}

// Discord's command picker lists each subcommand on its own line, `/scout creators search` with the subcommand's
// description ("subcommands and subcommand groups all appear at the top level in the command explorer",
// developers/interactions/application-commands.mdx): a group's description is not what people read there, so it
// stays short and leaves the characters to subcommands and options.
const GROUP_DESCRIPTION_MAX = 12;

// Subcommand descriptions are whole when the command fits its budget; otherwise every one is cut at a word boundary
// to the longest length that fits, never below this (lowered from 36 when `ask`'s 91 characters joined the
// budget, so that the command still fits). Option descriptions are never cut to fit.
const SUBCOMMAND_DESCRIPTION_MIN = 35;

/**
 * `/scout ask`: a subcommand at the top level, beside the groups, and first, so that the command picker shows it
 * first. Its request is at most what a message is read to (MESSAGE_MAX), which Discord's client enforces; its
 * descriptions are whole, since they are what tells people they may write in words.
 */
const ASK: APIApplicationCommandSubcommandOption = {
  type: ApplicationCommandOptionType.Subcommand,
  name: ASK_SUBCOMMAND,
  description: 'Ask in your own words',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: ASK_OPTION,
      description: 'What you want, in your own words: fitness creators in France',
      required: true,
      max_length: MESSAGE_MAX,
    },
  ],
};

function buildCommand(
  catalogue: Catalogue,
  descriptionMax: number,
): RESTPostAPIChatInputApplicationCommandsJSONBody {
  // One place of the top level's 25 is `ask`'s.
  const groups = catalogue.families.slice(0, COMMAND_LIMITS.OPTIONS_MAX - 1).map(
    (family): APIApplicationCommandSubcommandGroupOption => ({
      type: ApplicationCommandOptionType.SubcommandGroup,
      name: discordName(family.name),
      description: cutAtWord(family.description, GROUP_DESCRIPTION_MAX),
      options: family.commands
        .slice(0, COMMAND_LIMITS.OPTIONS_MAX)
        .map((def) => subcommand(def, descriptionMax)),
    }),
  );
  return {
    type: ApplicationCommandType.ChatInput,
    name: ROOT_COMMAND,
    description: 'Scout: find creators, run outreach lists, follow replies and watch viral content.',
    contexts: [InteractionContextType.Guild],
    integration_types: [ApplicationIntegrationType.GuildInstall],
    options: [ASK, ...groups],
  };
}

/**
 * Builds the `/scout` command JSON (the body of a bulk overwrite) from the catalogue, within COMMAND_TEXT_BUDGET
 * when subcommand descriptions of SUBCOMMAND_DESCRIPTION_MIN characters allow it; over Discord's own limit it throws.
 */
export function buildCommandJson(catalogue: Catalogue): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  if (catalogue.families.some((family) => discordName(family.name) === ASK_SUBCOMMAND))
    throw new InternalError(`A command family may not be named ${ASK_SUBCOMMAND}: /scout has its own.`);
  // The longest subcommand description that fits (the size grows with it): a binary search.
  let low = SUBCOMMAND_DESCRIPTION_MIN;
  let high = COMMAND_LIMITS.DESCRIPTION_MAX;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (commandTextLength(buildCommand(catalogue, middle)) <= COMMAND_TEXT_BUDGET) low = middle;
    else high = middle - 1;
  }
  const command = buildCommand(catalogue, low);
  const size = commandTextLength(command);
  if (size > COMMAND_LIMITS.TOTAL_TEXT_MAX) {
    throw new InternalError(
      `The /scout command needs ${size} characters, over Discord's ${COMMAND_LIMITS.TOTAL_TEXT_MAX}.`,
    );
  }
  return [command];
}
