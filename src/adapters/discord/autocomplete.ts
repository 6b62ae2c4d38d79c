/**
 * Autocomplete for `/scout` options: the focused option is mapped to the parameter it stands for (or, for the
 * `filters` text, to the options it reaches), the chat port completes it (ChatCore.complete: enumerations, comma
 * lists, the team's CRM lists, option names and values of the filters text), and the completions are answered as
 * Discord's choices. Answers keep to Discord's limits: 25 choices, names and values of at most 100 characters.
 */
import type { ApplicationCommandOptionChoiceData, AutocompleteInteraction } from 'discord.js';
import type { ChatCore, Completion, CompletionField } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { COMMAND_LIMITS, cutAtWord, FILTERS_OPTION, findCommand, mapCommand } from './commands.js';
import { actorOf } from './tenancy.js';

/** Discord answers autocomplete only within 3 seconds; the CRM lookup gives up before that. */
export const LIST_LOOKUP_TIMEOUT_MS = 2000;

/** What Discord takes of an answer. */
const LIMITS = { count: COMMAND_LIMITS.CHOICES_MAX, valueMax: COMMAND_LIMITS.CHOICE_VALUE_MAX };

/** A completion as Discord's choice: its label cut at a word to fit. */
const choiceOf = (completion: Completion): ApplicationCommandOptionChoiceData<string> => ({
  name: cutAtWord(completion.label, COMMAND_LIMITS.CHOICE_NAME_MAX),
  value: completion.value,
});

/** Answers one autocomplete interaction from a served server; on any failure it answers with no suggestions. */
export async function answerAutocomplete(
  interaction: AutocompleteInteraction,
  chat: ChatCore,
  logger: Logger,
) {
  let choices: Array<ApplicationCommandOptionChoiceData<string>> = [];
  try {
    const def = findCommand(
      chat.catalogue,
      interaction.options.getSubcommandGroup(false),
      interaction.options.getSubcommand(false),
    );
    const focused = interaction.options.getFocused(true);
    const mapping = def === undefined ? undefined : mapCommand(def);
    const option = mapping?.typed.find((m) => m.discordName === focused.name);
    const field: CompletionField | null =
      mapping !== undefined && focused.name === FILTERS_OPTION
        ? { text: mapping.overflow.map((m) => m.param) }
        : option === undefined
          ? null
          : { param: option.param };
    if (def !== undefined && field !== null) {
      const request = {
        actor: actorOf(interaction),
        family: def.family,
        command: def.name,
        field,
        typed: focused.value,
      };
      const completions = await chat.complete(request, LIMITS, AbortSignal.timeout(LIST_LOOKUP_TIMEOUT_MS));
      choices = completions.map(choiceOf);
    }
  } catch (error) {
    logger.warn({ err: error }, 'Discord autocomplete failed');
  }
  await interaction.respond(choices);
}
