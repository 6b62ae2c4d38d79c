/**
 * Which Discord servers Scout serves. In single-team mode only those of DISCORD_GUILD_IDS, with the deployment's
 * key: the bot leaves any other server it is added to. In many-team mode every server it is in, each with the key
 * it connects. An interaction from anywhere else (another server, a DM) is refused before anything is stored or
 * sent to the service, and a server that removes the bot is forgotten (its key, its admins) and its jobs stop.
 */
import {
  type BaseInteraction,
  type Client,
  Events,
  type Guild,
  type Interaction,
  PermissionFlagsBits,
} from 'discord.js';
import { type Actor, OUTSIDE_MESSAGE, type TenancyDoor, type TenantRef } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, reply } from '../../core/ui/index.js';
import { privateReply } from './answer.js';

/** The tenant a server is. */
export const guildTenant = (guildId: string): TenantRef => ({ platform: 'discord', workspaceId: guildId });

/** The tenant an interaction comes from: its server, or `dm-<user>` for a DM, which is never served. */
export function tenantOfInteraction(interaction: BaseInteraction): TenantRef {
  return guildTenant(interaction.guildId ?? `dm-${interaction.user.id}`);
}

/** The acting person: the guild is the workspace; admins hold Administrator or Manage Server. */
export function actorOf(interaction: BaseInteraction): Actor {
  const permissions = interaction.memberPermissions;
  const member = interaction.member;
  const nick = member !== null && 'nick' in member ? member.nick : null;
  return {
    platform: 'discord',
    workspaceId: tenantOfInteraction(interaction).workspaceId,
    userId: interaction.user.id,
    userName: nick ?? interaction.user.globalName ?? interaction.user.username,
    isAdmin:
      permissions !== null &&
      (permissions.has(PermissionFlagsBits.Administrator) ||
        permissions.has(PermissionFlagsBits.ManageGuild)),
  };
}

/**
 * Lets an interaction through when its server is served; otherwise answers it at once (autocomplete with no
 * choices, anything else with a private refusal that names nothing of any team) and resolves false.
 */
export async function admit(
  interaction: Interaction,
  tenancy: Pick<TenancyDoor, 'isServed'>,
  logger: Logger,
): Promise<boolean> {
  if (tenancy.isServed(tenantOfInteraction(interaction))) return true;
  logger.info(
    { guild: interaction.guildId, interaction: interaction.id },
    'Refused a Discord interaction from outside the served servers.',
  );
  if (interaction.isAutocomplete()) await interaction.respond([]);
  else if (interaction.isRepliable()) {
    await interaction.reply(privateReply(reply([notice('warning', OUTSIDE_MESSAGE)])));
  }
  return false;
}

/** What the server watch needs. */
export interface GuildWatchOptions {
  client: Client;
  tenancy: TenancyDoor;
  logger: Logger;
  /** DISCORD_GUILD_IDS: the servers served in single-team mode (empty in many-team mode). */
  guildIds: readonly string[];
}

/** The server watch: `sweep()` leaves the unserved servers the client is in (run it once ready). */
export interface GuildWatch {
  sweep(): Promise<void>;
}

/**
 * Serves the listed servers at once, then follows the client's servers: in single-team mode it leaves any server
 * that is not served as it arrives, and in every mode it forgets a server that removed the bot.
 */
export function watchGuilds(options: GuildWatchOptions): GuildWatch {
  const { client, tenancy, logger } = options;
  const listed = new Set(options.guildIds);
  for (const id of listed) tenancy.serve(guildTenant(id));
  // Servers being left, with the leave under way: a server shows up as available at login, then in the sweep.
  const leaving = new Map<string, Promise<void>>();

  const leave = async (guild: Guild) => {
    logger.warn(
      { guild: guild.id, name: guild.name },
      'Leaving a Discord server that is not in DISCORD_GUILD_IDS: this deployment serves only those.',
    );
    try {
      await guild.leave();
    } catch (error) {
      leaving.delete(guild.id);
      logger.error({ err: error, guild: guild.id }, 'Could not leave an unserved Discord server.');
    }
  };

  const check = (guild: Guild): Promise<void> => {
    const tenant = guildTenant(guild.id);
    // A listed server the bot was removed from and added to again is served again.
    if (listed.has(guild.id)) tenancy.serve(tenant);
    if (tenancy.mode !== 'single' || tenancy.isServed(tenant)) return Promise.resolve();
    const pending = leaving.get(guild.id) ?? leave(guild);
    leaving.set(guild.id, pending);
    return pending;
  };

  client.on(Events.GuildCreate, (guild) => void check(guild));
  // The servers of READY, and one back from an outage, arrive as available rather than created.
  client.on(Events.GuildAvailable, (guild) => void check(guild));
  // discord.js emits GuildDelete only when the bot is out of the server: GUILD_DELETE with `unavailable: true`
  // (an outage) becomes GuildUnavailable instead (discord.js src/client/actions/GuildDelete.js).
  client.on(Events.GuildDelete, (guild) => {
    leaving.delete(guild.id);
    void tenancy
      .leave(guildTenant(guild.id))
      .catch((error: unknown) =>
        logger.error(
          { err: error, guild: guild.id },
          'Could not forget a Discord server that removed the bot.',
        ),
      );
  });

  return {
    async sweep() {
      await Promise.all([...client.guilds.cache.values()].map(check));
      await Promise.all(leaving.values());
    },
  };
}
