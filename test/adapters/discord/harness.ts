/**
 * Shared setup of the end-to-end Discord tests: a sandbox service, the fake Discord, and bots (app + real
 * discord.js client) started against them, plus helpers to read the payloads the bot sent.
 */
import { expect } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../../../src/adapters/discord/index.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import type { Clock } from '../../../src/core/clock.js';
import type { CommandSettings } from '../../../src/core/command/types.js';
import { createLogger, type Logger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox, type SandboxKey } from '../../../src/sandbox/index.js';
import {
  createFakeDiscord,
  type FakeDiscord,
  type FakeGuild,
  type FakeMessage,
  type FakeOrigin,
  type FakeRequest,
  type FakeUser,
} from '../../fakes/discord-fake.js';
import { cardTitles, interactive, messageText } from './layout.js';

/** Ids of the fake application, guild and channel. */
export const APP_ID = '100000000000000001';
export const GUILD = '300000000000000001';
export const CHANNEL = '400000000000000001';
export const KEY = 'discord-key-0002';
/** The secret that seals connected keys in many-team bots. */
export const ENCRYPTION_KEY = 'x'.repeat(40);

/** A bot: its app and its Discord client. */
export interface Bot {
  app: App;
  adapter: DiscordAdapter;
  stop(): Promise<void>;
}

/** The sandbox, the fake and a way to start bots on them. */
export interface World {
  sandbox: Sandbox;
  fake: FakeDiscord;
  logger: Logger;
  /**
   * Starts a bot: single-team with KEY serving `guildIds` (GUILD by default), or many-team (`multi`) with no key,
   * each server connecting its own.
   */
  startBot(options: {
    databasePath: string;
    settings?: Partial<CommandSettings>;
    clock?: Clock;
    multi?: boolean;
    guildIds?: string[];
  }): Promise<Bot>;
  stop(): Promise<void>;
}

/** A service allowing `perMinute` requests, and how often the bots' waiting calls hear their place. */
export interface WorldRateLimit {
  perMinute: number;
  queueReportMs?: number;
}

/**
 * Starts the sandbox (with KEY, or `keys`) and the fake Discord (the bot in GUILD and any other `guilds`); with
 * `rateLimit`, the sandbox allows that many requests a minute and the bots' clients keep to it.
 */
export async function createWorld(
  options: { keys?: SandboxKey[]; guilds?: FakeGuild[]; rateLimit?: WorldRateLimit } = {},
): Promise<World> {
  const { rateLimit } = options;
  const sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    ...(rateLimit === undefined ? {} : { rateLimitPerMinute: rateLimit.perMinute }),
    keys: options.keys ?? [{ key: KEY, teamId: 'team_e', credits: 100_000 }],
  });
  await sandbox.start();
  const logger = createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr });
  const fake = createFakeDiscord({
    applicationId: APP_ID,
    guildId: GUILD,
    channelId: CHANNEL,
    ...(options.guilds === undefined ? {} : { guilds: options.guilds }),
  });
  await fake.start();
  const bots = new Set<Bot>();
  return {
    sandbox,
    fake,
    logger,
    async startBot({ databasePath, settings, clock, multi = false, guildIds = [GUILD] }) {
      const app = await createApp({
        service: {
          ...(multi ? {} : { apiKey: KEY }),
          baseUrl: sandbox.url,
          mediaUrl: sandbox.mediaUrl,
          retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
          ...(rateLimit === undefined
            ? {}
            : {
                rateLimit: {
                  perWindow: rateLimit.perMinute,
                  ...(rateLimit.queueReportMs === undefined
                    ? {}
                    : { queueReportMs: rateLimit.queueReportMs }),
                },
              }),
        },
        ...(multi ? { tenancy: { kind: 'multi' as const, encryptionKey: ENCRYPTION_KEY } } : {}),
        databasePath,
        logger,
        families: FAMILIES,
        ...(settings === undefined ? {} : { settings }),
        ...(clock === undefined ? {} : { clock }),
      });
      const adapter = createDiscordAdapter({
        config: {
          token: 'fake-token',
          applicationId: APP_ID,
          apiUrl: fake.apiUrl,
          guildIds: multi ? [] : guildIds,
        },
        chat: app.chat,
        logger,
      });
      const bot: Bot = {
        app,
        adapter,
        async stop() {
          if (!bots.delete(bot)) return;
          await adapter.stop();
          await app.stop();
        },
      };
      bots.add(bot);
      await adapter.start();
      return bot;
    },
    async stop() {
      for (const bot of [...bots]) await bot.stop();
      await fake.stop();
      await sandbox.stop();
    },
  };
}

/** The buttons and selects of a message, wherever they sit (rows, or a Components V2 layout), in order. */
export const components = (message: Record<string, unknown>) => interactive(message);

/** The custom_id of the button whose label matches. */
export const buttonId = (message: Record<string, unknown>, label: RegExp) => {
  const found = components(message).find((c) => c.type === 2 && label.test(c.label ?? ''));
  if (found?.custom_id === undefined)
    throw new Error(`No button ${label} in ${JSON.stringify(components(message))}`);
  return found.custom_id;
};

/** Titles of a message's cards: its embeds' titles, or its Components V2 cards'. */
export const titles = (message: Record<string, unknown>) => cardTitles(message);

/** A message's text, of its embeds and text displays, as one string. */
export const text = (message: Record<string, unknown>) => messageText(message);

/** The interaction callback of an interaction. */
export const callback = (id: string) => (r: FakeRequest) =>
  r.method === 'POST' && r.path.startsWith(`/interactions/${id}/`);
/** An edit of the original response of a token. */
export const edited = (token: string) => (r: FakeRequest) =>
  r.method === 'PATCH' && r.path.includes(`/${token}/messages/@original`);
/** A follow-up message of a token. */
export const followed = (token: string) => (r: FakeRequest) =>
  r.method === 'POST' && r.path === `/webhooks/${APP_ID}/${token}`;
/** Any answer (edit or follow-up) through a token. */
export const answered = (token: string) => (r: FakeRequest) => edited(token)(r) || followed(token)(r);

/** Sends `/scout <group> <sub>` with options (type 2 = command, 4 = autocomplete), by default from GUILD. */
export const slash = (
  fake: FakeDiscord,
  group: string,
  sub: string,
  options: Array<Record<string, unknown>>,
  { type = 2, ...extra }: { type?: number; user?: FakeUser } & FakeOrigin = {},
) =>
  fake.interact(
    type,
    {
      id: '500000000000000001',
      name: 'scout',
      type: 1,
      options: [{ type: 2, name: group, options: [{ type: 1, name: sub, options }] }],
    },
    extra,
  );

let messageSequence = 600_000_000_000_000_000n;

/** The message a request's body describes, shaped as Discord sends it inside a component interaction. */
export const messageOf = async (request: Promise<FakeRequest>): Promise<FakeMessage> => {
  const body = (await request).body as Record<string, unknown>;
  expect(body).toBeTypeOf('object');
  messageSequence += 1n;
  return {
    content: '',
    ...body,
    id: messageSequence.toString(),
    channel_id: CHANNEL,
    type: 0,
    author: { id: APP_ID, username: 'scout', discriminator: '0', avatar: null, bot: true },
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    pinned: false,
    flags: (body.flags as number | undefined) ?? 0,
  };
};

/** Presses a button of a message (in GUILD unless `origin` says otherwise). */
export const press = (
  fake: FakeDiscord,
  message: FakeMessage,
  label: RegExp,
  user?: FakeUser,
  origin: FakeOrigin = {},
) =>
  fake.interact(
    3,
    { custom_id: buttonId(message, label), component_type: 2 },
    user === undefined ? { message, ...origin } : { message, user, ...origin },
  );
