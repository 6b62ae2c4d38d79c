/**
 * Which server a direct message to Scout is for. A DM is in no server, and a server is Scout's tenant: a DM is
 * served only for a member of a server Scout serves (single-team mode: DISCORD_GUILD_IDS; many-team mode: any
 * server Scout is in). Membership is asked of Discord (GET /guilds/{guild}/members/{user}, `guild.members.fetch`)
 * and kept for a minute. Only the servers with a service account count (`chat.tenancy.hasAccount`: every served one
 * in single-team mode, those that connected a key in many-team mode): a member of several is answered for the one
 * they last used Scout in (a slash command, a mention, a choice), with none known they are asked which one. A member
 * of served servers none of which has an account is answered for one of those all the same (chosen as above), so
 * the dispatcher says what it says to a slash command there: no account is connected yet, ask an admin.
 *
 * The last server of each person is kept in memory only (the chat port has no store door for it): after a restart a
 * member of several servers is asked once more. Memberships are few REST calls: a person is checked in at most
 * MEMBER_CHECKS_MAX servers.
 */
import {
  type Client,
  DiscordAPIError,
  type Guild,
  type GuildMember,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
} from 'discord.js';
import type { Actor, TenancyDoor } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { guildTenant } from './tenancy.js';

/** How long a membership (or its absence) read from Discord is trusted. */
export const MEMBERSHIP_TTL_MS = 60_000;
/** Most servers one person's membership is asked of, per message (each one a REST call when not known). */
export const MEMBER_CHECKS_MAX = 25;
/** Memberships and last servers kept before the oldest are dropped. */
const KEPT_MAX = 10_000;

/** The server a DM is for. */
export type DmServer =
  /** One server: the person is its member, acting there. */
  | { status: 'one'; guild: Guild; actor: Actor }
  /** A member of several served servers with an account (or, with none, without), none used lately: they choose. */
  | { status: 'several'; guilds: Guild[] }
  /** A member of no served server: the usual refusal. */
  | { status: 'none' };

/** The servers of direct messages. */
export interface DmServers {
  /** The person used Scout in this server (a slash command, a mention, a choice): their DMs are for it now. */
  remember(userId: string, guildId: string): void;
  /** The server a DM from this person is for. */
  serverOf(userId: string): Promise<DmServer>;
  /** The person as a member of this served server, or null when they are not one (or it is not served). */
  memberIn(guildId: string, userId: string): Promise<GuildMember | null>;
}

/** The acting person as a member of a server: the server is the workspace; admins hold Administrator or Manage Server. */
export function actorOfMember(member: GuildMember): Actor {
  const { permissions } = member;
  return {
    platform: 'discord',
    workspaceId: member.guild.id,
    userId: member.id,
    userName: member.nickname ?? member.user.globalName ?? member.user.username,
    isAdmin:
      permissions.has(PermissionFlagsBits.Administrator) || permissions.has(PermissionFlagsBits.ManageGuild),
  };
}

/** Drops the oldest entries of a map past KEPT_MAX (a Map iterates in insertion order). */
function bound<K, V>(map: Map<K, V>): void {
  if (map.size <= KEPT_MAX) return;
  for (const key of [...map.keys()].slice(0, map.size - KEPT_MAX)) map.delete(key);
}

/** Creates the DM server directory over the client's servers. */
export function createDmServers(options: {
  client: Client;
  tenancy: Pick<TenancyDoor, 'isServed' | 'hasAccount'>;
  logger: Logger;
  now?: () => number;
}): DmServers {
  const { client, tenancy, logger, now = Date.now } = options;
  const last = new Map<string, string>();
  const known = new Map<string, { member: GuildMember | null; until: number }>();

  const served = (guildId: string) => tenancy.isServed(guildTenant(guildId));
  const connected = (member: GuildMember) => tenancy.hasAccount(guildTenant(member.guild.id));
  const one = (member: GuildMember): DmServer => ({
    status: 'one',
    guild: member.guild,
    actor: actorOfMember(member),
  });

  const memberIn = async (guildId: string, userId: string): Promise<GuildMember | null> => {
    const guild = client.guilds.cache.get(guildId);
    if (guild === undefined || !served(guildId)) return null;
    const key = `${guildId}:${userId}`;
    const cached = known.get(key);
    if (cached !== undefined && cached.until > now()) return cached.member;
    let member: GuildMember | null;
    try {
      // force: the member cache is not kept up to date without the privileged Guild Members intent.
      member = await guild.members.fetch({ user: userId, force: true });
    } catch (error) {
      const absent =
        error instanceof DiscordAPIError &&
        (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser);
      if (!absent) {
        // Not remembered: the next message asks again.
        logger.warn({ err: error, guild: guildId }, 'Could not read a Discord server membership.');
        return null;
      }
      member = null;
    }
    known.delete(key);
    known.set(key, { member, until: now() + MEMBERSHIP_TTL_MS });
    bound(known);
    return member;
  };

  return {
    remember(userId, guildId) {
      last.delete(userId);
      last.set(userId, guildId);
      bound(last);
    },
    memberIn,
    async serverOf(userId) {
      const lastUsed = last.get(userId);
      const lastMember = lastUsed === undefined ? null : await memberIn(lastUsed, userId);
      if (lastMember !== null && (await connected(lastMember))) return one(lastMember);
      let guilds = [...client.guilds.cache.values()].filter((guild) => served(guild.id));
      // With many servers, only those where the person was seen (an interaction, a message) are asked about.
      if (guilds.length > MEMBER_CHECKS_MAX)
        guilds = guilds.filter((guild) => guild.members.cache.has(userId)).slice(0, MEMBER_CHECKS_MAX);
      const members = (await Promise.all(guilds.map((guild) => memberIn(guild.id, userId)))).filter(
        (member): member is GuildMember => member !== null,
      );
      const accounts = await Promise.all(members.map(connected));
      const withAccount = members.filter((_, i) => accounts[i]);
      // None with an account: chosen among the others as before, so chat.text gives its usual not-connected answer.
      const counted = withAccount.length > 0 ? withAccount : lastMember !== null ? [lastMember] : members;
      const [only] = counted;
      if (only === undefined) return { status: 'none' };
      if (counted.length === 1) return one(only);
      return { status: 'several', guilds: counted.map((member) => member.guild) };
    },
  };
}
