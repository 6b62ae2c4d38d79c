/**
 * Where Bolt's OAuth (its InstallProvider) keeps the installations of many-team mode: each installation's JSON,
 * sealed with AES-256-GCM, in the store's slack_installations table, keyed by the Enterprise Grid org for an
 * org-wide install and by the workspace otherwise. Bolt calls storeInstallation after an install and after it
 * refreshes rotating tokens, fetchInstallation to authorize every request, deleteInstallation on uninstall.
 * The sealed JSON also keeps when the workspace installed Scout (INSTALLED_AT), so that an uninstall Slack
 * delivers late is not taken for one of the installation made since.
 * https://docs.slack.dev/tools/bolt-js/concepts/authenticating-oauth
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { ChatCore, InstallationVault } from '../../core/chat/index.js';
import { PlatformError, ScoutError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { missingScopes } from './manifest.js';

/** The installations of the workspaces and orgs that added Scout, sealed at rest. */
export interface SlackInstallations extends Required<InstallationStore> {
  /** Whether the workspace (or org) has an installation: a cheap check, nothing is opened. */
  has(id: string): Promise<boolean>;
  /** The query that finds the installation of `id` (an org-wide install or a workspace's); null when none. */
  queryFor(id: string): Promise<InstallationQuery<boolean> | null>;
  /** When the installation of `id` was made through OAuth (kept across token refreshes); null when unknown. */
  installedAt(id: string): Promise<Date | null>;
}

/**
 * The field of the sealed installation that keeps when it was made (ms since the epoch). A token refresh stores
 * the installation Bolt fetched, field included, so the time stays; an install through OAuth stores a new
 * installation without it, which takes the time of saving.
 */
export const INSTALLED_AT = 'scoutInstalledAt';

const installedAtOf = (installation: Installation): number | null => {
  const at = (installation as Installation & { [INSTALLED_AT]?: unknown })[INSTALLED_AT];
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
};

/**
 * A workspace has no usable installation of Scout: met by a background post, or by Bolt's authorize, which turns it
 * into an AuthorizationError.
 */
export class NotInstalledError extends ScoutError {
  override readonly name = 'NotInstalledError';
  readonly code = 'NOT_INSTALLED';
}

/** The id an installation is kept under: the org for an org-wide install, else the workspace. */
export function installationId(installation: {
  isEnterpriseInstall?: boolean | undefined;
  enterprise?: { id: string } | undefined;
  team?: { id: string } | undefined;
}): string {
  const id = installation.isEnterpriseInstall === true ? installation.enterprise?.id : installation.team?.id;
  if (id === undefined || id === '')
    throw new PlatformError('A Slack installation names neither its workspace nor its org.');
  return id;
}

const queryId = (query: InstallationQuery<boolean>) =>
  (query.isEnterpriseInstall ? query.enterpriseId : query.teamId) ?? '';

/** Options of createSlackInstallations. */
export interface SlackInstallationsOptions {
  /** Where they are kept, sealed (the chat port's vault). */
  vault: InstallationVault;
  clock: ChatCore['clock'];
  logger: Logger;
  /** Values the logger masks (the app's secret set): each installation's tokens join it when first seen. */
  secrets: ChatCore['secrets'];
}

/** Creates the installation store Bolt's InstallProvider is given. */
export function createSlackInstallations(options: SlackInstallationsOptions): SlackInstallations {
  const { vault, clock, logger, secrets } = options;
  const remember = (installation: Installation) => {
    for (const token of [
      installation.bot?.token,
      installation.bot?.refreshToken,
      installation.user?.token,
      installation.user?.refreshToken,
    ]) {
      if (token !== undefined && token !== '') secrets.add(token);
    }
  };
  const open = async (id: string): Promise<Installation | null> => {
    const json = await vault.open(id);
    if (json === null) return null;
    const installation = JSON.parse(json) as Installation;
    remember(installation);
    return installation;
  };
  return {
    async storeInstallation(installation) {
      const id = installationId(installation);
      remember(installation);
      const now = clock.now();
      const kept = { ...installation, [INSTALLED_AT]: installedAtOf(installation) ?? now.getTime() };
      await vault.keep(id, JSON.stringify(kept), now);
      logger.info({ installation: id }, 'Slack installation saved.');
      const missing = missingScopes(installation.bot?.scopes);
      if (missing.length > 0) {
        logger.warn({ installation: id, missing }, 'The Slack installation lacks scopes Scout uses.');
      }
    },
    async fetchInstallation(query) {
      const installation = await open(queryId(query));
      // InstallProvider.authorize turns this into an AuthorizationError: Bolt acks and runs no listener.
      if (installation === null)
        throw new NotInstalledError(`No Slack installation for ${queryId(query) || 'this request'}.`);
      return installation;
    },
    async deleteInstallation(query) {
      const id = queryId(query);
      if (await vault.remove(id)) logger.info({ installation: id }, 'Slack installation deleted.');
    },
    has: (id) => vault.has(id),
    async queryFor(id) {
      const installation = id === '' ? null : await open(id);
      if (installation === null) return null;
      return installation.isEnterpriseInstall === true
        ? { enterpriseId: id, teamId: undefined, isEnterpriseInstall: true }
        : { teamId: id, enterpriseId: installation.enterprise?.id, isEnterpriseInstall: false };
    },
    async installedAt(id) {
      const installation = id === '' ? null : await open(id);
      const at = installation === null ? null : installedAtOf(installation);
      return at === null ? null : new Date(at);
    },
  };
}
