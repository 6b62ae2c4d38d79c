/**
 * Three replicas on PostgreSQL and Redis (part of `npm run bench`): three Scout processes in Slack HTTP mode share
 * one database and one Redis, against the sandbox at the contract's 60 requests a minute; 100 people search at once,
 * their signed commands spread round-robin. Reported: how fast each replica acked, when people had their results,
 * what the service saw (requests, the busiest minute, 429s). Skipped, saying so, when PostgreSQL or Redis is not
 * reachable (SCOUT_TEST_DATABASE_URL, SCOUT_TEST_REDIS_URL; the local servers by default).
 */

import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { openPostgres } from '../src/core/store/sql.js';
import { REDIS_URL } from '../test/scale/processes.js';
import { ALLOWANCE, peopleAtOnce } from './load.js';

const DATABASE_URL = process.env.SCOUT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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
  try {
    const rows = await peopleAtOnce({ processes: 3, key, env: { DATABASE_URL: url.toString(), REDIS_URL } });
    appendFileSync(
      file,
      `${heading}Three Scout processes in Slack HTTP mode (\`npm start\`'s entry point) on one PostgreSQL database and one Redis, against the sandbox at ${ALLOWANCE} requests a minute; 100 people send a creator search at once, spread round-robin over the three.\n\n| what | figure |\n|---|---|\n${rows.join('\n')}\n`,
    );
  } finally {
    await admin.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await admin.close();
  }
}
