/** `npm run sandbox`: runs the service sandbox on its own until SIGINT or SIGTERM. */
import { ConfigError, loadSandboxConfig, type SandboxConfig } from '../config.js';
import { createSandbox, DEMO_KEY, DEMO_KEY_2 } from './index.js';

let settings: SandboxConfig;
try {
  settings = loadSandboxConfig();
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}

const sandbox = createSandbox({
  port: settings.port,
  replyIntervalMs: settings.replyIntervalMs,
  remixDelayMs: settings.remixDelayMs,
});

await sandbox.start();
process.stdout.write(
  [
    'Service sandbox running',
    `  API URL:    ${sandbox.url}`,
    `  Media URL:  ${sandbox.mediaUrl}`,
    `  Output URL: ${sandbox.outputUrl}`,
    `  Demo key:   ${DEMO_KEY}`,
    `  Second demo team's key: ${DEMO_KEY_2} (its own lists, projects and balance)`,
    '  Data:       demo data, reset on every start (a Scout using it keeps its own ledger)',
    '',
    'Try:',
    `  curl -s -H 'x-ty-api-key: ${DEMO_KEY}' '${sandbox.url}/api/v2/creators/search?mainCategory=Fitness&perPage=5'`,
    '',
  ].join('\n'),
);

let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${signal}: stopping the sandbox\n`);
  sandbox.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`Could not stop cleanly: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
