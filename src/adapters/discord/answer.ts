/**
 * How a reply model goes back through an interaction: the first answer (a private refusal), an edit of a deferred
 * reply (public or private), or an update of the message an element sits on, with follow-ups for the rest. A
 * message laid out with Components V2 carries the IS_COMPONENTS_V2 flag in every one of these, and an edit that
 * makes one of a message that had content or embeds empties them, as Discord requires
 * (https://docs.discord.com/developers/resources/message#edit-message).
 */
import {
  type ChatInputCommandInteraction,
  type InteractionReplyOptions,
  type MessageComponentInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { Reply } from '../../core/ui/index.js';
import { type DiscordFile, type DiscordMessage, renderDiscord } from './render.js';

/**
 * What a reply may ping: nothing. Replies name people with real mentions (a cap set for `<@id>`), and those must not
 * notify them, nor any role, @here or @everyone. https://discord.com/developers/docs/resources/message#allowed-mentions-object
 */
const NO_MENTIONS = { parse: [] };

/** An interaction answered by deferring first. */
export type Deferred = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/** Files go with a message as multipart attachments (https://discord.com/developers/docs/reference#uploading-files). */
const withFiles = (files: readonly DiscordFile[]) => (files.length === 0 ? {} : { files: [...files] });

/**
 * What a new message shows: content, embeds and components; or, laid out with Components V2, its components and
 * the flag (Discord refuses content or embeds beside it).
 */
export const bodyOf = (message: DiscordMessage) =>
  message.componentsV2
    ? { components: message.components, flags: MessageFlags.IsComponentsV2 as const }
    : { content: message.content, embeds: message.embeds, components: message.components };

/** The body of an edit of a reply already sent (its visibility cannot change), with the reply's files if any. */
export const editOf = (message: DiscordMessage, files: readonly DiscordFile[] = []) => ({
  // Made a Components V2 message, it keeps no content or embeds of what it was.
  ...(message.componentsV2 ? { content: '', embeds: [] } : {}),
  ...bodyOf(message),
  allowedMentions: NO_MENTIONS,
  ...withFiles(files),
});

/** The body of a new message: a reply or a follow-up, ephemeral or not, with the reply's files if any. */
export const payloadOf = (
  message: DiscordMessage,
  ephemeral: boolean,
  files: readonly DiscordFile[] = [],
) => {
  const { flags, ...body } = { flags: 0, ...bodyOf(message) };
  const all = flags | (ephemeral ? MessageFlags.Ephemeral : 0);
  return { ...body, allowedMentions: NO_MENTIONS, ...(all === 0 ? {} : { flags: all }), ...withFiles(files) };
};

/** The first answer to an interaction, seen only by its author: the reply's first message. */
export function privateReply(reply: Reply): InteractionReplyOptions {
  const { messages, files } = renderDiscord(reply);
  const [first] = messages;
  return first === undefined
    ? { content: '—', flags: MessageFlags.Ephemeral }
    : payloadOf(first, true, files);
}

/** Sends a reply after a public deferReply: edits it, or swaps it for an ephemeral follow-up. */
export async function answerDeferred(interaction: Deferred, reply: Reply): Promise<void> {
  const { messages, ephemeral, files } = renderDiscord(reply);
  const [first, ...rest] = messages;
  if (first === undefined) return;
  if (ephemeral) {
    // A deferred public reply cannot turn ephemeral: remove it and answer privately instead.
    await interaction.deleteReply();
    await interaction.followUp(payloadOf(first, true, files));
  } else {
    await interaction.editReply(editOf(first, files));
  }
  for (const message of rest) await interaction.followUp(payloadOf(message, ephemeral));
}

/** Sends a reply after an ephemeral deferReply: every message stays private, whatever the reply's visibility. */
export async function answerPrivately(interaction: Deferred, reply: Reply): Promise<void> {
  const { messages, files } = renderDiscord(reply);
  const [first, ...rest] = messages;
  if (first === undefined) return;
  await interaction.editReply(editOf(first, files));
  for (const message of rest) await interaction.followUp(payloadOf(message, true));
}

/** A private follow-up of an interaction already answered or deferred: the reply's first message. */
export async function followUpPrivately(
  interaction: MessageComponentInteraction | ModalSubmitInteraction,
  reply: Reply,
): Promise<void> {
  const [first] = renderDiscord(reply).messages;
  if (first !== undefined) await interaction.followUp(payloadOf(first, true));
}

/** Sends a reply after deferUpdate: replaces the message the element sits on, or follows up. */
export async function answerUpdate(
  interaction: MessageComponentInteraction | ModalSubmitInteraction,
  reply: Reply,
): Promise<void> {
  const sourceFlags = interaction.message?.flags;
  // A message made with Components V2 stays one: a reply that replaces it is laid out the same way.
  const sourceV2 = sourceFlags?.has(MessageFlags.IsComponentsV2) === true && reply.replace === true;
  const { messages, ephemeral, files } = renderDiscord(reply, sourceV2 ? { componentsV2: true } : {});
  const [first, ...rest] = messages;
  if (first === undefined) return;
  const sourceEphemeral = sourceFlags?.has(MessageFlags.Ephemeral) === true;
  // Replacing is right only where the audience stays the same: a public page for everyone, a private one for one.
  if (reply.replace === true && ephemeral === sourceEphemeral) {
    await interaction.editReply(editOf(first, files));
  } else {
    await interaction.followUp(payloadOf(first, ephemeral, files));
  }
  for (const message of rest) await interaction.followUp(payloadOf(message, ephemeral));
}
