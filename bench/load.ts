/**
 * People at once (part of `npm run bench`): Scout processes in Slack HTTP mode (`npm start`'s entry point) against
 * the sandbox at the contract's 60 requests a minute; 100 people send a creator search at the same moment, spread
 * round-robin over the processes. Reported: the acks, when each person first saw something (an answer in the ack,
 * a working or queue message, or the results) and when they had their results, what the service saw (requests
 * per minute and per result, 429s) and each process's memory after the load.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { ensureBuilt } from '../scripts/dist.mjs';
import { createSandbox } from '../src/sandbox/index.js';
import { SECRET } from '../test/adapters/slack/helpers.js';
import { signedHeaders, slashCommandBody, startFakeSlack } from '../test/fakes/slack-api.js';
import { type ScoutProcess, startScout, until } from '../test/scale/processes.js';

/** The contract's allowance per minute. */
export const ALLOWANCE = 60;
const PEOPLE = 100;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;

/** A process's resident memory, in MB, from /proc (null where there is none). */
function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line === undefined ? null : Number(line.replace(/\D+/g, '')) / 1024;
  } catch {
    return null;
  }
}

/** How a load is run. */
export interface LoadOptions {
  /** Scout processes sharing the work. */
  processes: number;
  /** Their environment besides the service and Slack (a shared database and Redis for replicas). */
  env: Record<string, string>;
  /** The service key (the sandbox's). */
  key: string;
}

/** Runs the load; returns the rows of its table. */
export async function peopleAtOnce(options: LoadOptions): Promise<string[]> {
  const { key } = options;
  ensureBuilt();
  const sandbox = createSandbox({
    keys: [{ key, teamId: 'team_bench', credits: 1_000_000 }],
    rateLimitPerMinute: ALLOWANCE,
    replyIntervalMs: 0,
  });
  await sandbox.start();
  const slack = await startFakeSlack();
  const scouts: ScoutProcess[] = [];
  try {
    const env = {
      ...options.env,
      SCOUT_API_KEY: key,
      SCOUT_API_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      LOG_LEVEL: 'warn',
    };
    // The first process migrates the database; the others start together.
    const compiled = { compiled: true };
    scouts.push(await startScout(env, compiled));
    scouts.push(
      ...(await Promise.all(Array.from({ length: options.processes - 1 }, () => startScout(env, compiled)))),
    );

    const acks: number[][] = scouts.map(() => []);
    const sentAt = new Map<string, number>();
    const firstSeen = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: PEOPLE }, async (_, i) => {
        const which = i % scouts.length;
        const id = `person-${i}`;
        const body = new URLSearchParams(
          slashCommandBody({
            text: `creators category:Fitness followers:${1 + (i % 50)}k-2m`,
            responseUrl: slack.responseUrl(id),
            userId: `U9${String(i).padStart(4, '0')}`,
          }),
        ).toString();
        const at = performance.now();
        sentAt.set(id, Date.now());
        const res = await request(`http://127.0.0.1:${(scouts[which] as ScoutProcess).port}/slack/events`, {
          method: 'POST',
          headers: signedHeaders(SECRET, body, { contentType: 'application/x-www-form-urlencoded' }),
          body,
        });
        // An ack carrying a message is seen with the ack.
        if ((await res.body.text()).includes('"text"')) firstSeen.set(id, Date.now());
        acks[which]?.push(performance.now() - at);
      }),
    );
    const results = new Map<string, number>();
    await until(
      () => {
        for (const response of slack.responses) {
          const at = response.at ?? Date.now();
          if (!sentAt.has(response.id)) continue;
          if (!firstSeen.has(response.id)) firstSeen.set(response.id, at);
          if (!results.has(response.id) && JSON.stringify(response.body).includes('Add to list'))
            results.set(response.id, at);
        }
        return results.size === PEOPLE;
      },
      'everyone’s results',
      10 * 60_000,
    );
    const total = performance.now() - started;
    const memory = scouts.map((scout) => rssMb(scout.child.pid));
    const waits = (seen: Map<string, number>) =>
      [...seen].map(([id, at]) => at - (sentAt.get(id) ?? at)).sort((a, b) => a - b);
    const toResults = waits(results);
    const toFirst = waits(firstSeen);
    const seen = sandbox.requests(key);
    const times = seen.map((r) => r.at).sort((a, b) => a - b);
    let busiest = 0;
    for (const [i, at] of times.entries())
      busiest = Math.max(busiest, times.slice(i).filter((t) => t < at + 60_000).length);
    const minutes = Math.max(1, ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 60_000);
    const label = (i: number) => (scouts.length === 1 ? 'Scout' : `replica ${i + 1}`);
    return [
      ...acks.map((list, i) => {
        const sorted = [...list].sort((a, b) => a - b);
        return `| ${label(i)}: ack of a signed /scout command (${sorted.length} requests) | p50 ${ms(percentile(sorted, 0.5))}, p99 ${ms(percentile(sorted, 0.99))} |`;
      }),
      `| first thing each person saw (a working or queue message, or the results) | p50 ${s(percentile(toFirst, 0.5))}, p99 ${s(percentile(toFirst, 0.99))}, max ${s(toFirst.at(-1) ?? 0)} |`,
      `| people with their results | all ${PEOPLE} after ${s(total)}; p50 ${s(percentile(toResults, 0.5))}, p99 ${s(percentile(toResults, 0.99))} |`,
      `| service requests | ${seen.length} (${seen.filter((r) => r.path === '/api/v2/creators/search').length} searches, ${seen.filter((r) => r.path === '/api/v2/creators/get').length} profile requests): ${(seen.length / PEOPLE).toFixed(2)} per result, ${(seen.length / minutes).toFixed(0)} a minute; busiest minute ${busiest} of ${ALLOWANCE} allowed; ${seen.filter((r) => r.status === 429).length} × 429 |`,
      ...memory.map(
        (mb, i) =>
          `| ${label(i)}: resident memory after the load | ${mb === null ? 'not measured here' : `${mb.toFixed(0)} MB`} |`,
      ),
    ];
  } finally {
    for (const scout of scouts) scout.child.kill('SIGKILL');
    await slack.stop();
    await sandbox.stop();
  }
}

/** Runs the load on one process with its SQLite database, and appends its section to `file`. */
export async function writeLoad(file: URL): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scout-bench-load-'));
  try {
    const rows = await peopleAtOnce({
      processes: 1,
      key: 'bench-load-key',
      env: { DATABASE_PATH: join(dir, 'scout.db') },
    });
    appendFileSync(
      file,
      `\n## ${PEOPLE} people at once\n\nOne Scout process in Slack HTTP mode (compiled, as \`npm start\` runs it; SQLite), against the sandbox at ${ALLOWANCE} requests a minute; ${PEOPLE} people send a creator search at the same moment. The floor is ${PEOPLE} searches and one profile request per 100 ids.\n\n| what | figure |\n|---|---|\n${rows.join('\n')}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
