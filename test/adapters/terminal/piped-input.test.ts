/**
 * The real process (`npm start`'s entry point) in the terminal with piped input, against a sandbox in this process: when
 * the input ends while a command waits out the service's 429, the process stays up until every command read has
 * been answered, then exits 0; SIGINT still ends it at once, the wait given up and nothing more sent.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

const KEY = 'terminal-piped-0001';

let sandbox: Sandbox | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** What the process printed, how it ended, and when. */
interface Run {
  output: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When SIGINT was sent (0: never) and when the process exited, in ms since the epoch. */
  interruptedAt: number;
  exitedAt: number;
}

/**
 * Starts Scout in the terminal on the sandbox with `input` piped in and ended at once; `interrupt` sends SIGINT once
 * the printed output matches it.
 */
function runScout(service: Sandbox, input: string, interrupt?: RegExp): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'scout-piped-'));
  dirs.push(dir);
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      DATABASE_PATH: join(dir, 'scout.db'),
      SCOUT_API_KEY: KEY,
      SCOUT_API_URL: service.url,
      LOG_LEVEL: 'error',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let interruptedAt = 0;
  const take = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (interrupt !== undefined && interruptedAt === 0 && interrupt.test(output)) {
      interruptedAt = Date.now();
      child.kill('SIGINT');
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      resolve({ output, code, signal, interruptedAt, exitedAt: Date.now() }),
    );
  });
}

const startSandbox = async () => {
  sandbox = createSandbox({ replyIntervalMs: 0, keys: [{ key: KEY, teamId: 'team_piped', credits: 1_000 }] });
  await sandbox.start();
  return sandbox;
};

describe('terminal with piped input', () => {
  it('answers every command read before it exits, the first waiting out a 429', {
    timeout: 30_000,
  }, async () => {
    const service = await startSandbox();
    service.injectFaults(KEY, { kind: 'rate-limit', retryAfterSeconds: 1 });
    const run = await runScout(service, 'outreach projects\nsongs countries\n');
    expect(run.code).toBe(0);
    const paths = service.requests(KEY).map((r) => `${r.status} ${r.path}`);
    expect(paths.slice(0, 2)).toEqual(['429 /api/v1/agent/projects', '200 /api/v1/agent/projects']);
    expect(paths).toContain('200 /api/v1/songs');
    const retried = service.requests(KEY)[1]?.at ?? 0;
    expect(retried - (service.requests(KEY)[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    // Both answers were printed, in order, before the process ended.
    expect(run.output).toMatch(/Agent projects · \d+[\s\S]*Countries with song charts/);
  });

  it('still ends at once on SIGINT while a command waits, sending nothing more', {
    timeout: 30_000,
  }, async () => {
    const service = await startSandbox();
    service.injectFaults(KEY, { kind: 'rate-limit', retryAfterSeconds: 100 });
    // Interrupted once the command says it waits (its working message, or its place in the queue).
    const run = await runScout(
      service,
      'outreach projects\nsongs countries\n',
      /Working on it|The service is busy|asked Scout to wait/,
    );
    expect(run.code).toBe(0);
    expect(run.interruptedAt).toBeGreaterThan(0);
    expect(run.output).toContain('Scout is shutting down, so the service call was not sent.');
    expect(run.output).not.toContain('Countries with song charts');
    expect(service.requests(KEY).map((r) => `${r.status} ${r.path}`)).toEqual(['429 /api/v1/agent/projects']);
    expect(run.exitedAt - run.interruptedAt).toBeLessThan(5_000);
  });
});
