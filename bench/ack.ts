/**
 * Acks side by side (part of `npm run bench`): Scout in Slack HTTP mode (`npm start`'s entry point) and a bare Bolt
 * app that only acknowledges (bench/bare-bolt.mjs), each a process of its own, get the same signed /scout commands,
 * 50 at a time. Batches alternate between the two; before each bare batch Scout's work after its acks (service
 * calls, answers) is drained, so the bare app is measured on a quiet machine and Scout under its own load. Each
 * command family is reported separately: p50 and p99 of the time from sending a request to its HTTP answer.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { createSandbox } from '../src/sandbox/index.js';
import { SECRET } from '../test/adapters/slack/helpers.js';
import { signedHeaders, slashCommandBody, startFakeSlack } from '../test/fakes/slack-api.js';
import { freePort, startScout, status, until } from '../test/scale/processes.js';

/** Requests sent at once. */
const BATCH = 50;
/** Batches per family and side. */
const ROUNDS = 6;

/** The command families compared, with the line each request sends (`round` and `i` vary it). */
const FAMILIES: ReadonlyArray<{ name: string; line: (round: number, i: number) => string }> = [
  { name: 'help', line: () => 'help' },
  { name: 'malformed input', line: () => 'creators followers:lots' },
  {
    name: 'creator search',
    line: (round, i) => `creators category:Fitness followers:${1 + round}k-${2 + (i % 7)}m`,
  },
  { name: 'CRM lists', line: () => 'lists' },
  { name: 'credits', line: () => 'credits' },
];

/** One side's figures for a family. */
export interface AckFigures {
  family: string;
  scout: { p50: number; p99: number };
  bare: { p50: number; p99: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;

/** The commands Scout has finished, from its /metrics. */
async function commandsDone(port: number): Promise<number> {
  const res = await request(`http://127.0.0.1:${port}/metrics`);
  const text = await res.body.text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('scout_commands_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Resolves once `count` has not changed for 100 ms. */
async function quiet(count: () => number): Promise<void> {
  let last = -1;
  while (count() !== last) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends one batch of signed commands to `port`; returns each request's time to its answer, in ms. */
async function batch(port: number, lines: string[], responseUrl: (i: number) => string): Promise<number[]> {
  return Promise.all(
    lines.map(async (text, i) => {
      const body = new URLSearchParams(
        slashCommandBody({
          text,
          responseUrl: responseUrl(i),
          userId: `U7${String(i).padStart(4, '0')}`,
        }),
      ).toString();
      const headers = signedHeaders(SECRET, body, { contentType: 'application/x-www-form-urlencoded' });
      const at = performance.now();
      const res = await request(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers, body });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} from port ${port}`);
      return performance.now() - at;
    }),
  );
}

/** Runs the comparison; Scout and the bare app run against one fake Slack, Scout against the sandbox. */
export async function compareAcks(): Promise<AckFigures[]> {
  const key = 'bench-acks-key';
  const sandbox = createSandbox({
    keys: [{ key, teamId: 'team_bench', credits: 10_000_000 }],
    // Acks are measured, not the service's allowance: it never makes anyone wait here.
    rateLimitPerMinute: 1_000_000,
    replyIntervalMs: 0,
  });
  await sandbox.start();
  const slack = await startFakeSlack();
  const dir = mkdtempSync(join(tmpdir(), 'scout-bench-acks-'));
  const env = {
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    LOG_LEVEL: 'warn',
  };
  const scout = await startScout(
    { ...env, SCOUT_API_KEY: key, SCOUT_API_URL: sandbox.url, DATABASE_PATH: join(dir, 'scout.db') },
    { compiled: true },
  );
  const barePort = await freePort();
  const bare = spawn(process.execPath, ['bench/bare-bolt.mjs'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(barePort), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await until(async () => (await status(barePort, '/slack/events')) !== 0, 'the bare Bolt app');
    const figures: AckFigures[] = [];
    let sent = 0;
    for (const family of FAMILIES) {
      const times = { scout: [] as number[], bare: [] as number[] };
      // Round 0 warms both processes up (their code paths, connections, caches) and is not counted.
      for (let round = 0; round <= ROUNDS; round++) {
        const lines = Array.from({ length: BATCH }, (_, i) => family.line(round, i));
        const before = await commandsDone(scout.port);
        const scoutTimes = await batch(scout.port, lines, (i) => slack.responseUrl(`ack-${sent + i}`));
        sent += BATCH;
        // Scout's work after the acks ends before the bare app is measured: every command counted, and its
        // answers delivered (no new response for a tenth of a second).
        await until(
          async () => (await commandsDone(scout.port)) >= before + BATCH,
          `Scout to finish ${family.name}`,
          120_000,
        );
        await quiet(() => slack.responses.length);
        const bareTimes = await batch(barePort, lines, (i) => slack.responseUrl(`bare-${sent + i}`));
        if (round === 0) continue;
        times.scout.push(...scoutTimes);
        times.bare.push(...bareTimes);
      }
      const side = (list: number[]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
      };
      figures.push({ family: family.name, scout: side(times.scout), bare: side(times.bare) });
    }
    return figures;
  } finally {
    scout.child.kill('SIGKILL');
    bare.kill('SIGKILL');
    await slack.stop();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of the comparison, for the benchmark's table. */
export function ackRows(figures: readonly AckFigures[]): { name: string; figure: string }[] {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  return figures.map((f) => ({
    name: `ack of ${BATCH} signed /scout ${f.family} at once, ${ROUNDS} batches: Scout vs bare Bolt`,
    figure: `p99 ${ms(f.scout.p99)} vs ${ms(f.bare.p99)} (${(f.scout.p99 / f.bare.p99).toFixed(2)}×); p50 ${ms(f.scout.p50)} vs ${ms(f.bare.p50)}`,
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of ackRows(await compareAcks())) console.log(`${row.name}: ${row.figure}`);
}
