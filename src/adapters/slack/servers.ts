/**
 * The one server of each way the Slack adapter runs, chosen once when the adapter is created:
 * - Socket Mode with one team: the operator server on PORT (/healthz, /readyz, /metrics), beside the socket;
 * - Socket Mode with OAuth: the server Bolt's receiver keeps for the install pages, with the operator endpoints;
 * - HTTP mode, one team or many: Scout's own node:http server (http-server.ts) in front of Bolt's receiver.
 * A mode builds its Bolt receiver; the Bolt app is made on it, and then the mode's server for that app, which
 * starts and stops everything that listens, Bolt's Socket Mode connection included.
 */
import { once } from 'node:events';
import { type IncomingMessage, METHODS, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Bolt from '@slack/bolt';
import {
  answerEvery,
  limitServer,
  OPS_PATHS,
  OPS_SERVER_LIMITS,
  type OperatorEndpoints,
  type OpsRoutes,
} from '../../core/chat/index.js';
import { InternalError, SetupError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { httpArrival, socketArrival } from './arrival.js';
import { type BoltApp, HTTPReceiver, SocketModeReceiver } from './bolt.js';
import type { SlackConfig } from './config.js';
import { createSlackHttpServer, receiverErrorHandlers, type SlackHttpLimits } from './http-server.js';
import { installPagesServer, listen, watchListening } from './listening.js';
import type { ClientOptions, oauthReceiverOptions } from './oauth.js';

/** Where Slack sends every request in HTTP mode: events, commands, interactions. */
const EVENTS_PATH = '/slack/events';

/** The server of a mode: it starts and stops all that listens, Bolt's receiver included. */
export interface SlackServer {
  start(): Promise<void>;
  /** Stops whatever start() started, whatever state it got to. */
  stop(): Promise<void>;
  /** The port listened on once started; null before. */
  port(): number | null;
}

/** A mode's Bolt receiver, and the server to run with the Bolt app made on it. */
export interface SlackMode {
  readonly receiver: Bolt.HTTPReceiver | Bolt.SocketModeReceiver;
  serverFor(bolt: BoltApp): SlackServer;
}

/** Bolt's OAuth options of a receiver (many-team mode). */
export type OAuthOptions = ReturnType<typeof oauthReceiverOptions>;

/** What every mode is built from. */
export interface ModeOptions {
  config: SlackConfig;
  logger: Logger;
  boltLogger: Bolt.Logger;
  clientOptions: ClientOptions;
  operator: OperatorEndpoints;
  /** Whether the adapter has started: /healthz answers 503 until then. */
  live(): boolean;
  /** HTTP mode's body size, timeouts and connection cap. */
  httpLimits: SlackHttpLimits;
  /** Told when the Socket Mode connection is made (true) or lost (false); it reconnects on its own. */
  onConnection(connected: boolean): void;
}

/** Builds a mode's receiver and server; called at each start. */
export type SlackModeFactory = (options: ModeOptions) => SlackMode;

/** The mode of a configuration: Socket Mode when an app token is set, else HTTP; OAuth when `oauth` is given. */
export function slackModeOf(config: SlackConfig, oauth: OAuthOptions | null): SlackModeFactory {
  const { appToken } = config;
  if (appToken === null) return (options) => httpMode(options, oauth);
  if (oauth === null) return (options) => socketMode(options, appToken);
  return (options) => socketInstallMode(options, appToken, oauth);
}

/** The port a node:http server listens on; null when it does not. */
function addressPort(server: Server): number | null {
  const bound = server.address();
  return bound !== null && typeof bound === 'object' ? (bound as AddressInfo).port : null;
}

/** Stops the Bolt app (its Socket Mode connection and install pages server); a failure is only logged. */
const stopBolt = (bolt: BoltApp, logger: Logger): Promise<void> =>
  bolt.stop().then(
    () => {},
    (error: unknown) => logger.warn({ err: error }, 'Slack stop'),
  );

/** A Socket Mode receiver whose connection is reported to `onConnection`. */
function socketReceiver(
  options: ModeOptions,
  appToken: string,
  extra: Partial<Bolt.SocketModeReceiverOptions> = {},
): Bolt.SocketModeReceiver {
  const receiver = new SocketModeReceiver({
    appToken,
    logger: options.boltLogger,
    customPropertiesExtractor: socketArrival,
    installerOptions: { clientOptions: options.clientOptions },
    ...extra,
  });
  receiver.client.on('connected', () => options.onConnection(true));
  for (const lost of ['disconnected', 'reconnecting']) {
    receiver.client.on(lost, () => options.onConnection(false));
  }
  return receiver;
}

/** Socket Mode with one team: the operator server on PORT, then the socket. */
function socketMode(options: ModeOptions, appToken: string): SlackMode {
  const receiver = socketReceiver(options, appToken);
  const serverFor = (bolt: BoltApp): SlackServer => {
    const operator = options.operator.server(options.config.port, options.live);
    let booted = false;
    return {
      async start() {
        await operator.start();
        booted = true;
        await bolt.start();
      },
      async stop() {
        if (booted) await stopBolt(bolt, options.logger);
        booted = false;
        await operator.stop();
      },
      port: () => operator.port,
    };
  };
  return { receiver, serverFor };
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

/**
 * The operator endpoints as Bolt's custom routes, should the install pages server not be found: Bolt's matcher
 * takes `/metrics/` and `//host/metrics` for `/metrics` too, so every request it hands over is answered, 404 when
 * not exactly ours; and with every method, so that HEAD is served and the others get 405.
 */
const opsCustomRoutes = (routes: OpsRoutes) =>
  OPS_PATHS.map((path) => ({ path, method: [...METHODS], handler: answerEvery(routes) }));

/** Socket Mode with OAuth: Bolt's receiver serves the install pages on PORT, and the operator endpoints beside them. */
function socketInstallMode(options: ModeOptions, appToken: string, oauth: OAuthOptions): SlackMode {
  const routes = options.operator.routes(options.live);
  const receiver = socketReceiver(options, appToken, {
    ...oauth,
    customRoutes: opsCustomRoutes(routes),
    installerOptions: { ...oauth.installerOptions, port: options.config.port },
  });
  return { receiver, serverFor: (bolt) => installPages(bolt, receiver, options, routes) };
}

/** The install pages server of Socket Mode with OAuth, started with the socket. */
function installPages(
  bolt: BoltApp,
  receiver: Bolt.SocketModeReceiver,
  options: ModeOptions,
  routes: OpsRoutes,
): SlackServer {
  const { config, logger } = options;
  const pages = installPagesServer(receiver);
  if (pages !== null) {
    const { dispatchErrorHandler } = receiverErrorHandlers(logger);
    servePagesWithin(pages, routes, (error, request, response) =>
      dispatchErrorHandler({
        error: error instanceof Error ? error : new InternalError(String(error)),
        logger: options.boltLogger,
        request,
        response,
      }),
    );
  }
  let booted = false;
  let listening = false;
  return {
    async start() {
      const listened = pages === null ? Promise.resolve() : watchListening(pages, config.port, logger);
      booted = true;
      const booting = bolt.start();
      try {
        await Promise.all([booting, listened]);
      } catch (error) {
        // The Socket Mode connection settles before it is closed.
        await booting.catch(() => {});
        throw error;
      }
      listening = true;
    },
    async stop() {
      listening = false;
      // Keep-alive sockets would hold the close open until they time out.
      pages?.closeAllConnections();
      // Bolt's receiver closes the install pages server without waiting for it: this waits.
      const closed = pages?.listening === true ? once(pages, 'close') : null;
      if (booted) await stopBolt(bolt, logger);
      booted = false;
      if (pages?.listening === true) pages.close();
      await closed;
    },
    port: () => (pages === null ? (listening ? config.port : null) : addressPort(pages)),
  };
}

/** HTTP mode, one team or many: Scout's own server on PORT, in front of Bolt's receiver, which is never started. */
function httpMode(options: ModeOptions, oauth: OAuthOptions | null): SlackMode {
  const { config, logger, httpLimits: limits } = options;
  const { signingSecret } = config;
  if (signingSecret === null) throw new SetupError('SLACK_SIGNING_SECRET is required in HTTP mode.');
  const handlers = receiverErrorHandlers(logger);
  const receiver = new HTTPReceiver({
    signingSecret,
    endpoints: EVENTS_PATH,
    logger: options.boltLogger,
    customPropertiesExtractor: httpArrival,
    bodyLimit: limits.bodyLimitBytes,
    ...handlers,
    ...(oauth ?? {}),
  });
  const serverFor = (): SlackServer => {
    // Scout's server, not Bolt's (bolt.start): it bounds each request before Bolt's listener sees it.
    const server = createSlackHttpServer({
      receiver,
      endpoint: EVENTS_PATH,
      signingSecret,
      logger,
      limits,
      dispatchErrorHandler: handlers.dispatchErrorHandler,
      boltLogger: options.boltLogger,
      routes: options.operator.routes(options.live),
    });
    return {
      async start() {
        await listen(server, config.port);
        // Once listening, an error (an accept that failed) is logged rather than left uncaught.
        server.on('error', (error) => logger.error({ err: error }, 'The Slack HTTP server failed.'));
      },
      async stop() {
        // Keep-alive sockets would hold server.close() open until they time out.
        server.closeAllConnections();
        if (!server.listening) return;
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
      port: () => addressPort(server),
    };
  };
  return { receiver, serverFor };
}
