/**
 * The Web API clients of the workspaces Scout serves: the Bolt app's own in single-team mode, an installation's
 * in many-team mode, and for background posts a client of the same token that tries each call once.
 */
import type { webApi } from '@slack/bolt';
import { InternalError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { type BoltApp, WebClient } from './bolt.js';
import { boltLogger } from './bolt-logger.js';
import type { SlackInstallations } from './installations.js';
import { type ClientOptions, createInstallationClients, type Installer } from './oauth.js';

/** What the clients are built from; the Bolt app and its installer exist only while the adapter runs. */
export interface WorkspaceClientsOptions {
  clientOptions: ClientOptions;
  /** The OAuth installations (many-team mode); null in single-team mode. */
  installations: SlackInstallations | null;
  logger: Logger;
  running(): { bolt: BoltApp; installer: Installer | null } | null;
}

/** The clients of each workspace, and a way to drop them all when the adapter stops. */
export interface WorkspaceClients {
  /** The workspace's Web API client, which retries as the Web API client does. */
  clientFor(workspaceId: string): Promise<webApi.WebClient>;
  /** The workspace's client for background posts: each call is tried once. */
  postClientFor(workspaceId: string): Promise<webApi.WebClient>;
  clear(): void;
}

const notStarted = () => new InternalError('The Slack adapter is not started: call start() first.');

/** Creates the workspace clients; none is made before the adapter runs. */
export function createWorkspaceClients(options: WorkspaceClientsOptions): WorkspaceClients {
  const { clientOptions, installations, logger } = options;
  const runningApp = () => {
    const running = options.running();
    if (running === null) throw notStarted();
    return running;
  };
  const installer = (): Installer => {
    const found = runningApp().installer;
    if (found === null) throw notStarted();
    return found;
  };
  const installed =
    installations === null ? null : createInstallationClients(installer, installations, clientOptions);
  const clientFor = async (workspaceId: string): Promise<webApi.WebClient> => {
    const { bolt } = runningApp();
    return installed === null ? bolt.client : installed.clientFor(workspaceId);
  };
  /**
   * Background posts go through clients that try each call once. The Web API client otherwise sends a post again
   * by itself when its answer is lost (a dropped connection, a 5xx), without looking for it first: the post would
   * appear twice. The jobs retry such a post themselves, flagged `mayHaveLanded`, and the outbound looks for it.
   */
  const onceClients = new Map<string, webApi.WebClient>();
  const postClientFor = async (workspaceId: string): Promise<webApi.WebClient> => {
    const client = await clientFor(workspaceId);
    const { token } = client;
    if (token === undefined) return client;
    const known = onceClients.get(workspaceId);
    // A workspace's token may change (a reinstall): its client follows it.
    if (known !== undefined && known.token === token) return known;
    const once = new WebClient(token, {
      ...clientOptions,
      logger: boltLogger(logger),
      retryConfig: { retries: 0 },
    });
    onceClients.set(workspaceId, once);
    return once;
  };
  return {
    clientFor,
    postClientFor,
    clear() {
      installed?.clear();
      onceClients.clear();
    },
  };
}
