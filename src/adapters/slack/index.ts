/**
 * The Slack adapter: a Bolt 5 app in Socket Mode (when an app token is set) or HTTP mode on `PORT` at
 * `/slack/events`, with `GET /healthz` on `PORT` in both modes, and the Outbound that background jobs use.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  App as BoltApp,
  HTTPReceiver,
  LogLevel,
  type Logger as SlackLogger,
  SocketModeReceiver,
  type webApi,
} from '@slack/bolt';
import type { App } from '../../app.js';
import type { SlackConfig } from '../../config.js';
import type { Logger } from '../../core/logger.js';
import type { Outbound } from '../../core/outbound.js';
import { createSlackOutbound } from './deliver.js';
import type { ChannelSubscription } from './home.js';
import { registerListeners } from './listeners.js';
import { BOT_SCOPES } from './manifest.js';
import { createChannelPacer, POST_INTERVAL_MS } from './pacer.js';

export { renderSlackMessages } from './render.js';

/** What the Slack adapter is built from. */
export interface SlackAdapterOptions {
  config: SlackConfig;
  app: App;
  logger: Logger;
  /** The workspace's channel subscriptions, for the App Home; none by default. */
  listSubscriptions?: (
    workspaceId: string,
  ) => Promise<Array<{ channelId: string; kind: string; detail: string }>>;
  /** Least time between two background posts in one channel; Slack's pace (1 s) by default. */
  postIntervalMs?: number;
}

/** A running (or startable) Slack adapter. */
export interface SlackAdapter {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly outbound: Outbound;
  /** The port `/healthz` (and in HTTP mode `/slack/events`) listens on once started; null before. */
  readonly port: number | null;
}

/** Bolt's logger interface over our logger, so Bolt's messages are structured and redacted like ours. */
function boltLogger(logger: Logger): SlackLogger {
  let level = LogLevel.INFO;
  const child = logger.child({ component: 'slack' });
  const text = (parts: unknown[]) =>
    parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  return {
    debug: (...parts: unknown[]) => child.debug(text(parts)),
    info: (...parts: unknown[]) => child.info(text(parts)),
    warn: (...parts: unknown[]) => child.warn(text(parts)),
    error: (...parts: unknown[]) => child.error(text(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });

/** The scopes of BOT_SCOPES missing from `granted` (the scopes Slack lists with an answer); none when unknown. */
export function missingScopes(granted: readonly string[] | undefined): string[] {
  if (granted === undefined) return [];
  return Object.keys(BOT_SCOPES).filter((scope) => !granted.includes(scope));
}

/**
 * Says at start which scopes the installed app lacks: an install made from an older manifest works, but
 * without the history scopes a notification cut off by a restart cannot be looked up and may be posted twice.
 */
async function warnOfMissingScopes(client: webApi.WebClient, logger: Logger): Promise<void> {
  try {
    const auth = await client.auth.test();
    const missing = missingScopes(auth.response_metadata?.scopes);
    if (missing.length === 0) return;
    logger.warn(
      { missing: missing.map((scope) => `${scope} (${BOT_SCOPES[scope]})`) },
      'The Slack app lacks scopes Scout uses: update it from manifest.yml and reinstall it.',
    );
  } catch (error) {
    logger.warn({ err: error }, 'Could not read the Slack app’s scopes.');
  }
}

/** Creates the Slack adapter; nothing connects until start(). */
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { config, app, logger } = options;
  const listSubscriptions = async (workspaceId: string): Promise<ChannelSubscription[]> =>
    options.listSubscriptions === undefined ? [] : options.listSubscriptions(workspaceId);
  let bolt: BoltApp | null = null;
  let server: Server | null = null;
  let healthServer: Server | null = null;
  let started = false;
  const pacer = createChannelPacer({ minTimeMs: options.postIntervalMs ?? POST_INTERVAL_MS });

  const health = (res: import('node:http').ServerResponse) => {
    res.writeHead(started ? 200 : 503, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ ok: started }));
  };
  const clientOptions = {
    ...(config.apiUrl === null ? {} : { slackApiUrl: config.apiUrl }),
    // Everything, response_url posts aside, goes to the configured API base (GovSlack, tests).
    allowAbsoluteUrls: false,
  };
  const boundPort = (): number | null => {
    const bound = (healthServer ?? server)?.address();
    return bound !== null && bound !== undefined && typeof bound === 'object'
      ? (bound as AddressInfo).port
      : null;
  };
  const client = (): webApi.WebClient => {
    if (bolt === null) throw new Error('The Slack adapter is not started: call start() first.');
    return bolt.client;
  };

  return {
    outbound: createSlackOutbound(client, pacer, logger),
    get port() {
      return boundPort();
    },
    async start() {
      if (bolt !== null) return;
      const slackLogger = boltLogger(logger);
      if (config.appToken !== null) {
        const receiver = new SocketModeReceiver({
          appToken: config.appToken,
          logger: slackLogger,
          installerOptions: { clientOptions },
        });
        bolt = new BoltApp({ token: config.botToken ?? '', receiver, clientOptions, logger: slackLogger });
        registerListeners(bolt, { app, logger, listSubscriptions });
        healthServer = createServer((req, res) => {
          if (req.method === 'GET' && req.url?.split('?')[0] === '/healthz') return health(res);
          res.writeHead(404).end();
        });
        await listen(healthServer, config.port);
        await bolt.start();
      } else {
        if (config.signingSecret === null) throw new Error('SLACK_SIGNING_SECRET is required in HTTP mode.');
        const receiver = new HTTPReceiver({
          signingSecret: config.signingSecret,
          endpoints: '/slack/events',
          logger: slackLogger,
          customRoutes: [{ path: '/healthz', method: ['GET'], handler: (_req, res) => health(res) }],
        });
        bolt = new BoltApp({ token: config.botToken ?? '', receiver, clientOptions, logger: slackLogger });
        registerListeners(bolt, { app, logger, listSubscriptions });
        server = (await bolt.start(config.port)) as Server;
      }
      bolt.error(async (error) => {
        logger.error({ err: error }, 'Slack listener error');
      });
      // Not awaited: the Web API client retries for minutes, and start-up must not wait on a warning.
      void warnOfMissingScopes(bolt.client, logger);
      started = true;
      logger.info(
        { mode: config.appToken === null ? 'http' : 'socket', port: boundPort() },
        'Slack adapter started',
      );
    },
    async stop() {
      started = false;
      await pacer.stop();
      const running = bolt;
      bolt = null;
      // Keep-alive sockets would hold server.close() open until they time out.
      server?.closeAllConnections();
      if (running !== null)
        await running.stop().catch((error: unknown) => logger.warn({ err: error }, 'Slack stop'));
      for (const s of [healthServer, server]) {
        if (s === null) continue;
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
      healthServer = null;
      server = null;
    },
  };
}
