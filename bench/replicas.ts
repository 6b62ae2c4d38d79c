/**
 * Three replicas on PostgreSQL and Redis (part of `npm run bench`): three Scout processes in Slack HTTP mode share
 * one database and one Redis, against the sandbox at the contract's 60 requests a minute; 100 people search at once,
 * their signed commands spread round-robin. Reported: how fast each replica acked, when people had their results,
 * what the service saw (requests, the busiest minute, 429s). Skipped, saying so, when PostgreSQL or Redis is not
 * reachable (SCOUT_TEST_DATABASE_URL, SCOUT_TEST_REDIS_URL; the local servers by default).
 */

import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { openPostgres } from '../src/core/store/sql.js';
import { createSandbox } from '../src/sandbox/index.js';
import { SECRET } from '../test/adapters/slack/helpers.js';
import { signedHeaders, slashCommandBody, startFakeSlack } from '../test/fakes/slack-api.js';
import { REDIS_URL, type ScoutProcess, startScout, until } from '../test/scale/processes.js';

const DATABASE_URL = process.env.SCOUT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PEOPLE = 100;
const ALLOWANCE = 60;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;

async function reachable(): Promise<string | null> {
  const db = openPostgres(DATABASE_URL, { max: 1 });
  try {
    await db.exec('SELECT 1');
  } catch (error) {
    return `PostgreSQL at ${DATABASE_URL} is not reachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await db.close();
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    return `Redis at ${REDIS_URL} is not reachable`;
  } finally {
    redis.disconnect();
  }
  return null;
}

/** Runs the three-replica load and appends its section to `file`. */
export async function writeReplicas(file: URL): Promise<void> {
  const heading = '\n## Three replicas on PostgreSQL and Redis\n\n';
  const missing = await reachable();
  if (missing !== null) {
    appendFileSync(file, `${heading}Not run: ${missing}.\n`);
    return;
  }
  const key = `bench-replicas-${randomBytes(4).toString('hex')}`;
  const schema = `scout_bench_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres(DATABASE_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const sandbox = createSandbox({
    keys: [{ key, teamId: 'team_bench', credits: 1_000_000 }],
    rateLimitPerMinute: ALLOWANCE,
    replyIntervalMs: 0,
  });
  await sandbox.start();
  const slack = await startFakeSlack();
  const replicas: ScoutProcess[] = [];
  try {
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL,
      SCOUT_API_KEY: key,
      SCOUT_API_URL: sandbox.url,
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      LOG_LEVEL: 'warn',
    };
    replicas.push(await startScout(env));
    replicas.push(...(await Promise.all([startScout(env), startScout(env)])));

    const acks: number[][] = replicas.map(() => []);
    const sentAt = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: PEOPLE }, async (_, i) => {
        const replica = i % replicas.length;
        const id = `bench-${i}`;
        const body = new URLSearchParams(
          slashCommandBody({
            text: `creators category:Fitness followers:${1 + (i % 50)}k-2m`,
            responseUrl: slack.responseUrl(id),
            userId: `U9${String(i).padStart(4, '0')}`,
          }),
        ).toString();
        const at = performance.now();
        sentAt.set(id, Date.now());
        const res = await request(
          `http://127.0.0.1:${(replicas[replica] as ScoutProcess).port}/slack/events`,
          {
            method: 'POST',
            headers: signedHeaders(SECRET, body, { contentType: 'application/x-www-form-urlencoded' }),
            body,
          },
        );
        await res.body.text();
        acks[replica]?.push(performance.now() - at);
      }),
    );
    // When each person first saw something (a wait notice or results), and when they had their results.
    const firstSeen = new Map<string, number>();
    const results = new Map<string, number>();
    await until(
      () => {
        const now = Date.now();
        for (const response of slack.responses) {
          if (!sentAt.has(response.id)) continue;
          if (!firstSeen.has(response.id)) firstSeen.set(response.id, now);
          if (!results.has(response.id) && JSON.stringify(response.body).includes('Add to list'))
            results.set(response.id, now);
        }
        return results.size === PEOPLE;
      },
      'everyone’s results',
      15 * 60_000,
    );
    const total = performance.now() - started;
    const waits = (seen: Map<string, number>) =>
      [...seen].map(([id, at]) => at - (sentAt.get(id) ?? at)).sort((a, b) => a - b);
    const toResults = waits(results);
    const toFirst = waits(firstSeen);
    const seen = sandbox.requests(key);
    const times = seen.map((r) => r.at).sort((a, b) => a - b);
    let busiest = 0;
    for (const [i, at] of times.entries())
      busiest = Math.max(busiest, times.slice(i).filter((t) => t < at + 60_000).length);
    const rows = [
      ...acks.map((list, i) => {
        const sorted = [...list].sort((a, b) => a - b);
        return `| replica ${i + 1}: ack of a signed /scout command (${sorted.length} requests) | p50 ${ms(percentile(sorted, 0.5))}, p99 ${ms(percentile(sorted, 0.99))} |`;
      }),
      `| people with their results | all ${PEOPLE} after ${s(total)}; p50 ${s(percentile(toResults, 0.5))}, p95 ${s(percentile(toResults, 0.95))} |`,
      `| first thing each person saw (a wait notice or the results) | p50 ${s(percentile(toFirst, 0.5))}, p95 ${s(percentile(toFirst, 0.95))}, max ${s(toFirst.at(-1) ?? 0)} |`,
      `| service requests | ${seen.length} (${seen.filter((r) => r.path === '/api/v2/creators/search').length} searches, ${seen.filter((r) => r.path === '/api/v2/creators/get').length} profile requests); busiest minute ${busiest} of ${ALLOWANCE} allowed; ${seen.filter((r) => r.status === 429).length} × 429 |`,
    ];
    appendFileSync(
      file,
      `${heading}Three Scout processes in Slack HTTP mode (\`npm start\`'s entry point) on one PostgreSQL database and one Redis, against the sandbox at ${ALLOWANCE} requests a minute; ${PEOPLE} people send a creator search at once, spread round-robin over the three.\n\n| what | figure |\n|---|---|\n${rows.join('\n')}\n`,
    );
  } finally {
    for (const replica of replicas) replica.child.kill('SIGKILL');
    await slack.stop();
    await sandbox.stop();
    await admin.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await admin.close();
  }
}
