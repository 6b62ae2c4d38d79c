/**
 * The Discord adapter: a discord.js 14 client over the gateway, one global interaction handler, the doors of
 * @mentions and direct messages (messages.ts), the watch over
 * the servers it is in (serving the listed ones, leaving the others in single-team mode), and the outbound poster
 * background jobs use to post to a channel and thread later posts under an earlier one. It adds the `discord`
 * readiness check: started, and every gateway shard connected.
 */
import { Client, Events, GatewayIntentBits, Options, Partials, Status } from 'discord.js';
import type { ChatCore } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import type { DiscordConfig } from './config.js';
import { createDmServers } from './dm-servers.js';
import { createInteractionHandler } from './interactions.js';
import { createMessageDoors } from './messages.js';
import { createDiscordOutbound } from './outbound.js';
import { makeRequest } from './rest-request.js';
import { watchGuilds } from './tenancy.js';

/** What the adapter is built from. */
export interface DiscordAdapterOptions {
  config: DiscordConfig;
  /** The chat port: all the adapter reaches of the app. */
  chat: ChatCore;
  logger: Logger;
}

/** A running Discord bot. */
export interface DiscordAdapter {
  /** Logs in over the gateway and resolves once the client is ready and has left any unserved server. */
  start(): Promise<void>;
  /** Closes the gateway connection. */
  stop(): Promise<void>;
  readonly outbound: Outbound;
}

/** Creates the Discord adapter. */
export function createDiscordAdapter(options: DiscordAdapterOptions): DiscordAdapter {
  const { config, chat, logger } = options;
  const client = new Client({
    // Interactions arrive without any privileged intent; Guilds keeps channels cached for outbound posts. Messages
    // of servers' channels and DMs come with GuildMessages and DirectMessages, neither privileged: without Message
    // Content, Discord sends the content only of the messages that mention Scout and of DMs, which are all Scout
    // reads (https://discord.com/developers/docs/events/gateway#message-content-intent).
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
    // A DM channel is not cached before its first message: without the Channel partial discord.js drops the
    // message (https://discord.js.org/docs/packages/discord.js/main/Partials:Enum).
    partials: [Partials.Channel],
    // Every message of every channel now arrives: only a few are kept per channel (the answers use none of them).
    makeCache: Options.cacheWithLimits({ ...Options.DefaultMakeCacheSettings, MessageManager: 20 }),
    rest: { makeRequest, ...(config.apiUrl === null ? {} : { api: config.apiUrl }) },
  });
  // The listed servers are served from now on, before the first interaction can arrive.
  const guilds = watchGuilds({ client, tenancy: chat.tenancy, logger, guildIds: config.guildIds });
  const servers = createDmServers({ client, tenancy: chat.tenancy, logger });
  const doors = createMessageDoors({ chat, logger, servers, botId: () => client.user?.id ?? null });
  const handle = createInteractionHandler({ chat, logger, servers, doors });
  client.on(Events.InteractionCreate, (interaction) => {
    void handle(interaction);
  });
  // New messages only: an edit or a deletion of a message is not a new request (no listener for either).
  client.on(Events.MessageCreate, (message) => {
    void doors.onMessage(message);
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'Discord client error'));

  const outbound = createDiscordOutbound(client, logger);
  let started = false;
  // A shard that lost its connection is reconnecting (or resuming) until it is Ready again.
  chat.readiness.add('discord', () => {
    if (!started || !client.isReady()) return 'not connected';
    return client.ws.shards.every((shard) => shard.status === Status.Ready) ? null : 'gateway reconnecting';
  });

  return {
    outbound,
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(config.token);
      await ready;
      await guilds.sweep();
      started = true;
      logger.info({ user: client.user?.tag, servers: client.guilds.cache.size }, 'Discord bot connected');
    },
    async stop() {
      started = false;
      await client.destroy();
    },
  };
}
