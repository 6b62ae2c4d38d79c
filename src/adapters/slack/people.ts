/**
 * Who a person is to Scout, as Slack says: whether they belong to the tenant and whether they are its admin.
 *
 * In a workspace install, the signed request names the person's own workspace (a person of another organisation
 * in a Slack Connect channel names theirs), so belonging needs no question. In an Enterprise Grid org-wide
 * install, the request names the org for everyone in the channel, guests of other organisations included: a person
 * belongs to the org only when users.info says so (`enterprise_user.enterprise_id` is the org), and the org's
 * admins are its admins and owners (`enterprise_user.is_admin`, `is_owner`), not a workspace's.
 * https://docs.slack.dev/reference/methods/users.info https://docs.slack.dev/enterprise
 */
import type { webApi } from '@slack/bolt';
import type { Actor } from '../../core/actor.js';
import type { Logger } from '../../core/logger.js';
import type { TenantRef } from '../../core/tenancy/index.js';
import type { Gate } from './tenancy.js';

/** The person a request comes from, and the tenant it acts in. */
export interface Person {
  tenant: TenantRef;
  /** The tenant is an org that installed Scout org-wide: only Slack's word makes someone its member. */
  orgWide: boolean;
  userId: string;
  userName?: string | undefined;
}

/** What Scout knows of a person from users.info. */
interface Standing {
  member: boolean;
  admin: boolean;
}

/** The people of the tenants Scout serves. */
export interface People {
  /**
   * Whether Scout serves the person: their tenant is served and, in an org-wide install, Slack says they are of
   * the org. A workspace install asks Slack nothing. Throws when Slack cannot say (the request then fails).
   */
  admits(client: webApi.WebClient, person: Person): Promise<boolean>;
  /** The actor of a person already admitted, with the admin flag Slack gives. */
  actorOf(client: webApi.WebClient, person: Person): Promise<Actor>;
}

/** users.info answers are kept this long. */
const STANDING_TTL_MS = 10 * 60_000;
const STANDING_CACHE_MAX = 5000;

type SlackUser = webApi.UsersInfoResponse['user'];

/** The person's standing in the tenant, from what users.info says of them. */
function standingOf(user: SlackUser, person: Person): Standing {
  if (!person.orgWide) return { member: true, admin: user?.is_admin === true || user?.is_owner === true };
  const org = user?.enterprise_user;
  const member = person.tenant.workspaceId !== '' && org?.enterprise_id === person.tenant.workspaceId;
  return { member, admin: member && (org?.is_admin === true || org?.is_owner === true) };
}

/**
 * Creates the people of the tenants `gate` lets in. Slack's answers are kept per person for 10 minutes; a failed
 * users.info is not kept, and counts for that request only (not an admin; in an org-wide install, not admitted).
 */
export function createPeople(gate: Gate, logger: Logger): People {
  const known = new Map<string, Standing & { at: number }>();
  const standing = async (client: webApi.WebClient, person: Person): Promise<Standing | null> => {
    const key = `${person.orgWide ? 'org' : 'workspace'}:${person.tenant.workspaceId}:${person.userId}`;
    const cached = known.get(key);
    if (cached !== undefined && Date.now() - cached.at < STANDING_TTL_MS) return cached;
    let found: Standing;
    try {
      const info = await client.users.info({ user: person.userId });
      found = standingOf(info.user, person);
    } catch (error) {
      logger.warn({ err: error }, 'users.info failed; the answer is not kept');
      return null;
    }
    if (known.size >= STANDING_CACHE_MAX) known.clear();
    known.set(key, { ...found, at: Date.now() });
    return found;
  };
  return {
    async admits(client, person) {
      if (!gate(person.tenant)) return false;
      if (!person.orgWide) return true;
      const found = await standing(client, person);
      if (found === null) throw new Error('Slack did not say whether the person belongs to the org.');
      return found.member;
    },
    async actorOf(client, person) {
      const found = await standing(client, person);
      return {
        platform: 'slack',
        workspaceId: person.tenant.workspaceId,
        userId: person.userId,
        ...(person.userName === undefined ? {} : { userName: person.userName }),
        isAdmin: found?.member === true && found.admin,
      };
    },
  };
}
