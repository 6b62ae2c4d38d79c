/**
 * Which tenant a Slack request acts in, who is refused before anything happens, and leaving: an uninstall or
 * revoked bot tokens delete the installation and make the tenant leave (its key, admins and jobs go).
 *
 * The tenant is the Enterprise Grid org for an org-wide install, else the person's own workspace, not the
 * workspace the channel belongs to: in a Slack Connect channel shared with another organisation, a person of
 * that organisation pressing Scout's buttons acts in their own workspace, which this deployment does not serve.
 * https://docs.slack.dev/apis/slack-connect/
 */
import type { App as BoltApp, SlashCommand, webApi } from '@slack/bolt';
import type { App } from '../../app.js';
import type { Actor } from '../../core/actor.js';
import type { Logger } from '../../core/logger.js';
import { OUTSIDE_MESSAGE, type TenantRef } from '../../core/tenancy/index.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import type { SlackInstallations } from './installations.js';

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

/** The tenant of a slash command: the org of an org-wide install, else the person's own workspace. */
export function commandTenant(command: SlashCommand, context: InstallContext): TenantRef {
  if (context.isEnterpriseInstall === true) {
    return tenant(context.enterpriseId ?? nonEmpty(command.enterprise_id));
  }
  // Slack adds user_team when the person's workspace differs from the one the command ran in.
  return tenant(nonEmpty(command.user_team) ?? command.team_id);
}

/** What an interaction payload (block_actions, view_submission) says about the person and the install. */
export interface InteractionBody {
  user: { team_id?: string | undefined };
  team?: { id: string; enterprise_id?: string } | null | undefined;
  enterprise?: { id: string } | null | undefined;
}

/** The tenant of an element press or a modal submission. */
export function interactionTenant(body: InteractionBody, context: InstallContext): TenantRef {
  if (context.isEnterpriseInstall === true) {
    return tenant(context.enterpriseId ?? body.enterprise?.id ?? body.team?.enterprise_id);
  }
  return tenant(nonEmpty(body.user.team_id) ?? body.team?.id);
}

/** The tenant of an event (the App Home): the org of an org-wide install, else the event's workspace. */
export function eventTenant(teamId: string | undefined, context: InstallContext): TenantRef {
  return tenant(context.isEnterpriseInstall === true ? context.enterpriseId : (teamId ?? context.teamId));
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

/** Admin flags read from users.info are kept this long. */
const ADMIN_TTL_MS = 10 * 60_000;
const ADMIN_CACHE_MAX = 5000;

/** Builds actors, asking Slack once in a while whether the person is a workspace admin or owner. */
export function createActors(logger: Logger) {
  const admins = new Map<string, { admin: boolean; at: number }>();
  return async (
    client: webApi.WebClient,
    who: { tenant: TenantRef; userId: string; userName?: string | undefined },
  ): Promise<Actor> => {
    const key = `${who.tenant.workspaceId}:${who.userId}`;
    const cached = admins.get(key);
    let admin = cached !== undefined && Date.now() - cached.at < ADMIN_TTL_MS ? cached.admin : null;
    if (admin === null) {
      try {
        const info = await client.users.info({ user: who.userId });
        admin = info.user?.is_admin === true || info.user?.is_owner === true;
      } catch (error) {
        logger.warn({ err: error }, 'users.info failed; treating the person as a member');
        admin = false;
      }
      if (admins.size >= ADMIN_CACHE_MAX) admins.clear();
      admins.set(key, { admin, at: Date.now() });
    }
    return {
      platform: 'slack',
      workspaceId: who.tenant.workspaceId,
      userId: who.userId,
      ...(who.userName === undefined ? {} : { userName: who.userName }),
      isAdmin: admin,
    };
  };
}

/**
 * An uninstall, or revoked bot tokens, make the tenant leave (its key and admins forgotten, its jobs stopped) and,
 * in many-team mode, delete its installation. Bolt runs these two events without authorizing them, since the
 * installation may already be gone.
 * https://docs.slack.dev/reference/events/app_uninstalled https://docs.slack.dev/reference/events/tokens_revoked
 */
export function registerLeaving(
  bolt: BoltApp,
  deps: { app: App; installations: SlackInstallations | null; logger: Logger },
): void {
  const leave = async (context: InstallContext, why: string) => {
    const enterprise = context.isEnterpriseInstall === true;
    const id = (enterprise ? context.enterpriseId : context.teamId) ?? '';
    if (id === '') return;
    await deps.installations?.deleteInstallation(
      enterprise
        ? { enterpriseId: id, teamId: undefined, isEnterpriseInstall: true }
        : { teamId: id, enterpriseId: context.enterpriseId, isEnterpriseInstall: false },
    );
    deps.app.tenants.leave({ platform: 'slack', workspaceId: id });
    deps.logger.info({ workspace: id, why }, 'A Slack workspace left.');
  };
  bolt.event('app_uninstalled', async ({ context }) => {
    await leave(context, 'app_uninstalled');
  });
  bolt.event('tokens_revoked', async ({ event, context }) => {
    if ((event.tokens.bot ?? []).length > 0) await leave(context, 'tokens_revoked');
  });
}
