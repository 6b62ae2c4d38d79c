/**
 * The Slack adapter: a Bolt 5 app in Socket Mode (when an app token is set) or HTTP mode on `PORT` at
 * `/slack/events`, with `GET /healthz`, `/readyz` and `/metrics` on `PORT` in both modes, and the Outbound that
 * background jobs use. It adds the `slack` readiness check: started and, in Socket Mode, connected.
 * Single-team mode runs with one bot token and serves only its workspace, learnt from auth.test before any
 * request is served; many-team mode installs Scout in any workspace through Bolt's OAuth (see oauth.ts).
 * What listens on `PORT` is the one server of the mode, chosen when the adapter is created (servers.ts).
 */
import type { ChatCore } from '../../core/chat/index.js';
import { SetupError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import { BoltApp, ErrorCode } from './bolt.js';
import { boltLogger } from './bolt-logger.js';
import { createWorkspaceClients } from './clients.js';
import type { SlackConfig } from './config.js';
import { createSlackOutbound } from './deliver.js';
import { withDirectMessages } from './direct.js';
import { SLACK_HTTP_LIMITS, type SlackHttpLimits } from './http-server.js';
import { identify, tokenAuth, warnOfMissingScopes } from './identity.js';
import { createSlackInstallations, type SlackInstallations } from './installations.js';
import { registerListeners } from './listeners.js';
import { type ClientOptions, type Installer, oauthReceiverOptions } from './oauth.js';
import { createChannelPacer, POST_INTERVAL_MS } from './pacer.js';
import { type SlackServer, slackModeOf } from './servers.js';

export { SLACK_HTTP_LIMITS, type SlackHttpLimits } from './http-server.js';
export { SlackStartError } from './identity.js';
export { missingScopes } from './manifest.js';
export { INSTALL_PATH, REDIRECT_PATH } from './oauth.js';
export { renderSlackMessages } from './render.js';

/** What the Slack adapter is built from. */
export interface SlackAdapterOptions {
  config: SlackConfig;
  /** The chat port: all the adapter reaches of the app (in many-team mode, the sealed installations too). */
  chat: ChatCore;
  logger: Logger;
  /** Least time between two background posts in one channel; Slack's pace (1 s) by default. */
  postIntervalMs?: number;
  /** HTTP mode: body size, timeouts and connection cap of the server; SLACK_HTTP_LIMITS where not given. */
  http?: Partial<SlackHttpLimits>;
}

/** A running (or startable) Slack adapter. */
export interface SlackAdapter {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly outbound: Outbound;
  /** The port `/healthz` (and in HTTP mode `/slack/events`) listens on once started; null before. */
  readonly port: number | null;
}

/** The Web API settings of every client. */
function clientOptionsOf(config: SlackConfig): ClientOptions {
  return {
    ...(config.apiUrl === null ? {} : { slackApiUrl: config.apiUrl }),
    // Everything, response_url posts aside, goes to the configured API base (GovSlack, tests).
    allowAbsoluteUrls: false,
  };
}

/** Many-team mode keeps the installations sealed (SCOUT_ENCRYPTION_KEY); null with one team. */
function installationsOf(options: SlackAdapterOptions): SlackInstallations | null {
  const { config, chat, logger } = options;
  if (config.oauth === null || chat.installations === null) return null;
  return createSlackInstallations({
    vault: chat.installations,
    clock: chat.clock,
    logger,
    // The logger's secret set: installations' tokens are masked from the moment they are seen.
    secrets: chat.secrets,
  });
}

/** Refuses OAuth in single-team mode, and many-team mode without OAuth. */
function checkTeams(config: SlackConfig, chat: ChatCore): void {
  if ((config.oauth !== null) === (chat.tenancy.mode === 'multi')) return;
  throw new SetupError(
    config.oauth === null
      ? 'Many-team mode installs Scout through Slack OAuth: set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET.'
      : 'Slack OAuth installs Scout in many workspaces: set SCOUT_MULTI_TENANT=true (or use SLACK_BOT_TOKEN).',
  );
}

/**
 * Bolt's App options for the bot token of single-team mode, whose workspace is served from then on: whose token
 * this is must be known before a request is served, or nobody is served. None with OAuth.
 */
async function singleTeamAuth(options: SlackAdapterOptions, clientOptions: ClientOptions) {
  const { config, chat, logger } = options;
  if (config.oauth !== null) return {};
  if (config.botToken === null) throw new SetupError('SLACK_BOT_TOKEN is required in single-team mode.');
  const identity = await identify(config.botToken, clientOptions);
  chat.tenancy.serve({ platform: 'slack', workspaceId: identity.workspaceId });
  warnOfMissingScopes(identity.scopes, logger);
  return tokenAuth(config.botToken, identity);
}

/** Registers Scout's listeners on the Bolt app, and the handler of the errors they throw. */
function register(
  bolt: BoltApp,
  options: SlackAdapterOptions,
  installations: SlackInstallations | null,
): void {
  const { config, chat, logger } = options;
  registerListeners(bolt, { chat, logger, installations, apiUrl: config.apiUrl });
  bolt.error(async (error) => {
    // A request from a workspace without an installation (many-team mode) is not a fault of ours.
    if (error.code === ErrorCode.AuthorizationError) {
      logger.warn({ reason: error.message }, 'Slack request not authorized: no listener ran.');
      return;
    }
    logger.error({ err: error }, 'Slack listener error');
  });
}

/** Creates the Slack adapter; nothing connects until start(). */
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { config, chat, logger } = options;
  let running: { bolt: BoltApp; installer: Installer | null; server: SlackServer } | null = null;
  let started = false;
  // Socket Mode: whether the socket is connected now (it drops and reconnects on its own).
  let socketConnected = false;
  const pacer = createChannelPacer({ minTimeMs: options.postIntervalMs ?? POST_INTERVAL_MS });
  // Ready once started (in single-team mode, after auth.test confirmed the token) and, in Socket Mode, connected.
  chat.readiness.add('slack', () => {
    if (!started) return 'not connected';
    return config.appToken !== null && !socketConnected ? 'Socket Mode disconnected' : null;
  });
  const clientOptions = clientOptionsOf(config);
  const installations = installationsOf(options);
  const oauth =
    config.oauth === null || installations === null
      ? null
      : oauthReceiverOptions(config.oauth, installations, clientOptions);
  // What listens on PORT, and Bolt's receiver with it: one server object per mode.
  const mode = slackModeOf(config, oauth);
  const clients = createWorkspaceClients({ clientOptions, installations, logger, running: () => running });

  /** Stops everything start() started, whatever state it got to. */
  const halt = async (): Promise<void> => {
    started = false;
    await pacer.stop();
    const stopping = running;
    running = null;
    clients.clear();
    await stopping?.server.stop();
  };

  const start = async (): Promise<void> => {
    if (running !== null) return;
    checkTeams(config, chat);
    const slackLogger = boltLogger(logger);
    const auth = await singleTeamAuth(options, { ...clientOptions, logger: slackLogger });
    const { receiver, serverFor } = mode({
      config,
      logger,
      boltLogger: slackLogger,
      clientOptions,
      operator: chat.operator,
      // /healthz answers 503 until the adapter has started.
      live: () => started,
      httpLimits: { ...SLACK_HTTP_LIMITS, ...options.http },
      onConnection: (connected) => {
        socketConnected = connected;
      },
    });
    const bolt = new BoltApp({ ...auth, receiver, clientOptions, logger: slackLogger });
    register(bolt, options, installations);
    const server = serverFor(bolt);
    running = { bolt, installer: receiver.installer ?? null, server };
    try {
      await server.start();
    } catch (error) {
      // Nothing of this start is left running.
      await halt();
      throw error;
    }
    started = true;
    const [kind, teams] = [
      config.appToken === null ? 'http' : 'socket',
      config.oauth === null ? 'single' : 'many',
    ];
    logger.info({ mode: kind, teams, port: server.port() }, 'Slack adapter started');
  };

  return {
    outbound: withDirectMessages(
      createSlackOutbound(clients.postClientFor, pacer, logger),
      clients.postClientFor,
    ),
    get port() {
      return running?.server.port() ?? null;
    },
    start,
    stop: halt,
  };
}
