/**
 * The one global interaction handler. Anything from outside the served servers is refused first (tenancy.ts); a
 * press or a form in a DM acts in the server the person's DMs are for (dm-servers.ts), as their message did;
 * then slash commands (deferred before any work, then edited; a command lacking a secret opens a private form;
 * `/scout ask` passes its request in words to `chat.text` as a direct message does),
 * components routed by custom_id (a stored token, so they work after a restart and after the interaction token
 * expired: each press answers through its own interaction), modals and autocomplete.
 */
import {
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
  type MessageComponentInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
} from 'discord.js';
import {
  type AckKind,
  type Actor,
  type CatalogueCommand,
  type ChatCore,
  commandLine,
  type FormCheck,
  type Invocation,
  OUTSIDE_MESSAGE,
  UNKNOWN_COMMAND,
} from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import {
  answerDeferred,
  answerPrivately,
  answerUpdate,
  editOf,
  followUpPrivately,
  privateReply,
} from './answer.js';
import { answerAutocomplete } from './autocomplete.js';
import { ASK_OPTION, FILTERS_OPTION, FORM_OPTION, findCommand, isAsk, mapCommand } from './commands.js';
import type { DmServers } from './dm-servers.js';
import { commandModal, discordLayout, modalValues } from './forms.js';
import { type MessageDoors, SERVER_PREFIX, serverChoice, unreadable } from './messages.js';
import { MORE_PREFIX, NOOP_PREFIX, renderDiscord } from './render.js';
import { actorOf, admit } from './tenancy.js';

/** What the handler needs. */
export interface InteractionDeps {
  chat: ChatCore;
  logger: Logger;
  /** The server of a DM, and where each person last used Scout (remembered on every admitted interaction). */
  servers: DmServers;
  /** The choice of a server for DMs is answered there. */
  doors: Pick<MessageDoors, 'onServerChosen'>;
}

/** The leaf options of a chat command (inside its group and subcommand). */
export function leafOptions(options: readonly CommandInteractionOption[]): CommandInteractionOption[] {
  const out: CommandInteractionOption[] = [];
  for (const option of options) {
    if (option.options !== undefined) out.push(...leafOptions(option.options));
    else out.push(option);
  }
  return out;
}

/**
 * An interaction's token answers for 15 minutes (https://discord.com/developers/docs/interactions/receiving-and-responding):
 * work that could only finish later is dropped, with a minute to spare for the answer itself.
 */
function answerDeadline(interaction: Pick<Interaction, 'createdTimestamp'>): Date {
  return new Date(interaction.createdTimestamp + 14 * 60_000);
}

/**
 * Whether a string select takes several values (its max_values above 1, read from the message's component, or
 * several values chosen): its values are then the press's `choices`, one or many.
 */
function isMultiple(interaction: MessageComponentInteraction): boolean {
  if (!interaction.isStringSelectMenu()) return false;
  if (interaction.values.length > 1) return true;
  try {
    const component = interaction.component as { maxValues?: number | null; max_values?: number } | null;
    return (component?.maxValues ?? component?.max_values ?? 1) > 1;
  } catch {
    // A message without its components (an interaction on a message not cached): one value is a single choice.
    return false;
  }
}

/** Creates the handler for every interaction the client receives. */
export function createInteractionHandler(deps: InteractionDeps): (interaction: Interaction) => Promise<void> {
  const { chat, logger, servers, doors } = deps;

  /** Counts the time from an interaction's arrival (performance.now() at `arrivedAt`) to its acknowledgement. */
  const acked = (kind: AckKind, arrivedAt: number) =>
    chat.metrics.ack('discord', kind, (performance.now() - arrivedAt) / 1000);

  /** Runs a command for a deferred interaction, and answers with the result. */
  const answerCommand = async (
    interaction: ChatInputCommandInteraction | ModalSubmitInteraction,
    actor: Actor,
    run: (invocation: Invocation) => Promise<Reply>,
  ) => {
    const progress = async (interim: Reply) => {
      const [first] = renderDiscord(interim).messages;
      if (first !== undefined) await interaction.editReply(editOf(first));
    };
    // The deferred reply ("Scout is thinking…") is edited in place until the answer replaces it.
    const answer = await run({
      actor,
      channelId: interaction.channelId ?? 'unknown',
      progress,
      updatesInPlace: true,
      deadline: answerDeadline(interaction),
      forms: true,
    });
    await answerDeferred(interaction, answer);
  };

  const runCommand = (
    interaction: ChatInputCommandInteraction,
    actor: Actor,
    def: CatalogueCommand,
    options: Record<string, string>,
    filters: string,
  ) =>
    answerCommand(interaction, actor, (invocation) =>
      filters === ''
        ? chat.options({ ...invocation, family: def.family, command: def.name, options })
        : chat.text({ ...invocation, text: commandLine(def.family, def.name, options, filters) }),
    );

  /**
   * A submitted form, checked at once like a typed command: a wrong value is answered privately, naming the field,
   * with a button that opens the form again as it was filled in (a modal cannot stay open with its problems shown);
   * otherwise the command runs, answered privately for a private form (a command's secrets).
   */
  const onForm = async (
    interaction: ModalSubmitInteraction,
    actor: Actor,
    arrivedAt: number,
    checked: FormCheck,
  ) => {
    if (checked.privately) {
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      acked('view', arrivedAt);
      const channelId = interaction.channelId ?? 'unknown';
      const answer = checked.status === 'ok' ? await checked.run({ actor, channelId }) : checked.reply;
      if (answer !== null) await answerPrivately(interaction, answer);
      return;
    }
    if (checked.status !== 'ok') {
      if (checked.reply !== null) await interaction.reply(privateReply(checked.reply));
      acked('view', arrivedAt);
      return;
    }
    await interaction.deferReply();
    acked('view', arrivedAt);
    await answerCommand(interaction, actor, (invocation) => checked.run(invocation));
  };

  /**
   * `/scout ask request:<words>`: the request goes to `chat.text` as a direct message's text does (plain words or a
   * command line), deferred and answered as any slash command; it has no conversation, as no slash command has.
   */
  const onAsk = async (interaction: ChatInputCommandInteraction, actor: Actor, arrivedAt: number) => {
    const text = interaction.options.getString(ASK_OPTION, false)?.trim() ?? '';
    const unread = unreadable(text);
    if (unread !== null) {
      await interaction.reply(privateReply(unread));
      acked('command', arrivedAt);
      return;
    }
    await interaction.deferReply();
    acked('command', arrivedAt);
    await answerCommand(interaction, actor, (invocation) =>
      chat.text({ ...invocation, text, receivedAt: arrivedAt }),
    );
  };

  const onChatInput = async (interaction: ChatInputCommandInteraction, actor: Actor, arrivedAt: number) => {
    const group = interaction.options.getSubcommandGroup(false);
    const sub = interaction.options.getSubcommand(false);
    if (isAsk(group, sub)) {
      await onAsk(interaction, actor, arrivedAt);
      return;
    }
    const def = findCommand(chat.catalogue, group, sub);
    if (def === undefined) {
      await interaction.reply({
        content: UNKNOWN_COMMAND,
        flags: MessageFlags.Ephemeral,
      });
      acked('command', arrivedAt);
      return;
    }
    const mapping = mapCommand(def);
    const options: Record<string, string> = {};
    let filters = '';
    let form = false;
    for (const option of leafOptions(interaction.options.data)) {
      if (option.value === undefined || option.value === null) continue;
      if (option.name === FILTERS_OPTION) filters = String(option.value).trim();
      else if (option.name === FORM_OPTION) form = option.value === true;
      else {
        const param = mapping.typed.find((m) => m.discordName === option.name)?.param ?? option.name;
        // A secret typed as an option (a registration from before secrets were left out) is ignored, and asked for.
        if (def.params[param]?.secret !== true) options[param] = String(option.value);
      }
    }
    // A secret (an API key) is never a command option: a private form asks for it. No option is marked required
    // where a command has a form (commands.ts): one left out opens the form, filled in with what was typed.
    const typed = { family: def.family, command: def.name, options, more: filters, asked: form };
    const opened = await chat.forms.open({ command: typed, actor: async () => actor }, actor);
    if (opened?.status === 'refused') {
      await interaction.reply(privateReply(opened.reply));
      return;
    }
    if (opened !== null) {
      // The modal must be the first answer, so it comes before any deferral.
      await interaction.showModal(commandModal(opened.id, opened.spec));
      acked('command', arrivedAt);
      return;
    }
    await interaction.deferReply();
    acked('command', arrivedAt);
    await runCommand(interaction, actor, def, options, filters);
  };

  const onComponent = async (interaction: MessageComponentInteraction, actor: Actor, arrivedAt: number) => {
    const id = interaction.customId;
    if (id.startsWith(`${NOOP_PREFIX}:`)) {
      await interaction.deferUpdate();
      acked('action', arrivedAt);
      return;
    }
    const values = interaction.isStringSelectMenu() ? interaction.values : [];
    const chosen = values[0];
    // The "More actions" select carries the tokens of buttons that did not fit: a choice is that button's press.
    const more = id.startsWith(`${MORE_PREFIX}:`);
    const token = more ? (chosen ?? '') : id;
    // A form button opens its form as the first answer; one that opens none is answered as any press.
    const opened = interaction.isButton() || more ? await chat.forms.open({ id: token }, actor) : null;
    if (opened?.status === 'form') {
      await interaction.showModal(commandModal(opened.id, opened.spec));
      acked('action', arrivedAt);
      return;
    }
    await interaction.deferUpdate();
    acked('action', arrivedAt);
    const event =
      more || chosen === undefined ? {} : isMultiple(interaction) ? { choices: values } : { value: chosen };
    const answer = await chat.action({
      actor,
      channelId: interaction.channelId,
      token,
      event,
      // The pressed message stays as it is until the answer: a wait is said in a private follow-up.
      progress: (interim) => followUpPrivately(interaction, interim),
      deadline: answerDeadline(interaction),
    });
    await answerUpdate(interaction, answer);
  };

  const onModal = async (interaction: ModalSubmitInteraction, actor: Actor, arrivedAt: number) => {
    const token = interaction.customId;
    const values = modalValues(interaction);
    const checked = await chat.forms.submit({
      form: token,
      actor,
      values,
      layout: discordLayout,
      reopen: true,
    });
    if (checked !== null) {
      await onForm(interaction, actor, arrivedAt, checked);
      return;
    }
    if (interaction.isFromMessage()) await interaction.deferUpdate();
    else await interaction.deferReply();
    acked('view', arrivedAt);
    const answer = await chat.action({
      actor,
      channelId: interaction.channelId ?? 'unknown',
      token,
      event: { values },
      deadline: answerDeadline(interaction),
    });
    if (interaction.isFromMessage()) await answerUpdate(interaction, answer);
    else await answerDeferred(interaction, answer);
  };

  /**
   * Who acts, once let through: the member in the interaction's server, which becomes the server of their DMs; in a
   * DM (a press on a DM answer, a form opened from one), the person in the server their DMs are for. Anyone else is
   * refused at once (null).
   */
  const admitted = async (interaction: Interaction): Promise<Actor | null> => {
    if (interaction.guildId !== null) {
      if (!(await admit(interaction, chat.tenancy, logger))) return null;
      servers.remember(interaction.user.id, interaction.guildId);
      return actorOf(interaction);
    }
    if (!interaction.isMessageComponent() && !interaction.isModalSubmit()) {
      await admit(interaction, chat.tenancy, logger);
      return null;
    }
    const found = await servers.serverOf(interaction.user.id);
    if (found.status === 'one') return found.actor;
    logger.info({ interaction: interaction.id }, 'Refused a Discord DM interaction without a served server.');
    await interaction.reply(
      found.status === 'several'
        ? { ...serverChoice(found.guilds), flags: MessageFlags.Ephemeral }
        : privateReply(reply([notice('warning', OUTSIDE_MESSAGE)])),
    );
    return null;
  };

  return async (interaction) => {
    const arrivedAt = performance.now();
    try {
      if (
        interaction.guildId === null &&
        interaction.isButton() &&
        interaction.customId.startsWith(`${SERVER_PREFIX}:`)
      ) {
        await doors.onServerChosen(interaction);
        return;
      }
      // Before any token is minted, any row is read or any service request is made.
      const actor = await admitted(interaction);
      if (actor === null) return;
      if (interaction.isChatInputCommand()) await onChatInput(interaction, actor, arrivedAt);
      else if (interaction.isAutocomplete())
        await answerAutocomplete(interaction as AutocompleteInteraction, chat, logger);
      else if (interaction.isMessageComponent()) await onComponent(interaction, actor, arrivedAt);
      else if (interaction.isModalSubmit()) await onModal(interaction, actor, arrivedAt);
    } catch (error) {
      logger.error({ err: error, interaction: interaction.id }, 'Discord interaction failed');
    }
  };
}
