/**
 * Composition root: config → logger → (embedded sandbox) → store and service client → commands → adapters.
 * With no chat platform configured, Scout runs the terminal shell; SIGINT and SIGTERM stop everything.
 */
import { createTerminal } from './adapters/terminal/shell.js';
import { createApp } from './app.js';
import { FAMILIES } from './commands/index.js';
import { ConfigError, configSecrets, loadConfig, loadDotEnv } from './config.js';
import { createLogger } from './core/logger.js';
import { createSandbox, DEMO_KEY, type Sandbox } from './sandbox/index.js';

const GREETING = [
  'Scout — creator discovery and outreach from one command.',
  'Type a command such as `help`, `creators category:Fitness followers:10k-100k` or `viral categories:Food`',
  '(the leading /scout is optional). Press buttons by their [number], or with next, previous, confirm,',
  '`add 3 to <list>`. Type exit to quit.',
].join('\n');

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  // The terminal shell owns stdout; logs go to stderr so they never garble a reply.
  const logger = createLogger({
    level: config.logLevel,
    secrets: configSecrets(config),
    destination: process.stderr,
  });
  let sandbox: Sandbox | null = null;
  let service: { apiKey: string; baseUrl: string; mediaUrl: string };
  if (config.service.kind === 'embedded-sandbox') {
    sandbox = createSandbox({ replyIntervalMs: 30_000, remixDelayMs: 1500 });
    await sandbox.start();
    logger.info(
      { sandbox: sandbox.url },
      'No SCOUT_API_KEY set: running against the embedded sandbox of the service (demo data, no account needed).',
    );
    service = { apiKey: DEMO_KEY, baseUrl: sandbox.url, mediaUrl: sandbox.mediaUrl };
  } else {
    logger.info({ api: config.service.apiUrl }, 'Running against the service.');
    service = {
      apiKey: config.service.apiKey,
      baseUrl: config.service.apiUrl,
      mediaUrl: config.service.mediaUrl,
    };
  }
  const app = createApp({
    service,
    databasePath: config.databasePath,
    settings: {
      confirmAbove: config.confirmAbove,
      defaultDailyCap: config.dailyCap,
      profileTtlMs: config.profileTtlMs,
    },
    logger,
    families: FAMILIES,
  });
  const terminal = createTerminal({
    input: process.stdin,
    output: process.stdout,
    dispatcher: app.dispatcher,
    prompt: process.stdin.isTTY ? 'scout> ' : '',
    greeting: GREETING,
  });

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      terminal.stop();
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
  await terminal.start();
  await stop();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Scout failed to start: ${String(error)}`}\n`,
  );
  process.exitCode = 1;
});
