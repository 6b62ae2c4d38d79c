/**
 * The one global interaction handler: slash commands (deferred before any work, then edited), components
 * routed by custom_id (a stored token, so they work after a restart and after the interaction token expired:
 * each press answers through its own interaction), modals and autocomplete.
 */
import {
  type AutocompleteInteraction,
  type BaseInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  type Interaction,
  type MessageComponentInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
  PermissionFlagsBits,
} from 'discord.js';
import { z } from 'zod';
import type { App } from '../../app.js';
import type { Actor } from '../../core/actor.js';
import { quoteValue } from '../../core/command/dispatcher.js';
import type { CommandDef, CommandFamily } from '../../core/command/types.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { answerAutocomplete } from './autocomplete.js';
import { discordName, FILTERS_OPTION, FORM_OPTION, mapCommand } from './commands.js';
import { CONTACT_EDIT_KINDS, contactModal, FORM_KIND, filtersModal, modalValues } from './forms.js';
import { type DiscordMessage, MORE_PREFIX, NOOP_PREFIX, renderDiscord } from './render.js';

/** What the handler needs. */
export interface InteractionDeps {
  app: App;
  logger: Logger;
}

const formPayload = z.object({
  family: z.string(),
  command: z.string(),
  options: z.record(z.string(), z.string()),
  filters: z.string(),
});

const NO_MENTIONS = { parse: [] };

/** The acting person: the guild is the workspace; admins hold Administrator or Manage Server. */
export function actorOf(interaction: BaseInteraction): Actor {
  const permissions = interaction.memberPermissions;
  const member = interaction.member;
  const nick = member !== null && 'nick' in member ? member.nick : null;
  return {
    platform: 'discord',
    workspaceId: interaction.guildId ?? `dm-${interaction.user.id}`,
    userId: interaction.user.id,
    userName: nick ?? interaction.user.globalName ?? interaction.user.username,
    isAdmin:
      permissions !== null &&
      (permissions.has(PermissionFlagsBits.Administrator) ||
        permissions.has(PermissionFlagsBits.ManageGuild)),
  };
}

const kindOf = (token: string) => token.slice(0, Math.max(0, token.indexOf(':')));

const editOf = (message: DiscordMessage) => ({
  content: message.content,
  embeds: message.embeds,
  components: message.components,
  allowedMentions: NO_MENTIONS,
});

const payloadOf = (message: DiscordMessage, ephemeral: boolean) => ({
  content: message.content,
  embeds: message.embeds,
  components: message.components,
  allowedMentions: NO_MENTIONS,
  ...(ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}),
});

type Deferred = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/** Sends a reply after a public deferReply: edits it, or swaps it for an ephemeral follow-up. */
async function answerDeferred(interaction: Deferred, reply: Reply): Promise<void> {
  const { messages, ephemeral } = renderDiscord(reply);
  const [first, ...rest] = messages;
  if (first === undefined) return;
  if (ephemeral) {
    // A deferred public reply cannot turn ephemeral: remove it and answer privately instead.
    await interaction.deleteReply();
    await interaction.followUp(payloadOf(first, true));
  } else {
    await interaction.editReply(editOf(first));
  }
  for (const message of rest) await interaction.followUp(payloadOf(message, ephemeral));
}

/** Sends a reply after deferUpdate: replaces the message the element sits on, or follows up. */
async function answerUpdate(interaction: MessageComponentInteraction | ModalSubmitInteraction, reply: Reply) {
  const { messages, ephemeral } = renderDiscord(reply);
  const [first, ...rest] = messages;
  if (first === undefined) return;
  const sourceEphemeral = interaction.message?.flags.has(MessageFlags.Ephemeral) === true;
  // Replacing is right only where the audience stays the same: a public page for everyone, a private one for one.
  if (reply.replace === true && ephemeral === sourceEphemeral) {
    await interaction.editReply(editOf(first));
  } else {
    await interaction.followUp(payloadOf(first, ephemeral));
  }
  for (const message of rest) await interaction.followUp(payloadOf(message, ephemeral));
}

function findCommand(app: App, group: string | null, sub: string | null) {
  const family: CommandFamily | undefined = app.registry.families.find((f) => discordName(f.name) === group);
  const def: CommandDef<unknown> | undefined = family?.commands.find((c) => discordName(c.name) === sub);
  return def;
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

/** A command line in the chat syntax from typed options and free filters text. */
function commandLine(def: CommandDef<unknown>, options: Readonly<Record<string, string>>, filters: string) {
  const typed = Object.entries(options).map(([k, v]) => `${k}:${quoteValue(v)}`);
  return [def.family, def.name, ...typed, filters].filter((part) => part !== '').join(' ');
}

/** Creates the handler for every interaction the client receives. */
export function createInteractionHandler(deps: InteractionDeps): (interaction: Interaction) => Promise<void> {
  const { app, logger } = deps;
  const { dispatcher } = app;

  const runCommand = async (
    interaction: ChatInputCommandInteraction | ModalSubmitInteraction,
    def: CommandDef<unknown>,
    options: Record<string, string>,
    filters: string,
  ) => {
    const actor = actorOf(interaction);
    const channelId = interaction.channelId ?? 'unknown';
    const progress = async (interim: Reply) => {
      const [first] = renderDiscord(interim).messages;
      if (first !== undefined) await interaction.editReply(editOf(first));
    };
    const invocation = { actor, channelId, progress };
    const answer =
      filters === ''
        ? await dispatcher.options({ ...invocation, family: def.family, command: def.name, options })
        : await dispatcher.text({ ...invocation, text: commandLine(def, options, filters) });
    await answerDeferred(interaction, answer);
  };

  const onChatInput = async (interaction: ChatInputCommandInteraction) => {
    const def = findCommand(
      app,
      interaction.options.getSubcommandGroup(false),
      interaction.options.getSubcommand(false),
    );
    if (def === undefined) {
      await interaction.reply({
        content: 'Unknown command: run /scout help show.',
        flags: MessageFlags.Ephemeral,
      });
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
        options[param] = String(option.value);
      }
    }
    if (form && mapping.overflow.length > 0) {
      // The modal must be the first answer, so it comes before any deferral; nothing slow happens before it.
      const token = app.store.actions.create({
        kind: FORM_KIND,
        payload: { family: def.family, command: def.name, options, filters },
        actor: actorOf(interaction),
        personal: true,
        rerun: null,
        ttlMs: app.settings.elementTtlMs,
        now: app.clock.now(),
      });
      await interaction.showModal(
        filtersModal(token, `${def.family} ${def.name}: filters`, mapping.overflow),
      );
      return;
    }
    await interaction.deferReply();
    await runCommand(interaction, def, options, filters);
  };

  const onComponent = async (interaction: MessageComponentInteraction) => {
    const id = interaction.customId;
    if (id.startsWith(`${NOOP_PREFIX}:`)) {
      await interaction.deferUpdate();
      return;
    }
    const chosen = interaction.isStringSelectMenu() ? interaction.values[0] : undefined;
    // The "More actions" select carries the tokens of buttons that did not fit: a choice is that button's press.
    const more = id.startsWith(`${MORE_PREFIX}:`);
    const token = more ? (chosen ?? '') : id;
    if (interaction.isButton() || more) {
      if (CONTACT_EDIT_KINDS.has(kindOf(token))) {
        await interaction.showModal(contactModal(token));
        return;
      }
    }
    await interaction.deferUpdate();
    const event = !more && chosen !== undefined ? { value: chosen } : {};
    const answer = await dispatcher.action({
      actor: actorOf(interaction),
      channelId: interaction.channelId,
      token,
      event,
    });
    await answerUpdate(interaction, answer);
  };

  const onModal = async (interaction: ModalSubmitInteraction) => {
    const token = interaction.customId;
    const values = modalValues(interaction);
    if (kindOf(token) === FORM_KIND) {
      await interaction.deferReply();
      const found = app.store.actions.lookup(token, actorOf(interaction), app.clock.now());
      const parsed = found.status === 'ok' ? formPayload.safeParse(found.record.payload) : null;
      const def =
        parsed?.success === true ? app.registry.command(parsed.data.family, parsed.data.command) : undefined;
      if (parsed?.success !== true || def === undefined) {
        await answerDeferred(
          interaction,
          reply([notice('warning', 'This form expired: run the command again.')]),
        );
        return;
      }
      const { [FILTERS_OPTION]: filters = '', ...fields } = values;
      const allFilters = [parsed.data.filters, filters].filter((part) => part !== '').join(' ');
      await runCommand(interaction, def, { ...parsed.data.options, ...fields }, allFilters);
      return;
    }
    const actor = actorOf(interaction);
    if (interaction.isFromMessage()) await interaction.deferUpdate();
    else await interaction.deferReply();
    const answer = await dispatcher.action({
      actor,
      channelId: interaction.channelId ?? 'unknown',
      token,
      event: { values },
    });
    if (interaction.isFromMessage()) await answerUpdate(interaction, answer);
    else await answerDeferred(interaction, answer);
  };

  return async (interaction) => {
    try {
      if (interaction.isChatInputCommand()) await onChatInput(interaction);
      else if (interaction.isAutocomplete())
        await answerAutocomplete(interaction as AutocompleteInteraction, app, logger);
      else if (interaction.isMessageComponent()) await onComponent(interaction);
      else if (interaction.isModalSubmit()) await onModal(interaction);
    } catch (error) {
      logger.error({ err: error, interaction: interaction.id }, 'Discord interaction failed');
    }
  };
}
