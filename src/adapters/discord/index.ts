/**
 * The Discord adapter: a discord.js 14 client over the gateway, one global interaction handler, and the
 * outbound poster background jobs use to post to a channel and thread later posts under an earlier one.
 */
import { createHash } from 'node:crypto';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import type { App } from '../../app.js';
import type { DiscordConfig } from '../../config.js';
import type { Logger } from '../../core/logger.js';
import type { ChannelRef, Outbound, PostedMessage } from '../../core/outbound.js';
import type { Reply } from '../../core/ui/index.js';
import { createInteractionHandler } from './interactions.js';
import { renderDiscord } from './render.js';

/** What the adapter is built from. */
export interface DiscordAdapterOptions {
  config: DiscordConfig;
  app: App;
  logger: Logger;
}

/** A running Discord bot. */
export interface DiscordAdapter {
  /** Logs in over the gateway and resolves once the client is ready. */
  start(): Promise<void>;
  /** Closes the gateway connection. */
  stop(): Promise<void>;
  readonly outbound: Outbound;
}

const THREAD_NAME = 'Scout updates';
/** Discord's limit on a message nonce. */
const NONCE_MAX = 25;

/** The nonce of part `index` of the post keyed `key`: a digest of both, as long as Discord takes. */
const nonceOf = (key: string, index: number) =>
  createHash('sha256').update(`${key}#${index}`).digest('base64url').slice(0, NONCE_MAX);

/** Creates the Discord adapter. */
export function createDiscordAdapter(options: DiscordAdapterOptions): DiscordAdapter {
  const { config, app, logger } = options;
  const client = new Client({
    // Interactions arrive without any privileged intent; Guilds keeps channels cached for outbound posts.
    intents: [GatewayIntentBits.Guilds],
    ...(config.apiUrl === null ? {} : { rest: { api: config.apiUrl } }),
  });
  const handle = createInteractionHandler({ app, logger });
  client.on(Events.InteractionCreate, (interaction) => {
    void handle(interaction);
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'Discord client error'));

  const sendable = async (channelId: string) => {
    const channel = await client.channels.fetch(channelId);
    if (channel === null || !channel.isSendable())
      throw new Error(`Discord channel ${channelId} cannot take messages`);
    return channel;
  };

  const outbound: Outbound = {
    platform: 'discord',
    async post(channel: ChannelRef, reply: Reply, postOptions = {}): Promise<PostedMessage> {
      const parent = postOptions.inThreadOf;
      let targetId = channel.channelId;
      let threadId: string | null = null;
      if (parent !== undefined) {
        threadId = parent.threadId;
        if (threadId === null) {
          const origin = await sendable(parent.channelId);
          const message = await origin.messages.fetch(parent.messageId);
          const thread = message.thread ?? (await message.startThread({ name: THREAD_NAME }));
          threadId = thread.id;
        }
        targetId = threadId;
      }
      const target = await sendable(targetId);
      let first: Message | null = null;
      const key = postOptions.key;
      for (const [index, message] of renderDiscord(reply).messages.entries()) {
        // With an enforced nonce Discord answers a repeat (a retry after a lost answer) with the first message.
        const sent = await target.send({
          ...(key === undefined ? {} : { nonce: nonceOf(key, index), enforceNonce: true }),
          ...(message.content === '' ? {} : { content: message.content }),
          embeds: message.embeds,
          components: message.components,
          allowedMentions: { parse: [] },
        });
        first ??= sent;
      }
      if (first === null) throw new Error('Nothing to post');
      return { platform: 'discord', channelId: channel.channelId, messageId: first.id, threadId };
    },
  };

  return {
    outbound,
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(config.token);
      await ready;
      logger.info({ user: client.user?.tag }, 'Discord bot connected');
    },
    async stop() {
      await client.destroy();
    },
  };
}
