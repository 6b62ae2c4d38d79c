/**
 * How fast the compiled bot starts and how much memory it holds when ready: spawned several times as production
 * runs it (`node dist/main.js`, and as `npm start` runs it, through scripts/start.mjs), timed from spawn to the
 * first 200 of /healthz, with the CPU time it used and its resident memory (VmRSS) read at that moment. Two
 * configurations: the local default (terminal shell, embedded sandbox) and Slack's HTTP mode with the background
 * jobs, against a fake Slack Web API and a sandbox of the service in this process. `measureStart()` returns the rows
 * ({ name, figure }, as the other benchmarks report them).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { ensureBuilt, PROJECT } from '../scripts/dist.mjs';
import { createSandbox, DEMO_KEY } from '../src/sandbox/index.js';
import { SECRET } from '../test/adapters/slack/helpers.js';
import { startFakeSlack } from '../test/fakes/slack-api.js';
import { freePort } from '../test/scale/processes.js';

/** Measured starts per configuration, after one unmeasured start (it creates the database, warms the file cache). */
const RUNS = 5;
/** A start slower than this is a failure, not a figure. */
const START_LIMIT_MS = 30_000;

interface Sample {
  readyMs: number;
  /** CPU time (user + system) the process had used when ready, in ms: what a busy machine does not stretch. */
  cpuMs: number | null;
  /** Resident memory at ready, in MB; null where /proc is not there to read. */
  rssMb: number | null;
}

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times (100 on nearly every Linux). */
function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
const TICKS = clockTicks();

/** The CPU time (user + system) the process has used, in ms, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number): number | null {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the
    // 14th and 15th of the whole line.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return null;
  }
}

/** The process's resident memory in MB, from /proc (Linux); null elsewhere. */
function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? null : Number(match[1]) / 1024;
  } catch {
    return null;
  }
}

/** Whether /healthz on `port` answers 200 now. */
async function healthy(port: number): Promise<boolean> {
  try {
    const res = await request(`http://127.0.0.1:${port}/healthz`);
    await res.body.text();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** Stops the child with SIGTERM (SIGKILL if it lingers) and waits for it to exit. */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const hung = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(hung);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Spawns `entry` with `env` (plus PATH and PORT), and times it until /healthz answers 200. */
async function startOnce(entry: string, env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd: PROJECT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    // Standard input stays open: the terminal shell stops when its input ends.
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  try {
    while (!(await healthy(port))) {
      if (child.exitCode !== null) throw new Error(`Scout exited before it was ready: ${stderr}`);
      if (performance.now() - began > START_LIMIT_MS) throw new Error(`Scout was not ready: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const readyMs = performance.now() - began;
    const pid = child.pid;
    return {
      readyMs,
      cpuMs: pid === undefined ? null : cpuMs(pid),
      rssMb: pid === undefined ? null : rssMb(pid),
    };
  } finally {
    await stop(child);
  }
}

/** One unmeasured start, then RUNS measured ones, one after another. */
async function sample(entry: string, env: Record<string, string>): Promise<Sample[]> {
  await startOnce(entry, env);
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await startOnce(entry, env));
  return samples;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
};

/** "median …, max …" of the values, or a note when there are none. */
function spread(values: (number | null)[], unit: string): string {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return 'not measured (no /proc)';
  return `median ${median(known).toFixed(0)} ${unit}, max ${Math.max(...known).toFixed(0)} ${unit}`;
}

/** The rows of one configuration: start to ready, the CPU time that took, and memory at ready. */
function rows(what: string, samples: Sample[]): { name: string; figure: string }[] {
  return [
    {
      name: `Start to /healthz 200, ${what} (${samples.length} starts)`,
      figure: spread(
        samples.map((s) => s.readyMs),
        'ms',
      ),
    },
    {
      name: `CPU time to ready, ${what}`,
      figure: spread(
        samples.map((s) => s.cpuMs),
        'ms',
      ),
    },
    {
      name: `RSS at ready, ${what}`,
      figure: spread(
        samples.map((s) => s.rssMb),
        'MB',
      ),
    },
  ];
}

/**
 * Compiles dist/ if it is missing or stale, then measures the compiled bot's start: the terminal with the embedded
 * sandbox, Slack's HTTP mode with the jobs (node dist/main.js), and the same through `npm start`'s launcher.
 */
export async function measureStart(): Promise<{ name: string; figure: string }[]> {
  ensureBuilt();
  const main = join(PROJECT, 'dist', 'main.js');
  const launcher = join(PROJECT, 'scripts', 'start.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'scout-bench-start-'));
  const sandbox = createSandbox({ replyIntervalMs: 0 });
  await sandbox.start();
  const slack = await startFakeSlack();
  try {
    const local = await sample(main, { HOME: dir, DATABASE_PATH: join(dir, 'local', 'scout.db') });
    const slackEnv = {
      HOME: dir,
      DATABASE_PATH: join(dir, 'slack', 'scout.db'),
      SCOUT_API_KEY: DEMO_KEY,
      SCOUT_API_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-bench',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
    };
    const http = await sample(main, slackEnv);
    const launched = await sample(launcher, slackEnv);
    return [
      ...rows('terminal + embedded sandbox, node dist/main.js', local),
      ...rows('Slack HTTP mode + jobs, node dist/main.js', http),
      ...rows('Slack HTTP mode + jobs, npm start’s launcher (dist/ fresh)', launched),
    ];
  } finally {
    await slack.stop();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
