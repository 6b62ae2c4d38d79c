/**
 * Registering `/scout` with Discord: the bulk overwrite of the application's commands (globally, or in one guild,
 * which applies at once) with the JSON built from the command declarations, and the link that adds the bot to a
 * server with the permissions Scout uses. `npm run discord:register` (src/tools/discord-register.ts) runs it; importing this module
 * does nothing else.
 */
import {
  OAuth2Routes,
  OAuth2Scopes,
  PermissionFlagsBits,
  PermissionsBitField,
  REST,
  Routes,
} from 'discord.js';
import type { Catalogue } from '../../core/chat/index.js';
import { buildCommandJson } from './commands.js';
import type { DiscordConfig } from './config.js';

export { buildCommandJson } from './commands.js';

/** Reads `--guild ID` (or `--guild=ID`) from the arguments. */
export function guildArgument(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--guild') return args[i + 1] ?? null;
    if (arg.startsWith('--guild=')) return arg.slice('--guild='.length) || null;
  }
  return null;
}

/**
 * What Scout does in a channel: post replies and background posts as embeds, answer an @mention with a reply to it
 * (Send Messages; Read Message History, without which Discord refuses a reply's message reference), start and post
 * in threads for later replies of a mail thread, and read its recent posts so one interrupted by a restart is not
 * posted twice. DMs and mentions need no other permission: their gateway intents (GuildMessages, DirectMessages)
 * are asked for at login, and neither is privileged.
 */
export const BOT_PERMISSIONS = PermissionsBitField.resolve([
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.EmbedLinks,
  PermissionFlagsBits.CreatePublicThreads,
  PermissionFlagsBits.SendMessagesInThreads,
  PermissionFlagsBits.ReadMessageHistory,
]);

/** The link that adds the bot and its commands to a server, asking for BOT_PERMISSIONS. */
export function inviteUrl(applicationId: string): string {
  const url = new URL(OAuth2Routes.authorizationURL);
  url.searchParams.set('client_id', applicationId);
  url.searchParams.set('scope', [OAuth2Scopes.Bot, OAuth2Scopes.ApplicationsCommands].join(' '));
  url.searchParams.set('permissions', BOT_PERMISSIONS.toString());
  return url.toString();
}

/** The invite lines printed after registering: the link, and in single-team mode the only servers served. */
export function inviteText(config: DiscordConfig, singleTeam: boolean): string {
  const link = `Add the bot to a server: ${inviteUrl(config.applicationId)}\n`;
  if (!singleTeam) return link;
  return `${link}Only the servers in DISCORD_GUILD_IDS (${config.guildIds.join(', ')}) are served; Scout leaves any other.\n`;
}

/** Sends the bulk overwrite of `/scout` from `catalogue`; resolves with how many commands Discord now has registered. */
export async function registerCommands(
  config: DiscordConfig,
  catalogue: Catalogue,
  guildId: string | null,
): Promise<number> {
  const rest = new REST(config.apiUrl === null ? {} : { api: config.apiUrl }).setToken(config.token);
  const body = buildCommandJson(catalogue);
  const route =
    guildId === null
      ? Routes.applicationCommands(config.applicationId)
      : Routes.applicationGuildCommands(config.applicationId, guildId);
  const result = (await rest.put(route, { body })) as unknown[];
  return result.length;
}
