/**
 * Scout processes for the replica tests: `npm start`'s entry point run with the environment given, its output kept,
 * started once its /healthz answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';

/** A running Scout process. */
export interface ScoutProcess {
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output: string;
}

/** The Redis of the scale tests. */
export const REDIS_URL = process.env.SCOUT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A port free right now on loopback. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Resolves once `check` holds; rejects after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 60_000,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The status of a GET on the process's port; 0 when nothing answered. */
export async function status(port: number, path: string): Promise<number> {
  try {
    const res = await request(`http://127.0.0.1:${port}${path}`);
    await res.body.text();
    return res.statusCode;
  } catch {
    return 0;
  }
}

/**
 * Starts Scout with `env` (PATH, PORT and LOG_LEVEL=info added) and waits for its /healthz: from src/ through tsx,
 * or `compiled`, as production runs it (node dist/main.js; dist/ must be built).
 */
export async function startScout(
  env: Record<string, string>,
  options: { compiled?: boolean } = {},
): Promise<ScoutProcess> {
  const port = await freePort();
  const entry = options.compiled === true ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, entry, {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const scout: ScoutProcess = { port, child, output: '' };
  const keep = (chunk: Buffer) => {
    scout.output += chunk.toString('utf8');
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await until(async () => (await status(port, '/healthz')) === 200, 'Scout to start');
  return scout;
}
