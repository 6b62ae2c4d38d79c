/**
 * Who a person is to Scout, as Slack says: whether they belong to the tenant and whether they are its admin.
 *
 * A person whose own team is the installed workspace belongs without a question, and its admins and owners
 * (users.info's `is_admin`, `is_owner`) are its admins. A person of another team belongs only through an
 * Enterprise Grid org: in an org-wide install the request names the org for everyone in the channel, guests of
 * other organisations included, and in a workspace install inside an org a person whose home is another of the
 * org's workspaces acts in it too. Such a person belongs only when users.info says they are of the org
 * (`enterprise_user.enterprise_id`), and only the org's admins and owners (`enterprise_user.is_admin`,
 * `is_owner`) are their admins, not a workspace's. Anyone else (a Slack Connect guest of a plain workspace) is an
 * outsider, refused without a question.
 * https://docs.slack.dev/reference/methods/users.info https://docs.slack.dev/enterprise
 */
import type { webApi } from '@slack/bolt';
import type { Actor, TenantRef } from '../../core/chat/index.js';
import { PlatformError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Gate } from './tenancy.js';

/**
 * How a person belongs to the tenant: as a person of the installed workspace (the signed request says so), as a
 * person of an Enterprise Grid org (only users.info's word makes them one), or not at all.
 */
export type Belonging = { kind: 'workspace' } | { kind: 'org'; enterpriseId: string } | { kind: 'outsider' };

/** The person a request comes from, and the tenant it acts in. */
export interface Person {
  tenant: TenantRef;
  belongs: Belonging;
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
   * Whether Scout serves the person: their tenant is served and they belong to it; a person who belongs through
   * an org only when Slack says they are of it. A person of the installed workspace, or an outsider, asks Slack
   * nothing. Throws when Slack cannot say (the request then fails).
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
function standingOf(user: SlackUser, belongs: Belonging): Standing {
  if (belongs.kind === 'outsider') return { member: false, admin: false };
  if (belongs.kind === 'workspace') {
    return { member: true, admin: user?.is_admin === true || user?.is_owner === true };
  }
  const org = user?.enterprise_user;
  const member = belongs.enterpriseId !== '' && org?.enterprise_id === belongs.enterpriseId;
  return { member, admin: member && (org?.is_admin === true || org?.is_owner === true) };
}

/** Where a person's standing is kept: their tenant, how they belong to it, and who they are. */
const standingKey = (person: Person) => {
  const { belongs } = person;
  const how = belongs.kind === 'org' ? `org:${belongs.enterpriseId}` : belongs.kind;
  return `${person.tenant.workspaceId}|${how}|${person.userId}`;
};

/**
 * Creates the people of the tenants `gate` lets in. Slack's answers are kept per person for 10 minutes; a failed
 * users.info is not kept, and counts for that request only (not an admin; for an org's person, not admitted).
 */
export function createPeople(gate: Gate, logger: Logger): People {
  const known = new Map<string, Standing & { at: number }>();
  const standing = async (client: webApi.WebClient, person: Person): Promise<Standing | null> => {
    if (person.belongs.kind === 'outsider') return { member: false, admin: false };
    const key = standingKey(person);
    const cached = known.get(key);
    if (cached !== undefined && Date.now() - cached.at < STANDING_TTL_MS) return cached;
    let found: Standing;
    try {
      const info = await client.users.info({ user: person.userId });
      found = standingOf(info.user, person.belongs);
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
      if (!(await gate(person.tenant))) return false;
      if (person.belongs.kind !== 'org') return person.belongs.kind === 'workspace';
      const found = await standing(client, person);
      if (found === null) throw new PlatformError('Slack did not say whether the person belongs to the org.');
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
