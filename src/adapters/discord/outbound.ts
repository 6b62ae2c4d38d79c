/**
 * The Outbound of Discord: background jobs post to a channel, and later posts go into a thread started on the
 * first one. A keyed post is made at most once: each message carries an enforced nonce, which Discord turns
 * into the earlier message for a few minutes, and a short `ref` in its footer, which Scout looks for among the
 * channel's recent messages when an earlier attempt may have landed (Discord keeps no nonce with a message).
 * A direct message goes the same way through the person's DM channel.
 */
import { createHash } from 'node:crypto';
import {
  ChannelType,
  type Client,
  DiscordAPIError,
  type Message,
  MessageFlags,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  type SendableChannels,
} from 'discord.js';
import { InternalError, PlatformError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type {
  ChannelRef,
  DirectOptions,
  Outbound,
  PersonRef,
  PostedMessage,
  PostOptions,
} from '../../core/outbound.js';
import type { Reply } from '../../core/ui/index.js';
import { renderDiscord } from './render.js';

const THREAD_NAME = 'Scout updates';
/** Discord's limit on a message nonce. */
const NONCE_MAX = 25;
/** Characters of the digest shown as the footer `ref`: 60 bits, unique among a channel's recent posts. */
const REF_LENGTH = 10;
/** Messages Discord returns per history page, and the recent messages searched for a post that may have landed. */
const HISTORY_PAGE = 100;
export const LANDED_WINDOW = 200;
/** A footer that ends with a post's ref. */
const REF_PATTERN = /(?:^|\s)ref ([\w-]{10})$/;

/** The digest of part `index` of the post keyed `key`, as long as a nonce may be. */
const digestOf = (key: string, index: number) =>
  createHash('sha256').update(`${key}#${index}`).digest('base64url').slice(0, NONCE_MAX);

/** The ref of part `index` of the post keyed `key`. */
const refOf = (key: string, index: number) => digestOf(key, index).slice(0, REF_LENGTH);

/** The footer line that marks part `index` of the post keyed `key`. */
export const footerRef = (key: string, index: number) => `ref ${refOf(key, index)}`;

/**
 * Whether Scout may read `channel`'s history (a thread inherits its parent's permissions); null when Discord's
 * cache cannot tell. Without Read Message History Discord answers a history read with no messages, not an error.
 */
function mayReadHistory(channel: SendableChannels): boolean | null {
  if (channel.isDMBased()) return null;
  const me = channel.guild.members.me;
  if (me === null) return null;
  return channel.permissionsFor(me)?.has(PermissionFlagsBits.ReadMessageHistory) ?? null;
}

/** The refs found on Scout's own recent messages in `channel`, with the id of the message carrying each. */
async function landedPosts(channel: SendableChannels, botId: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let before: string | undefined;
  for (let read = 0; read < LANDED_WINDOW; read += HISTORY_PAGE) {
    const page = await channel.messages.fetch({
      limit: HISTORY_PAGE,
      ...(before === undefined ? {} : { before }),
    });
    for (const message of page.values()) {
      if (before === undefined || BigInt(message.id) < BigInt(before)) before = message.id;
      if (message.author.id !== botId) continue;
      for (const embed of message.embeds) {
        const ref = REF_PATTERN.exec(embed.footer?.text ?? '')?.[1];
        // Newest first: the oldest message with a ref wins, so its thread stays the one in use.
        if (ref !== undefined) found.set(ref, message.id);
      }
    }
    if (page.size < HISTORY_PAGE) break;
  }
  return found;
}

/**
 * The thread on message `messageId` of `channel`, started now or by an earlier attempt. Started by id, so the
 * message itself is never read (that would need Read Message History).
 */
async function threadOn(channel: SendableChannels, messageId: string): Promise<string> {
  if (channel.type !== ChannelType.GuildText && channel.type !== ChannelType.GuildAnnouncement)
    throw new PlatformError(`Discord channel ${channel.id} cannot hold threads`);
  // A thread started from a message takes the message's id.
  if (channel.threads.cache.has(messageId)) return messageId;
  try {
    return (await channel.threads.create({ name: THREAD_NAME, startMessage: messageId })).id;
  } catch (error) {
    // Started by an earlier attempt whose answer was lost, or before a restart.
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage)
      return messageId;
    throw error;
  }
}

/** Creates the Outbound of a logged-in discord.js client. */
export function createDiscordOutbound(client: Client, logger: Logger): Outbound {
  const sendable = async (channelId: string) => {
    const channel = await client.channels.fetch(channelId);
    if (channel === null || !channel.isSendable())
      throw new PlatformError(`Discord channel ${channelId} cannot take messages`);
    return channel;
  };

  const landed = async (channel: SendableChannels) => {
    const botId = client.user?.id;
    if (botId === undefined) throw new InternalError('The Discord client is not logged in');
    if (mayReadHistory(channel) === false) {
      // A possible second post beats a notification held back for good; the nonce still catches a repeat within
      // minutes of the first attempt.
      logger.warn(
        { channel: channel.id },
        'Scout lacks Read Message History in this Discord channel; posting without looking for an earlier post.',
      );
      return new Map<string, string>();
    }
    return landedPosts(channel, botId);
  };

  const post = async (
    channel: ChannelRef,
    reply: Reply,
    options: PostOptions = {},
  ): Promise<PostedMessage> => {
    const parent = options.inThreadOf;
    let targetId = channel.channelId;
    let threadId: string | null = null;
    if (parent !== undefined) {
      threadId = parent.threadId;
      threadId ??= await threadOn(await sendable(parent.channelId), parent.messageId);
      targetId = threadId;
    }
    const target = await sendable(targetId);
    const { key } = options;
    const rendering =
      key === undefined
        ? renderDiscord(reply)
        : renderDiscord(reply, { footerNote: (index) => footerRef(key, index) });
    const found =
      key !== undefined && options.mayHaveLanded === true ? await landed(target) : new Map<string, string>();
    let first: string | null = null;
    for (const [index, message] of rendering.messages.entries()) {
      const existing = key === undefined ? undefined : found.get(refOf(key, index));
      if (existing !== undefined) {
        first ??= existing;
        continue;
      }
      // With an enforced nonce Discord answers a repeat within minutes with the first message.
      const sent: Message = await target.send({
        ...(key === undefined ? {} : { nonce: digestOf(key, index), enforceNonce: true }),
        // A keyed post is laid out with embeds (its ref is in a footer); any other may be a Components V2 one.
        ...(message.componentsV2
          ? { components: message.components, flags: MessageFlags.IsComponentsV2 as const }
          : {
              ...(message.content === '' ? {} : { content: message.content }),
              embeds: message.embeds,
              components: message.components,
            }),
        allowedMentions: { parse: [] },
      });
      first ??= sent.id;
    }
    if (first === null) throw new InternalError('Nothing to post');
    return { platform: 'discord', channelId: channel.channelId, messageId: first, threadId };
  };

  return {
    platform: 'discord',
    post,
    async postDirect(person: PersonRef, reply: Reply, options: DirectOptions = {}): Promise<PostedMessage> {
      // The person's DM channel with the bot (POST /users/@me/channels, the same channel every time); a keyed
      // message there is made once like a channel post. https://discord.com/developers/docs/resources/user#create-dm
      const dm = await client.users.createDM(person.userId);
      return post({ platform: 'discord', workspaceId: person.workspaceId, channelId: dm.id }, reply, options);
    },
  };
}
