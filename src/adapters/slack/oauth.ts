/**
 * Many-team mode: workspaces install Scout through Bolt's own OAuth (the InstallProvider its receivers build from
 * clientId, clientSecret and stateSecret), which serves `/slack/install` and `/slack/oauth_redirect`, checks the
 * state (signed, and bound to the browser by a cookie), exchanges the code with oauth.v2.access and keeps the
 * installation in our sealed store. Background posts borrow the same InstallProvider's authorize(), so a rotating
 * token is refreshed (and saved) before it expires. https://docs.slack.dev/authentication/installing-with-oauth
 */
import type { HTTPReceiver, webApi } from '@slack/bolt';
import { WebClient } from './bolt.js';
import type { SlackOAuthConfig } from './config.js';
import type { SlackInstallations } from './installations.js';
import { NotInstalledError } from './installations.js';
import { BOT_SCOPES } from './manifest.js';

/** Where an admin starts installing Scout. */
export const INSTALL_PATH = '/slack/install';
/** Where Slack sends the admin back with the code (the app's redirect URL). */
export const REDIRECT_PATH = '/slack/oauth_redirect';

/** Bolt's InstallProvider, as its receivers expose it. */
export type Installer = NonNullable<HTTPReceiver['installer']>;

/** The Web API settings shared by every client (the API base for GovSlack and tests). */
export type ClientOptions = webApi.WebClientOptions;

/** The OAuth options of an HTTPReceiver or a SocketModeReceiver (both take the same ones). */
export function oauthReceiverOptions(
  oauth: SlackOAuthConfig,
  installations: SlackInstallations,
  clientOptions: ClientOptions,
) {
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    stateSecret: oauth.stateSecret,
    scopes: Object.keys(BOT_SCOPES),
    installationStore: installations,
    installerOptions: {
      // The install path sends the admin straight to Slack's consent page, with the state cookie set.
      directInstall: true,
      installPath: INSTALL_PATH,
      redirectUriPath: REDIRECT_PATH,
      // oauth.v2.access and the auth.test after it go to the same API base as everything else.
      clientOptions,
    },
  };
}

/** Clients kept per workspace, replaced when the workspace's token changes (rotation, reinstall). */
const CLIENTS_MAX = 1000;

/**
 * The Web API client of an installed workspace (or org), with its current bot token: the InstallProvider's
 * authorize() reads the installation and refreshes a rotating token that is about to expire.
 */
export function createInstallationClients(
  installer: () => Installer,
  installations: SlackInstallations,
  clientOptions: ClientOptions,
): { clientFor(workspaceId: string): Promise<webApi.WebClient>; clear(): void } {
  const clients = new Map<string, { token: string; client: webApi.WebClient }>();
  return {
    async clientFor(workspaceId) {
      const query = await installations.queryFor(workspaceId);
      if (query === null)
        throw new NotInstalledError(`Scout is not installed in the Slack workspace ${workspaceId}.`);
      const { botToken } = await installer().authorize(query);
      if (botToken === undefined)
        throw new NotInstalledError(`The Slack installation of ${workspaceId} has no bot token.`);
      const known = clients.get(workspaceId);
      if (known?.token === botToken) return known.client;
      if (clients.size >= CLIENTS_MAX) clients.clear();
      const client = new WebClient(botToken, clientOptions);
      clients.set(workspaceId, { token: botToken, client });
      return client;
    },
    clear() {
      clients.clear();
    },
  };
}
