/**
 * Autocomplete for `/scout` options: long enumerations (categories, countries, languages), comma lists of
 * allowed values (completing the last item) and the team's CRM lists, read from the service with the server's
 * own account (none before the server connects one).
 */
import type { ApplicationCommandOptionChoiceData, AutocompleteInteraction } from 'discord.js';
import type { App } from '../../app.js';
import type { ParamSpec } from '../../core/command/params.js';
import { fold } from '../../core/command/suggest.js';
import type { Logger } from '../../core/logger.js';
import type { ServiceClient } from '../../core/service/index.js';
import { DISCORD, truncate } from '../../core/ui/index.js';
import { COMMAND_LIMITS, discordName, LIST_PARAMS, mapCommand } from './commands.js';
import { tenantOfInteraction } from './tenancy.js';

/** Discord answers autocomplete only within 3 seconds; the CRM lookup gives up before that. */
export const LIST_LOOKUP_TIMEOUT_MS = 2000;

const choice = (name: string, value: string): ApplicationCommandOptionChoiceData<string> => ({
  name: truncate(name, COMMAND_LIMITS.CHOICE_NAME_MAX),
  value,
});

/** The allowed values matching what was typed: prefix matches first, then any containing match. */
export function matchValues(values: readonly string[], typed: string): string[] {
  const wanted = fold(typed);
  if (wanted === '') return values.slice(0, COMMAND_LIMITS.CHOICES_MAX);
  const starts = values.filter((v) => fold(v).startsWith(wanted));
  const contains = values.filter((v) => !fold(v).startsWith(wanted) && fold(v).includes(wanted));
  return [...starts, ...contains].slice(0, COMMAND_LIMITS.CHOICES_MAX);
}

/** Suggestions for an option of an enumerated kind; a comma list completes its last item. */
export function enumSuggestions(
  spec: ParamSpec,
  typed: string,
): ApplicationCommandOptionChoiceData<string>[] {
  if (spec.kind === 'choice') return matchValues(spec.values, typed).map((v) => choice(v, v));
  if (spec.kind !== 'choices') return [];
  const parts = typed.split(',');
  const last = parts.pop() ?? '';
  const done = parts.map((p) => p.trim()).filter((p) => p !== '');
  const prefix = done.length === 0 ? '' : `${done.join(',')},`;
  return matchValues(
    spec.values.filter((v) => !done.includes(v)),
    last,
  )
    .map((v) => `${prefix}${v}`)
    .filter((v) => v.length <= DISCORD.OPTION_VALUE_MAX)
    .map((v) => choice(v, v));
}

async function listSuggestions(
  service: ServiceClient,
  typed: string,
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LIST_LOOKUP_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const result = await Promise.race([service.crm.listLists(), timeout]);
    if (result === null) return [];
    const names = result.data.lists
      .map((list) => list.name ?? list.id)
      .filter((name) => name.length <= DISCORD.OPTION_VALUE_MAX);
    return matchValues(names, typed).map((name) => choice(name, name));
  } finally {
    clearTimeout(timer);
  }
}

/** Answers one autocomplete interaction; on any failure it answers with no suggestions. */
export async function answerAutocomplete(interaction: AutocompleteInteraction, app: App, logger: Logger) {
  let suggestions: ApplicationCommandOptionChoiceData<string>[] = [];
  try {
    const family = app.registry.families.find(
      (f) => discordName(f.name) === interaction.options.getSubcommandGroup(false),
    );
    const def = family?.commands.find(
      (c) => discordName(c.name) === interaction.options.getSubcommand(false),
    );
    const focused = interaction.options.getFocused(true);
    const mapping =
      def === undefined ? undefined : mapCommand(def).typed.find((m) => m.discordName === focused.name);
    if (mapping !== undefined && LIST_PARAMS.has(mapping.param)) {
      // The lists of this server's own account; a server without one (or outside) gets none.
      const access = await app.tenants.access(tenantOfInteraction(interaction));
      if (access.status === 'ok') suggestions = await listSuggestions(access.account.service, focused.value);
    } else if (mapping !== undefined) {
      suggestions = enumSuggestions(mapping.spec, focused.value);
    }
  } catch (error) {
    logger.warn({ err: error }, 'Discord autocomplete failed');
  }
  await interaction.respond(suggestions);
}
