/**
 * The two doors of plain messages: an @mention of Scout in a channel of a served server, and a direct message to
 * Scout. Both feed the entry the slash command's typed line takes, `chat.text`, which reads the exact syntax (with
 * or without `/scout`) or plain words, and answer with the same renderer. Discord sends the content
 * of these two kinds of message without the privileged Message Content intent
 * (https://discord.com/developers/docs/events/gateway#message-content-intent).
 *
 * Never answered: a bot's message (Scout's own included), a webhook's, a system message; edits and deletions are not
 * listened to. A mention answers as a reply to its message; a DM in the DM. A follow-up in the same channel, or
 * thread, or DM is the same conversation (`discord:<channel id>`, a thread having its own id).
 */
import {
  type ButtonInteraction,
  ButtonStyle,
  ComponentType,
  DiscordAPIError,
  type Message,
  type MessageCreateOptions,
  MessageFlags,
  type MessageReplyOptions,
} from 'discord.js';
import {
  type Actor,
  type ChatCore,
  MESSAGE_MAX,
  OUTSIDE_MESSAGE,
  TOO_LONG,
  WORDLESS,
} from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { bodyOf, editOf } from './answer.js';
import { actorOfMember, type DmServers } from './dm-servers.js';
import { escapeMarkdown, plainLine } from './markdown.js';
import { type DiscordFile, type DiscordMessage, renderDiscord } from './render.js';
import { guildTenant } from './tenancy.js';

/** Prefix of the custom_ids of the buttons that choose the server a person's DMs are for. */
export const SERVER_PREFIX = 'scout.server';
/** How long a DM waits for its author to choose a server, to be answered then. */
const CHOICE_WAIT_MS = 10 * 60_000;
/** Buttons of one row, and rows of one message (https://discord.com/developers/docs/components/reference). */
const BUTTONS_PER_ROW = 5;
const ROWS_MAX = 5;
const LABEL_MAX = 80;

/** Asked of a member of several served servers whose DMs are for none yet. */
export const CHOOSE_SERVER = 'You are in several servers Scout serves: which one is this for?';

/** The refusal of anyone outside the served servers, as the dispatcher words it. */
const outside = (): Reply => reply([notice('warning', OUTSIDE_MESSAGE)], { visibility: 'author' });

/**
 * The answer to a request with nothing to read (an empty mention, emoji or punctuation only) or too long to read,
 * for its author alone; null for a request to read. Messages and `/scout ask` say the same.
 */
export function unreadable(text: string): Reply | null {
  if (!/[\p{L}\p{N}]/u.test(text)) return reply([notice('info', WORDLESS)], { visibility: 'author' });
  if ([...text].length > MESSAGE_MAX) return reply([notice('warning', TOO_LONG)], { visibility: 'author' });
  return null;
}

/** A message's text without the mentions of the bot (`<@id>`, `<@!id>`), trimmed, and a leading comma or colon. */
export function lineOfMessage(content: string, botId: string): string {
  return content
    .replace(new RegExp(`<@!?${botId}>`, 'g'), ' ')
    .trim()
    .replace(/^[,:;]\s*/, '');
}

/**
 * The conversation of a message: its author in its channel, thread (a thread has its own channel id) or DM, so that
 * one person's follow-up never refines a colleague's answer in a shared channel.
 */
export const conversationOf = (message: Pick<Message, 'channelId' | 'author'>) =>
  `discord:${message.channelId}:${message.author.id}`;

const withFiles = (files: readonly DiscordFile[]) => (files.length === 0 ? {} : { files: [...files] });

/**
 * A reply to a message. Nothing is parsed as a mention, not even `@everyone` a person typed and Scout echoes; the
 * author is pinged only by an answer meant for them alone (see `answer`).
 */
const replyOf = (
  message: DiscordMessage,
  pingAuthor: boolean,
  files: readonly DiscordFile[] = [],
): MessageReplyOptions => ({
  ...bodyOf(message),
  allowedMentions: { parse: [], repliedUser: pingAuthor },
  // A message deleted before the answer: the answer is posted all the same.
  failIfNotExists: false,
  ...withFiles(files),
});

const postOf = (message: DiscordMessage): MessageCreateOptions => ({
  ...bodyOf(message),
  allowedMentions: { parse: [] },
});

/** Discord's "Cannot reply without permission to read message history" (Create Message with a reference). */
const REPLY_NEEDS_HISTORY = 160002;

/**
 * Replies to a message; where Scout lacks Read Message History, which a reply needs, the same answer is posted in
 * the channel instead, pinging the author only when the reply would have.
 */
async function replyTo(message: Message, options: MessageReplyOptions): Promise<Message> {
  try {
    return await message.reply(options);
  } catch (error) {
    const { channel } = message;
    if (!(error instanceof DiscordAPIError && error.code === REPLY_NEEDS_HISTORY) || !('send' in channel))
      throw error;
    const ping = options.allowedMentions?.repliedUser === true;
    const { failIfNotExists: _unused, ...rest } = options;
    // A Components V2 message takes no content: its author is named, not pinged.
    const v2 = options.flags === MessageFlags.IsComponentsV2;
    return channel.send({
      ...rest,
      ...(ping && !v2 ? { content: `<@${message.author.id}> ${options.content ?? ''}`.trim() } : {}),
      allowedMentions: { parse: [], users: ping ? [message.author.id] : [] },
    } as MessageCreateOptions);
  }
}

/** The message that asks a person which server their DMs are for: a button per server (at most 25). */
export function serverChoice(guilds: ReadonlyArray<{ id: string; name: string }>): MessageCreateOptions {
  const buttons = guilds.slice(0, BUTTONS_PER_ROW * ROWS_MAX).map((guild) => ({
    type: ComponentType.Button as const,
    style: ButtonStyle.Secondary as const,
    custom_id: `${SERVER_PREFIX}:${guild.id}`,
    label: plainLine(guild.name, LABEL_MAX) || guild.id,
  }));
  const components = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW)
    components.push({
      type: ComponentType.ActionRow as const,
      components: buttons.slice(i, i + BUTTONS_PER_ROW),
    });
  return { content: CHOOSE_SERVER, components, allowedMentions: { parse: [] } };
}

/** What the message handler needs. */
export interface MessageDeps {
  chat: ChatCore;
  logger: Logger;
  servers: DmServers;
  /** The bot's own user id, once logged in. */
  botId(): string | null;
}

/** The message doors: a new message, and the choice of a server for DMs. */
export interface MessageDoors {
  onMessage(message: Message): Promise<void>;
  /** A press of a SERVER_PREFIX button, in a DM. */
  onServerChosen(interaction: ButtonInteraction): Promise<void>;
}

/** Creates the handler of mentions and DMs. */
export function createMessageDoors(deps: MessageDeps): MessageDoors {
  const { chat, logger, servers } = deps;
  // DMs waiting for their author to choose a server, by user id: answered once chosen.
  const waiting = new Map<string, { message: Message; text: string; until: number }>();

  /**
   * Sends a reply model in answer to `message`, replacing the interim message if one was shown. An answer meant for
   * its author alone (a refusal, a mistake, a confirmation) cannot be ephemeral in a channel: in a server it is a
   * reply that pings only its author, in the channel where they asked (its buttons answer only that person anyway,
   * and a DM would take it out of the conversation it belongs to); in a DM every answer is private already.
   */
  const answer = async (message: Message, answerReply: Reply, interim: Message | null) => {
    const { messages, ephemeral, files } = renderDiscord(answerReply);
    const [first, ...rest] = messages;
    if (first === undefined) return;
    const ping = ephemeral && message.inGuild();
    if (interim !== null && !ping) await interim.edit(editOf(first, files));
    else {
      if (interim !== null) await interim.delete().catch(() => undefined);
      await replyTo(message, replyOf(first, ping, files));
    }
    const { channel } = message;
    for (const next of rest) if ('send' in channel) await channel.send(postOf(next));
  };

  /** Runs a line for `actor` and answers it. */
  const respond = async (message: Message, actor: Actor, text: string, receivedAt: number) => {
    const unread = unreadable(text);
    if (unread !== null) {
      await answer(message, unread, null);
      return;
    }
    let interim: Message | null = null;
    // The working message and the place in the queue: one reply, edited in place, then replaced by the answer.
    const progress = async (shown: Reply) => {
      const [first] = renderDiscord(shown).messages;
      if (first === undefined) return;
      interim =
        interim === null ? await replyTo(message, replyOf(first, false)) : await interim.edit(editOf(first));
    };
    const result = await chat.text({
      actor,
      channelId: message.channelId,
      text,
      conversation: conversationOf(message),
      progress,
      updatesInPlace: true,
      receivedAt,
    });
    await answer(message, result, interim);
  };

  const onGuildMessage = async (message: Message<true>, botId: string, receivedAt: number) => {
    // Only a mention of Scout itself: not @everyone, @here or a role (discord.js keeps those apart).
    if (!message.mentions.users.has(botId)) return;
    if (!chat.tenancy.isServed(guildTenant(message.guildId))) {
      logger.info({ guild: message.guildId }, 'Refused a Discord mention from outside the served servers.');
      await answer(message, outside(), null);
      return;
    }
    const member = message.member ?? (await servers.memberIn(message.guildId, message.author.id));
    const actor: Actor =
      member === null
        ? {
            platform: 'discord',
            workspaceId: message.guildId,
            userId: message.author.id,
            userName: message.author.globalName ?? message.author.username,
            isAdmin: false,
          }
        : actorOfMember(member);
    servers.remember(message.author.id, message.guildId);
    await respond(message, actor, lineOfMessage(message.content, botId), receivedAt);
  };

  const onDirectMessage = async (message: Message, botId: string, receivedAt: number) => {
    const text = lineOfMessage(message.content, botId);
    const found = await servers.serverOf(message.author.id);
    if (found.status === 'none') {
      logger.info({ user: message.author.id }, 'Refused a Discord DM from someone in no served server.');
      await answer(message, outside(), null);
      return;
    }
    if (found.status === 'several') {
      const now = Date.now();
      for (const [user, entry] of waiting) if (entry.until <= now) waiting.delete(user);
      waiting.set(message.author.id, { message, text, until: now + CHOICE_WAIT_MS });
      await replyTo(message, {
        ...serverChoice(found.guilds),
        failIfNotExists: false,
      } as MessageReplyOptions);
      return;
    }
    await respond(message, found.actor, text, receivedAt);
  };

  return {
    async onMessage(message) {
      const receivedAt = performance.now();
      try {
        // Never a bot (Scout itself included), a webhook or a system message: two bots must not talk forever.
        if (message.author.bot || message.webhookId !== null || message.system) return;
        const botId = deps.botId();
        if (botId === null) return;
        if (message.inGuild()) await onGuildMessage(message, botId, receivedAt);
        else await onDirectMessage(message, botId, receivedAt);
      } catch (error) {
        logger.error({ err: error, message: message.id }, 'Discord message failed');
      }
    },

    async onServerChosen(interaction) {
      const guildId = interaction.customId.slice(SERVER_PREFIX.length + 1);
      const member = await servers.memberIn(guildId, interaction.user.id);
      if (member === null) {
        await interaction.update({
          content: OUTSIDE_MESSAGE,
          components: [],
          allowedMentions: { parse: [] },
        });
        return;
      }
      servers.remember(interaction.user.id, guildId);
      await interaction.update({
        content: `Your messages here are for ${escapeMarkdown(member.guild.name)}.`,
        components: [],
        allowedMentions: { parse: [] },
      });
      const pending = waiting.get(interaction.user.id);
      waiting.delete(interaction.user.id);
      if (pending !== undefined && pending.until > Date.now())
        await respond(pending.message, actorOfMember(member), pending.text, performance.now());
    },
  };
}
