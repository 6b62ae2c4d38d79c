/**
 * The Slack adapter: a Bolt 5 app in Socket Mode (when an app token is set) or HTTP mode on `PORT` at
 * `/slack/events`, with `GET /healthz`, `/readyz` and `/metrics` on `PORT` in both modes, and the Outbound that
 * background jobs use. It adds the `slack` readiness check: started and, in Socket Mode, connected.
 * Single-team mode runs with one bot token and serves only its workspace, learnt from auth.test before any
 * request is served; many-team mode installs Scout in any workspace through Bolt's OAuth (see oauth.ts).
 */
import { once } from 'node:events';
import { type IncomingMessage, METHODS, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { webApi } from '@slack/bolt';
import {
  answerEvery,
  type ChatCore,
  limitServer,
  OPS_PATHS,
  OPS_SERVER_LIMITS,
  type OpsRoutes,
  type OpsServer,
} from '../../core/chat/index.js';
import { InternalError, ScoutError, SetupError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import { httpArrival, socketArrival } from './arrival.js';
import { BoltApp, ErrorCode, HTTPReceiver, SocketModeReceiver, WebClient } from './bolt.js';
import { boltLogger } from './bolt-logger.js';
import type { SlackConfig } from './config.js';
import { createSlackOutbound } from './deliver.js';
import { withDirectMessages } from './direct.js';
import {
  createSlackHttpServer,
  receiverErrorHandlers,
  SLACK_HTTP_LIMITS,
  type SlackHttpLimits,
} from './http-server.js';
import { createSlackInstallations, type SlackInstallations } from './installations.js';
import { registerListeners } from './listeners.js';
import { installPagesServer, listen, watchListening } from './listening.js';
import { BOT_SCOPES, missingScopes } from './manifest.js';
import {
  type ClientOptions,
  createInstallationClients,
  type Installer,
  oauthReceiverOptions,
} from './oauth.js';
import { createChannelPacer, POST_INTERVAL_MS } from './pacer.js';

export { SLACK_HTTP_LIMITS, type SlackHttpLimits } from './http-server.js';
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

/** Thrown by start() when Slack does not confirm the bot token: Scout then serves nobody. */
export class SlackStartError extends ScoutError {
  override readonly name = 'SlackStartError';
  readonly code = 'SLACK_AUTH_FAILED';
}

/** Where Slack sends every request in HTTP mode: events, commands, interactions. */
const EVENTS_PATH = '/slack/events';

/** auth.test at start is retried a little, each attempt bounded, then start fails: no minutes of silent waiting. */
const START_RETRIES = { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 2000 };
const START_TIMEOUT_MS = 10_000;

/** What auth.test says about the bot token. */
interface BotIdentity {
  /** The tenant: the org of an org-wide install, else the workspace. */
  workspaceId: string;
  botId: string | undefined;
  botUserId: string | undefined;
  scopes: string[] | undefined;
}

/** Asks Slack whose the bot token is; throws SlackStartError when Slack does not say. */
async function identify(token: string, clientOptions: ClientOptions): Promise<BotIdentity> {
  const client = new WebClient(token, {
    ...clientOptions,
    retryConfig: START_RETRIES,
    timeout: START_TIMEOUT_MS,
  });
  let auth: webApi.AuthTestResponse;
  try {
    auth = await client.auth.test();
  } catch (error) {
    const reason = (error as { data?: { error?: string } }).data?.error ?? (error as Error).message;
    throw new SlackStartError(
      `Slack did not confirm SLACK_BOT_TOKEN (auth.test: ${reason}): check the token and that Slack is reachable, then start again.`,
      { cause: error },
    );
  }
  const workspaceId = auth.is_enterprise_install === true ? auth.enterprise_id : auth.team_id;
  if (workspaceId === undefined || workspaceId === '') {
    throw new SlackStartError('Slack’s auth.test named no workspace for SLACK_BOT_TOKEN: check the token.');
  }
  return { workspaceId, botId: auth.bot_id, botUserId: auth.user_id, scopes: auth.response_metadata?.scopes };
}

/**
 * Says at start which scopes the installed app lacks: an install made from an older manifest works, but
 * without the history scopes a notification cut off by a restart cannot be looked up and may be posted twice.
 */
function warnOfMissingScopes(granted: string[] | undefined, logger: Logger): void {
  const missing = missingScopes(granted);
  if (missing.length === 0) return;
  logger.warn(
    { missing: missing.map((scope) => `${scope} (${BOT_SCOPES[scope]})`) },
    'The Slack app lacks scopes Scout uses: update it from manifest.yml and reinstall it.',
  );
}

/** The request listener of a node:http server; Bolt's returns a promise. */
type RequestListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Makes the install pages server Bolt's Socket Mode receiver keeps (a bare node:http server) serve as Scout's own
 * do: within the operator servers' limits, with the operator endpoints answered before Bolt sees the request, and a
 * request Bolt's listener fails on answered (400 for a target its URL parsing throws on, such as `//`; else 500)
 * instead of left open. Called before the server listens.
 */
function servePagesWithin(
  pages: Server,
  routes: OpsRoutes,
  failed: (error: unknown, req: IncomingMessage, res: ServerResponse) => void,
): void {
  limitServer(pages, OPS_SERVER_LIMITS);
  const bolt = pages.listeners('request') as RequestListener[];
  pages.removeAllListeners('request');
  pages.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (routes(req, res)) return;
    for (const listener of bolt) {
      try {
        Promise.resolve(listener.call(pages, req, res)).catch((error: unknown) => failed(error, req, res));
      } catch (error) {
        failed(error, req, res);
      }
    }
  });
}

/** Creates the Slack adapter; nothing connects until start(). */
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { config, chat, logger } = options;
  let bolt: BoltApp | null = null;
  let server: Server | null = null;
  // Socket Mode with one team: the operator server on PORT.
  let healthServer: OpsServer | null = null;
  // Socket Mode with OAuth: the server Bolt's receiver serves the install pages and /healthz on.
  let pagesServer: Server | null = null;
  let installer: Installer | null = null;
  let started = false;
  const pacer = createChannelPacer({ minTimeMs: options.postIntervalMs ?? POST_INTERVAL_MS });

  // /healthz, /readyz and /metrics on every server the adapter listens with, matched exactly (see ops-routes): answered
  // before Bolt on Scout's own servers and on the install pages server Bolt's Socket Mode receiver keeps. /healthz
  // answers 503 until the adapter has started.
  const opsRoutes = chat.operator.routes(() => started);
  // The same as Bolt's custom routes there, should the server not be found: Bolt's matcher takes `/metrics/` and
  // `//host/metrics` for `/metrics` too, so every request it hands over is answered, 404 when not exactly ours; and
  // with every method, so that HEAD is served and the others get 405.
  const opsCustomRoutes = OPS_PATHS.map((path) => ({
    path,
    method: [...METHODS],
    handler: answerEvery(opsRoutes),
  }));
  // Socket Mode: whether the socket is connected now (it drops and reconnects on its own).
  let socketConnected = false;
  // Ready once started (in single-team mode, after auth.test confirmed the token) and, in Socket Mode, connected.
  chat.readiness.add('slack', () => {
    if (!started) return 'not connected';
    return config.appToken !== null && !socketConnected ? 'Socket Mode disconnected' : null;
  });
  const clientOptions: ClientOptions = {
    ...(config.apiUrl === null ? {} : { slackApiUrl: config.apiUrl }),
    // Everything, response_url posts aside, goes to the configured API base (GovSlack, tests).
    allowAbsoluteUrls: false,
  };
  const boundPort = (): number | null => {
    if (healthServer !== null) return healthServer.port;
    const bound = server?.address();
    if (bound !== null && bound !== undefined && typeof bound === 'object')
      return (bound as AddressInfo).port;
    // Socket Mode with OAuth: Bolt's receiver owns the server on the configured port.
    return started && config.appToken !== null && config.oauth !== null ? config.port : null;
  };

  // Many-team mode keeps the installations sealed (SCOUT_ENCRYPTION_KEY); start() refuses OAuth in single-team mode.
  const installations: SlackInstallations | null =
    config.oauth === null || chat.installations === null
      ? null
      : createSlackInstallations({
          vault: chat.installations,
          clock: chat.clock,
          logger,
          // The logger's secret set: installations' tokens are masked from the moment they are seen.
          secrets: chat.secrets,
        });
  const installed =
    installations === null
      ? null
      : createInstallationClients(
          () => {
            if (installer === null)
              throw new InternalError('The Slack adapter is not started: call start() first.');
            return installer;
          },
          installations,
          clientOptions,
        );
  const clientFor = async (workspaceId: string): Promise<webApi.WebClient> => {
    if (bolt === null) throw new InternalError('The Slack adapter is not started: call start() first.');
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

  /** Stops everything start() started, whatever state it got to. */
  const halt = async (): Promise<void> => {
    started = false;
    await pacer.stop();
    const running = bolt;
    bolt = null;
    installer = null;
    installed?.clear();
    onceClients.clear();
    // Keep-alive sockets would hold server.close() open until they time out.
    server?.closeAllConnections();
    const pages = pagesServer;
    pagesServer = null;
    pages?.closeAllConnections();
    // Bolt's receiver closes the install pages server without waiting for it: this waits.
    const pagesClosed = pages?.listening === true ? once(pages, 'close') : null;
    // In HTTP mode Bolt's receiver was never started (Scout's server serves it), so only Socket Mode stops it.
    if (running !== null && config.appToken !== null)
      await running.stop().catch((error: unknown) => logger.warn({ err: error }, 'Slack stop'));
    if (pages?.listening === true) pages.close();
    await pagesClosed;
    await healthServer?.stop();
    healthServer = null;
    if (server !== null) {
      const s = server;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    server = null;
  };

  return {
    outbound: withDirectMessages(createSlackOutbound(postClientFor, pacer, logger), postClientFor),
    get port() {
      return boundPort();
    },
    async start() {
      if (bolt !== null) return;
      if ((config.oauth !== null) !== (chat.tenancy.mode === 'multi')) {
        throw new SetupError(
          config.oauth === null
            ? 'Many-team mode installs Scout through Slack OAuth: set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET.'
            : 'Slack OAuth installs Scout in many workspaces: set SCOUT_MULTI_TENANT=true (or use SLACK_BOT_TOKEN).',
        );
      }
      const slackLogger = boltLogger(logger);
      // Single-team mode: whose token this is must be known before a request is served, or nobody is served.
      let identity: BotIdentity | null = null;
      if (config.oauth === null) {
        if (config.botToken === null)
          throw new SetupError('SLACK_BOT_TOKEN is required in single-team mode.');
        identity = await identify(config.botToken, { ...clientOptions, logger: slackLogger });
        chat.tenancy.serve({ platform: 'slack', workspaceId: identity.workspaceId });
        warnOfMissingScopes(identity.scopes, logger);
      }
      const oauth =
        config.oauth === null || installations === null
          ? null
          : oauthReceiverOptions(config.oauth, installations, clientOptions);
      // With the ids auth.test gave, Bolt makes no auth.test of its own.
      const auth =
        identity === null || config.botToken === null
          ? {}
          : {
              token: config.botToken,
              ...(identity.botId === undefined ? {} : { botId: identity.botId }),
              ...(identity.botUserId === undefined ? {} : { botUserId: identity.botUserId }),
            };
      const register = (created: BoltApp) => {
        registerListeners(created, { chat, logger, installations, apiUrl: config.apiUrl });
        created.error(async (error) => {
          // A request from a workspace without an installation (many-team mode) is not a fault of ours.
          if (error.code === ErrorCode.AuthorizationError) {
            logger.warn({ reason: error.message }, 'Slack request not authorized: no listener ran.');
            return;
          }
          logger.error({ err: error }, 'Slack listener error');
        });
      };
      if (config.appToken !== null) {
        const receiver = new SocketModeReceiver({
          appToken: config.appToken,
          logger: slackLogger,
          customPropertiesExtractor: socketArrival,
          installerOptions: { clientOptions },
          // With OAuth, Bolt's receiver serves the install pages on PORT, and /healthz beside them.
          ...(oauth === null
            ? {}
            : {
                ...oauth,
                customRoutes: opsCustomRoutes,
                installerOptions: { ...oauth.installerOptions, port: config.port },
              }),
        });
        installer = receiver.installer ?? null;
        receiver.client.on('connected', () => {
          socketConnected = true;
        });
        for (const lost of ['disconnected', 'reconnecting']) {
          receiver.client.on(lost, () => {
            socketConnected = false;
          });
        }
        bolt = new BoltApp({ ...auth, receiver, clientOptions, logger: slackLogger });
        register(bolt);
        if (config.oauth === null) {
          healthServer = chat.operator.server(config.port, () => started);
          await healthServer.start();
        }
        pagesServer = oauth === null ? null : installPagesServer(receiver);
        if (pagesServer !== null) {
          const { dispatchErrorHandler } = receiverErrorHandlers(logger);
          servePagesWithin(pagesServer, opsRoutes, (error, request, response) =>
            dispatchErrorHandler({
              error: error instanceof Error ? error : new InternalError(String(error)),
              logger: slackLogger,
              request,
              response,
            }),
          );
        }
        const listening =
          pagesServer === null ? Promise.resolve() : watchListening(pagesServer, config.port, logger);
        const booting = bolt.start();
        try {
          await Promise.all([booting, listening]);
        } catch (error) {
          // The Socket Mode connection settles before it is closed; then nothing of this start is left running.
          await booting.catch(() => {});
          await halt();
          throw error;
        }
      } else {
        if (config.signingSecret === null)
          throw new SetupError('SLACK_SIGNING_SECRET is required in HTTP mode.');
        const limits = { ...SLACK_HTTP_LIMITS, ...options.http };
        const handlers = receiverErrorHandlers(logger);
        const receiver = new HTTPReceiver({
          signingSecret: config.signingSecret,
          endpoints: EVENTS_PATH,
          logger: slackLogger,
          customPropertiesExtractor: httpArrival,
          bodyLimit: limits.bodyLimitBytes,
          ...handlers,
          ...(oauth ?? {}),
        });
        installer = receiver.installer ?? null;
        bolt = new BoltApp({ ...auth, receiver, clientOptions, logger: slackLogger });
        register(bolt);
        // Scout's server, not Bolt's (bolt.start): it bounds each request before Bolt's listener sees it.
        server = createSlackHttpServer({
          receiver,
          endpoint: EVENTS_PATH,
          signingSecret: config.signingSecret,
          logger,
          limits,
          dispatchErrorHandler: handlers.dispatchErrorHandler,
          boltLogger: slackLogger,
          routes: opsRoutes,
        });
        await listen(server, config.port);
        // Once listening, an error (an accept that failed) is logged rather than left uncaught.
        server.on('error', (error) => logger.error({ err: error }, 'The Slack HTTP server failed.'));
      }
      started = true;
      logger.info(
        {
          mode: config.appToken === null ? 'http' : 'socket',
          teams: config.oauth === null ? 'single' : 'many',
          port: boundPort(),
        },
        'Slack adapter started',
      );
    },
    stop: halt,
  };
}
