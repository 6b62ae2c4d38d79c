/**
 * Which tenant a Slack request acts in, who is refused before anything happens, and leaving: an uninstall or
 * revoked bot tokens delete the installation and make the tenant leave (its key, admins and jobs go).
 *
 * The tenant is the Enterprise Grid org for an org-wide install, else the person's own workspace, not the
 * workspace the channel belongs to: in a Slack Connect channel shared with another organisation, a person of
 * that organisation pressing Scout's buttons acts in their own workspace, which this deployment does not serve.
 * In an org-wide install such a person is refused too, once users.info says they are not of the org (people.ts).
 * https://docs.slack.dev/apis/slack-connect/
 */
import type { App as BoltApp, SlashCommand } from '@slack/bolt';
import type { App } from '../../app.js';
import type { Logger } from '../../core/logger.js';
import { OUTSIDE_MESSAGE, type TenantRef } from '../../core/tenancy/index.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import type { SlackInstallations } from './installations.js';
import type { Person } from './people.js';

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
 * The person of a slash command: in an org-wide install, in the org (whether they are of it is asked of Slack),
 * else in their own workspace.
 */
export function commandPerson(command: SlashCommand, context: InstallContext): Person {
  const where = orgWide(context)
    ? tenant(context.enterpriseId ?? nonEmpty(command.enterprise_id))
    : // Slack adds user_team when the person's workspace differs from the one the command ran in.
      tenant(nonEmpty(command.user_team) ?? command.team_id);
  return { tenant: where, orgWide: orgWide(context), userId: command.user_id, userName: command.user_name };
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
}

/** The person of an element press or a modal submission, like commandPerson. */
export function interactionPerson(body: InteractionBody, context: InstallContext): Person {
  const where = orgWide(context)
    ? tenant(context.enterpriseId ?? body.enterprise?.id ?? body.team?.enterprise_id)
    : tenant(nonEmpty(body.user.team_id) ?? body.team?.id);
  return {
    tenant: where,
    orgWide: orgWide(context),
    userId: body.user.id,
    userName: body.user.name ?? body.user.username,
  };
}

/** The person of an event (the App Home): in the org of an org-wide install, else in the event's workspace. */
export function eventPerson(userId: string, teamId: string | undefined, context: InstallContext): Person {
  const where = tenant(orgWide(context) ? context.enterpriseId : (teamId ?? context.teamId));
  return { tenant: where, orgWide: orgWide(context), userId };
}

/**
 * Whether Scout serves the tenant: single-team mode serves the bot token's workspace only; many-team mode serves
 * the workspaces (and orgs) that installed it.
 */
export type Gate = (tenant: TenantRef) => boolean;

/** Creates the gate; `installations` is null in single-team mode. */
export function createGate(app: App, installations: SlackInstallations | null): Gate {
  return (ref) => app.tenants.isServed(ref) && (installations === null || installations.has(ref.workspaceId));
}

/** The refusal an outsider sees, only them: it names nothing of any team. */
export const outsideReply = (): Reply =>
  reply([notice('warning', OUTSIDE_MESSAGE)], { visibility: 'author' });

/**
 * Whether an uninstall or a revocation at `eventTime` (seconds, Slack's `event_time`) came before the current
 * installation of `id`: Slack may deliver it late, after the workspace installed Scout again. Compared in whole
 * seconds, Slack's own precision: an event in the second of the install is not ignored.
 */
function predates(
  installations: SlackInstallations,
  id: string,
  eventTime: unknown,
  logger: Logger,
): boolean {
  if (typeof eventTime !== 'number' || !Number.isFinite(eventTime)) return false;
  let installedAt: Date | null;
  try {
    installedAt = installations.installedAt(id);
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
  deps: { app: App; installations: SlackInstallations | null; logger: Logger },
): void {
  const { installations, logger } = deps;
  const leave = async (context: InstallContext, eventTime: unknown, why: string) => {
    const enterprise = context.isEnterpriseInstall === true;
    const id = (enterprise ? context.enterpriseId : context.teamId) ?? '';
    if (id === '') return;
    if (installations !== null && predates(installations, id, eventTime, logger)) {
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
    deps.app.tenants.leave({ platform: 'slack', workspaceId: id });
    logger.info({ workspace: id, why }, 'A Slack workspace left.');
  };
  bolt.event('app_uninstalled', async ({ body, context }) => {
    await leave(context, body.event_time, 'app_uninstalled');
  });
  bolt.event('tokens_revoked', async ({ event, body, context }) => {
    if ((event.tokens.bot ?? []).length > 0) await leave(context, body.event_time, 'tokens_revoked');
  });
}
