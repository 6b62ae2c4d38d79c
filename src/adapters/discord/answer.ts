/**
 * How a reply model goes back through an interaction: the first answer (a private refusal), an edit of a deferred
 * reply (public or private), or an update of the message an element sits on, with follow-ups for the rest.
 */
import {
  type ChatInputCommandInteraction,
  type InteractionReplyOptions,
  type MessageComponentInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { Reply } from '../../core/ui/index.js';
import { type DiscordMessage, renderDiscord } from './render.js';

/**
 * What a reply may ping: nothing. Replies name people with real mentions (a cap set for `<@id>`), and those must not
 * notify them, nor any role, @here or @everyone. https://discord.com/developers/docs/resources/message#allowed-mentions-object
 */
const NO_MENTIONS = { parse: [] };

/** An interaction answered by deferring first. */
export type Deferred = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/** The body of an edit of a reply already sent (its visibility cannot change). */
export const editOf = (message: DiscordMessage) => ({
  content: message.content,
  embeds: message.embeds,
  components: message.components,
  allowedMentions: NO_MENTIONS,
});

/** The body of a new message: a reply or a follow-up, ephemeral or not. */
export const payloadOf = (message: DiscordMessage, ephemeral: boolean) => ({
  content: message.content,
  embeds: message.embeds,
  components: message.components,
  allowedMentions: NO_MENTIONS,
  ...(ephemeral ? { flags: MessageFlags.Ephemeral as const } : {}),
});

/** The first answer to an interaction, seen only by its author: the reply's first message. */
export function privateReply(reply: Reply): InteractionReplyOptions {
  const [first] = renderDiscord(reply).messages;
  return first === undefined ? { content: '—', flags: MessageFlags.Ephemeral } : payloadOf(first, true);
}

/** Sends a reply after a public deferReply: edits it, or swaps it for an ephemeral follow-up. */
export async function answerDeferred(interaction: Deferred, reply: Reply): Promise<void> {
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

/** Sends a reply after an ephemeral deferReply: every message stays private, whatever the reply's visibility. */
export async function answerPrivately(interaction: Deferred, reply: Reply): Promise<void> {
  const [first, ...rest] = renderDiscord(reply).messages;
  if (first === undefined) return;
  await interaction.editReply(editOf(first));
  for (const message of rest) await interaction.followUp(payloadOf(message, true));
}

/** Sends a reply after deferUpdate: replaces the message the element sits on, or follows up. */
export async function answerUpdate(
  interaction: MessageComponentInteraction | ModalSubmitInteraction,
  reply: Reply,
): Promise<void> {
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
