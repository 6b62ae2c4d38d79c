/**
 * Composition root: config → logger → (embedded sandbox) → store and service client → commands → adapters and
 * background jobs. Slack and Discord join when configured; with neither, Scout runs the terminal shell. The
 * operator endpoints (/healthz, /readyz, /metrics) are served by Slack's server, or on PORT when it is set and Slack
 * is not configured. SIGINT and SIGTERM stop everything. Each platform's SDK, the embedded sandbox and the terminal are
 * loaded only when the configuration uses them: discord.js alone takes about half a second to load.
 */
import { dirname, join } from 'node:path';
import type { DiscordAdapter } from './adapters/discord/index.js';
import type { SlackAdapter } from './adapters/slack/index.js';
import type { TerminalShell } from './adapters/terminal/shell.js';
import { type App, createApp } from './app.js';
import { FAMILIES } from './commands/index.js';
import { ConfigError, configSecrets, loadConfig, loadDotEnv, redactDatabaseUrl } from './config.js';
import type { Platform } from './core/actor.js';
import { WORKING_NOTICE_MS } from './core/command/waiting.js';
import { createJobs } from './core/jobs/index.js';
import { createLogger, logDestination, logPlace } from './core/logger.js';
import { createOpsServer, type OpsServer } from './core/ops-server.js';
import type { Outbound } from './core/outbound.js';
import { DatabaseError } from './core/store/database.js';
import type { LeasedWork } from './core/store/leases.js';
import type { Sandbox } from './sandbox/index.js';

const GREETING = [
  'Scout — creator discovery and outreach. Say what you want: `find fitness creators in France`,',
  '`show our lists`, `how much have I spent this month`; or type a command such as',
  '`creators category:Fitness followers:10k-100k` (the leading /scout is optional). Buttons are [n]: type n (or',
  'run, next) to press one of the last answer. Creators are numbered on their card (2. @name): `details 2` and',
  '`add 2 to <list>` act on the latest page of them, even after other answers. Type exit to quit.',
].join('\n');

interface Part {
  stop(): Promise<void> | void;
}

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const chat = config.slack !== null || config.discord !== null;
  // A server's logs go to standard output, the terminal shell's to standard error (the shell owns standard output), for
  // whatever runs Scout to read; a person typing at a terminal gets them in a file instead, off the prompt.
  // Tenants' keys join this set as they are first used, so the logger masks them too.
  const secrets = new Set(configSecrets(config));
  const logs = logPlace({
    chat,
    stdinIsTTY: process.stdin.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    databasePath: config.databasePath,
  });
  const logger = createLogger({ level: config.logLevel, secrets, destination: logDestination(logs) });
  // One bad request must not end the process: a library's unawaited failure (Bolt's HTTP receiver throws on a signed
  // body of `null`) is logged, and Scout goes on serving everyone else.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'An operation failed without being handled; Scout keeps running.');
  });
  // The platforms' modules (most of a start's time) load while the sandbox and the database open; a failure to
  // load is reported where they are used.
  const slackModule = config.slack === null ? null : import('./adapters/slack/index.js');
  const discordModule = config.discord === null ? null : import('./adapters/discord/index.js');
  for (const loading of [slackModule, discordModule]) void loading?.catch(() => undefined);
  let sandbox: Sandbox | null = null;
  let service: { apiKey?: string; baseUrl: string; mediaUrl: string };
  if (config.service.kind === 'embedded-sandbox') {
    const { createSandbox, DEMO_KEY } = await import('./sandbox/index.js');
    sandbox = createSandbox({ replyIntervalMs: 30_000, remixDelayMs: 1500 });
    await sandbox.start();
    logger.info(
      { sandbox: sandbox.url },
      'No SCOUT_API_KEY set: running against the embedded sandbox of the service (demo data, no account needed).',
    );
    service = { apiKey: DEMO_KEY, baseUrl: sandbox.url, mediaUrl: sandbox.mediaUrl };
  } else if (config.service.kind === 'tenant-keys') {
    logger.info(
      { api: config.service.apiUrl },
      'Running for many teams: each workspace connects its own service key with /scout connect.',
    );
    service = { baseUrl: config.service.apiUrl, mediaUrl: config.service.mediaUrl };
  } else {
    logger.info({ api: config.service.apiUrl }, 'Running against the service.');
    service = {
      apiKey: config.service.apiKey,
      baseUrl: config.service.apiUrl,
      mediaUrl: config.service.mediaUrl,
    };
  }
  let app: App;
  try {
    app = await createApp({
      service,
      tenancy: config.tenancy,
      secrets,
      databasePath: config.databasePath,
      ...(config.databaseUrl === null ? {} : { databaseUrl: config.databaseUrl }),
      ...(config.redisUrl === null ? {} : { redisUrl: config.redisUrl }),
      settings: {
        confirmAbove: config.confirmAbove,
        defaultDailyCap: config.dailyCap,
        balanceAlert: config.balanceAlert,
        profileTtlMs: config.profileTtlMs,
        workingNoticeMs: WORKING_NOTICE_MS,
      },
      logger,
      families: FAMILIES,
    });
  } catch (error) {
    // Opening the database is what fails here: a folder, a file that is not SQLite, no permission, a newer schema.
    const where =
      config.databaseUrl === null
        ? `DATABASE_PATH (${config.databasePath})`
        : `DATABASE_URL (${redactDatabaseUrl(config.databaseUrl)})`;
    throw new DatabaseError(
      `the database at ${where} cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  // Stopped in reverse order of start.
  const parts: Part[] = [];
  const outbound = new Map<Platform, Outbound>();
  // Work one replica does at a time, started in order by the one holding the lease and stopped in reverse: with
  // replicas, Slack's Socket Mode and Discord's gateway (one connection each; events and interactions arrive only
  // there), then the background jobs, which post through them. On SQLite there is one process, which holds every
  // lease.
  const leader: LeasedWork[] = [];
  const slackConfig = config.slack;
  const socketWithReplicas = slackConfig?.appToken != null && config.databaseUrl !== null;
  // Without Slack's server, the operator endpoints get their own, first: /readyz says 503 while Discord connects.
  // A replica not holding Slack's socket serves them too, until it takes the socket (whose server then serves them).
  let ops: OpsServer | null = null;
  const startOps = async () => {
    if (config.opsPort === null || ops !== null) return;
    const server = createOpsServer({ app, port: config.opsPort, logger });
    await server.start();
    ops = server;
    logger.info({ port: server.port }, 'Operator endpoints listening: /healthz, /readyz, /metrics.');
  };
  const stopOps = async () => {
    const server = ops;
    ops = null;
    await server?.stop();
  };
  if (slackConfig === null || socketWithReplicas) {
    await startOps();
    parts.push({ stop: stopOps });
  }
  if (slackConfig !== null) {
    const { createSlackAdapter } = await (slackModule ?? import('./adapters/slack/index.js'));
    const createSlack = () => createSlackAdapter({ config: slackConfig, chat: app.chat, logger });
    if (socketWithReplicas) {
      let slack: SlackAdapter | null = null;
      leader.push({
        async start() {
          await stopOps();
          slack = createSlack();
          await slack.start();
          outbound.set('slack', slack.outbound);
        },
        async stop() {
          outbound.delete('slack');
          await slack?.stop();
          slack = null;
          // A replica without the socket is not judged by it (another replica holds it now).
          app.readiness.remove('slack');
          await startOps();
        },
      });
    } else {
      const slack = createSlack();
      await slack.start();
      parts.push(slack);
      outbound.set('slack', slack.outbound);
    }
  }
  if (config.discord !== null) {
    const discordConfig = config.discord;
    const { createDiscordAdapter } = await (discordModule ?? import('./adapters/discord/index.js'));
    let discord: DiscordAdapter | null = null;
    const gateway: LeasedWork = {
      async start() {
        // A new client each time the lease is won: a destroyed discord.js client is not reused.
        discord = createDiscordAdapter({ config: discordConfig, chat: app.chat, logger });
        await discord.start();
        outbound.set('discord', discord.outbound);
      },
      async stop() {
        outbound.delete('discord');
        await discord?.stop();
        discord = null;
        // A replica without the gateway is not judged by it (another replica holds it now).
        if (config.databaseUrl !== null) app.readiness.remove('discord');
      },
    };
    // Alone on its database, the process connects at once (a bad token stops it at start, as it should).
    if (config.databaseUrl === null) {
      await gateway.start();
      parts.push({ stop: async () => gateway.stop() });
    } else leader.push(gateway);
  }
  let terminal: TerminalShell | null = null;
  if (!chat) {
    const [{ createTerminal }, { createTerminalOutbound }] = await Promise.all([
      import('./adapters/terminal/shell.js'),
      import('./adapters/terminal/outbound.js'),
    ]);
    const where = config.databaseUrl === null ? config.databasePath : 'PostgreSQL';
    const greeting = [
      GREETING,
      ...(sandbox === null
        ? []
        : [
            `Demo data: the sandbox's creators, lists and credits reset on every start; Scout's ledger (${where}) is kept.`,
          ]),
      ...(logs.kind === 'file' ? [`Logs are written to ${logs.path}.`] : []),
    ].join('\n');
    const shell = createTerminal({
      input: process.stdin,
      output: process.stdout,
      chat: app.chat,
      prompt: process.stdin.isTTY ? 'scout> ' : '',
      greeting,
      // Exports sit beside the database, wherever DATABASE_PATH puts it.
      filesDir: join(dirname(config.databasePath), 'exports'),
      // Ctrl-C at the prompt stops Scout as the signal does (readline takes the key from the keyboard).
      onInterrupt: () => process.kill(process.pid, 'SIGINT'),
    });
    terminal = shell;
    outbound.set('terminal', createTerminalOutbound({ output: process.stdout, shell }));
  }
  leader.push(createJobs({ app, outbound, logger, pollIntervalMs: config.replyPollMs }));
  app.leases.hold('leader', {
    async start() {
      for (const work of leader) await work.start();
    },
    async stop() {
      // Each part stops even when another fails to: a socket left open would be a second one once another replica
      // takes the lease.
      for (const work of [...leader].reverse()) {
        try {
          await work.stop();
        } catch (error) {
          logger.error({ err: error }, 'Could not stop part of the leader’s work.');
        }
      }
    },
  });

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      terminal?.stop();
      // The background jobs first: they post through the adapters.
      await app.leases.close();
      for (const part of parts.reverse()) await part.stop();
      await app.stop();
      await sandbox?.stop();
      logger.info('Scout stopped.');
    })();
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  if (terminal !== null) {
    await terminal.start();
    await stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Scout failed to start: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  // Whatever did start (the embedded sandbox, a server) would keep the process alive: a supervisor must see it exit.
  process.exit(1);
});
