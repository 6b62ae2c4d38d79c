/**
 * Which tenant a Slack request acts in, who is refused before anything happens, and leaving: an uninstall or
 * revoked bot tokens delete the installation and make the tenant leave (its key, admins and jobs go).
 *
 * The tenant is the Enterprise Grid org for an org-wide install, else the workspace Scout is installed in (Bolt's
 * `context.teamId`, from the request's team), never the person's own team: in Enterprise Grid `user.team_id` is the
 * person's home workspace whichever of the org's workspaces they act in (bolt-js#1875). Whether the person belongs
 * is a separate question (people.ts): a person whose own team is the installed workspace belongs; one from another
 * team belongs only when the workspace is in a Grid org and users.info says they are of that org; anyone else, a
 * guest of another organisation in a Slack Connect channel, is an outsider. In an org-wide install everyone is
 * asked about, once users.info has said whether they are of the org.
 * https://docs.slack.dev/apis/slack-connect/ https://github.com/slackapi/bolt-js/issues/1875
 */
import type { App as BoltApp, SlashCommand } from '@slack/bolt';
import { OUTSIDE_MESSAGE, type TenancyDoor, type TenantRef } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import type { SlackInstallations } from './installations.js';
import type { Belonging, Person } from './people.js';

/** What Bolt's context says about the install a request came through. */
export interface InstallContext {
  isEnterpriseInstall?: boolean;
  enterpriseId?: string;
  teamId?: string;
}

const tenant = (workspaceId: string | undefined | null): TenantRef => ({
  platform: 'slack',
  workspaceId: workspaceId ?? '',
});

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const orgWide = (context: InstallContext) => context.isEnterpriseInstall === true;

/**
 * How a person of a workspace install belongs, given whether their own team, or another hint, sets them apart
 * from the installed workspace (`apart`): a person of the workspace belongs; one from elsewhere belongs only
 * through the workspace's Grid org (Bolt's `context.enterpriseId`), if it has one, else is an outsider.
 */
function workspaceBelonging(context: InstallContext, apart: boolean): Belonging {
  if (!apart) return { kind: 'workspace' };
  const org = nonEmpty(context.enterpriseId);
  return org === undefined ? { kind: 'outsider' } : { kind: 'org', enterpriseId: org };
}

/** The org of an org-wide install, whose people are those users.info names of it. */
function orgPerson(org: string | undefined, userId: string, userName: string | undefined): Person {
  return {
    tenant: tenant(org),
    belongs: org === undefined ? { kind: 'outsider' } : { kind: 'org', enterpriseId: org },
    userId,
    userName,
  };
}

/**
 * The person of a slash command: in an org-wide install, in the org (whether they are of it is asked of Slack);
 * else in the workspace the command ran in, which is the installed one. Slack documents no field naming the
 * person's own team in a command: the `user_team` and `enterprise_id` it may carry are taken only as hints that
 * the person is from elsewhere (then, in a Grid org, Slack is asked; in a plain workspace, they are a guest).
 */
export function commandPerson(command: SlashCommand, context: InstallContext): Person {
  if (orgWide(context)) {
    return orgPerson(
      nonEmpty(context.enterpriseId) ?? nonEmpty(command.enterprise_id),
      command.user_id,
      command.user_name,
    );
  }
  const installed = nonEmpty(command.team_id) ?? nonEmpty(context.teamId);
  const userTeam = nonEmpty(command.user_team);
  const enterprise = nonEmpty(command.enterprise_id);
  const org = nonEmpty(context.enterpriseId);
  const apart =
    (userTeam !== undefined && userTeam !== installed) ||
    (org !== undefined && enterprise !== undefined && enterprise !== org);
  return {
    tenant: tenant(installed),
    belongs: workspaceBelonging(context, apart),
    userId: command.user_id,
    userName: command.user_name,
  };
}

/** What an interaction payload (block_actions, view_submission) says about the person and the install. */
export interface InteractionBody {
  user: {
    id: string;
    team_id?: string | undefined;
    name?: string | undefined;
    username?: string | undefined;
  };
  team?: { id: string; enterprise_id?: string } | null | undefined;
  enterprise?: { id: string } | null | undefined;
  /** A modal's view: a modal opened from a Slack Connect channel names the installed workspace here. */
  view?: { app_installed_team_id?: string | undefined } | undefined;
}

/**
 * The person of an element press or a modal submission: in an org-wide install, in the org; else in the
 * installed workspace (Bolt's `context.teamId`, or the payload's `view.app_installed_team_id` or `team.id`), a
 * person of it when their own team (`user.team_id`) is that workspace, like commandPerson otherwise.
 */
export function interactionPerson(body: InteractionBody, context: InstallContext): Person {
  const userName = body.user.name ?? body.user.username;
  if (orgWide(context)) {
    return orgPerson(
      nonEmpty(context.enterpriseId) ?? nonEmpty(body.enterprise?.id) ?? nonEmpty(body.team?.enterprise_id),
      body.user.id,
      userName,
    );
  }
  const installed =
    nonEmpty(context.teamId) ?? nonEmpty(body.view?.app_installed_team_id) ?? nonEmpty(body.team?.id);
  const own = nonEmpty(body.user.team_id);
  return {
    tenant: tenant(installed),
    belongs: workspaceBelonging(context, own !== undefined && own !== installed),
    userId: body.user.id,
    userName,
  };
}

/** The person of an event (the App Home): in the org of an org-wide install, else in the event's workspace. */
export function eventPerson(userId: string, teamId: string | undefined, context: InstallContext): Person {
  if (orgWide(context)) return orgPerson(nonEmpty(context.enterpriseId), userId, undefined);
  return { tenant: tenant(teamId ?? context.teamId), belongs: { kind: 'workspace' }, userId };
}

/** What a message event (a direct message, a mention) says of its author's own team. */
export interface MessageAuthor {
  user: string;
  /** The author's own workspace: Slack's `user_team` when it differs, else `team`. */
  team?: string | undefined;
  user_team?: string | undefined;
}

/**
 * The person of a message event (a direct message, a mention): in an org-wide install, in the org; else in the
 * installed workspace (Bolt's `context.teamId`, from the event's authorizations, else its `team_id`), a person of
 * it when their own team (`user_team`, else `team`) is that workspace, like interactionPerson otherwise.
 */
export function messagePerson(
  author: MessageAuthor,
  teamId: string | undefined,
  context: InstallContext,
): Person {
  if (orgWide(context)) return orgPerson(nonEmpty(context.enterpriseId), author.user, undefined);
  const installed = nonEmpty(context.teamId) ?? nonEmpty(teamId);
  const own = nonEmpty(author.user_team) ?? nonEmpty(author.team);
  return {
    tenant: tenant(installed),
    belongs: workspaceBelonging(context, own !== undefined && own !== installed),
    userId: author.user,
  };
}

/**
 * Whether Scout serves the tenant: single-team mode serves the bot token's workspace only; many-team mode serves
 * the workspaces (and orgs) that installed it.
 */
export type Gate = (tenant: TenantRef) => Promise<boolean>;

/** Creates the gate; `installations` is null in single-team mode. */
export function createGate(
  tenancy: Pick<TenancyDoor, 'isServed'>,
  installations: SlackInstallations | null,
): Gate {
  return async (ref) =>
    tenancy.isServed(ref) && (installations === null || (await installations.has(ref.workspaceId)));
}

/** The refusal an outsider sees, only them: it names nothing of any team. */
export const outsideReply = (): Reply =>
  reply([notice('warning', OUTSIDE_MESSAGE)], { visibility: 'author' });

/**
 * Whether an uninstall or a revocation at `eventTime` (seconds, Slack's `event_time`) came before the current
 * installation of `id`: Slack may deliver it late, after the workspace installed Scout again. Compared in whole
 * seconds, Slack's own precision: an event in the second of the install is not ignored.
 */
async function predates(
  installations: SlackInstallations,
  id: string,
  eventTime: unknown,
  logger: Logger,
): Promise<boolean> {
  if (typeof eventTime !== 'number' || !Number.isFinite(eventTime)) return false;
  let installedAt: Date | null;
  try {
    installedAt = await installations.installedAt(id);
  } catch (error) {
    // An installation that cannot be opened serves nobody: it goes.
    logger.warn({ err: error, workspace: id }, 'The Slack installation could not be read.');
    return false;
  }
  return installedAt !== null && eventTime < Math.floor(installedAt.getTime() / 1000);
}

/**
 * An uninstall, or revoked bot tokens, make the tenant leave (its key and admins forgotten, its jobs stopped) and,
 * in many-team mode, delete its installation, unless the event happened before the current installation was made
 * (a late event must not wipe a fresh reinstall). Bolt runs these two events without authorizing them, since the
 * installation may already be gone.
 * https://docs.slack.dev/reference/events/app_uninstalled https://docs.slack.dev/reference/events/tokens_revoked
 */
export function registerLeaving(
  bolt: BoltApp,
  deps: { tenancy: Pick<TenancyDoor, 'leave'>; installations: SlackInstallations | null; logger: Logger },
): void {
  const { installations, logger } = deps;
  const leave = async (context: InstallContext, eventTime: unknown, why: string) => {
    const enterprise = context.isEnterpriseInstall === true;
    const id = (enterprise ? context.enterpriseId : context.teamId) ?? '';
    if (id === '') return;
    if (installations !== null && (await predates(installations, id, eventTime, logger))) {
      logger.info(
        { workspace: id, why, eventTime },
        'A Slack event older than the installation was ignored.',
      );
      return;
    }
    await installations?.deleteInstallation(
      enterprise
        ? { enterpriseId: id, teamId: undefined, isEnterpriseInstall: true }
        : { teamId: id, enterpriseId: context.enterpriseId, isEnterpriseInstall: false },
    );
    await deps.tenancy.leave({ platform: 'slack', workspaceId: id });
    logger.info({ workspace: id, why }, 'A Slack workspace left.');
  };
  bolt.event('app_uninstalled', async ({ body, context }) => {
    await leave(context, body.event_time, 'app_uninstalled');
  });
  bolt.event('tokens_revoked', async ({ event, body, context }) => {
    if ((event.tokens.bot ?? []).length > 0) await leave(context, body.event_time, 'tokens_revoked');
  });
}
