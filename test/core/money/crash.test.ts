/**
 * A crash while paid calls are in flight loses no charge: Scout's own entry point, driven through the terminal,
 * is killed with SIGKILL at random moments while it spends; after the restarts the ledger equals, to the credit,
 * what the sandbox charged, and every call left in flight has been settled from the balances the service reported.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createManualClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/logger.js';
import { openDatabase } from '../../../src/core/store/database.js';
import { SETTLE_GRACE_MS } from '../../../src/core/store/ledger-settle.js';
import { sql } from '../../../src/core/store/sql.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

const KEY = 'crash-key-00001';
const CREDITS = 1_000_000;
const TRIALS = 8;
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = createSandbox({
    keys: [{ key: KEY, teamId: 'team_crash', credits: CREDITS }],
    rateLimitPerMinute: 100_000,
    replyIntervalMs: 0,
  });
  await sandbox.start();
  dir = mkdtempSync(join(tmpdir(), 'scout-crash-'));
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

const paidRequests = () =>
  sandbox.requests(KEY).filter((r) => /^\/api\/(v1\/songs|v1\/viral-content)\b/.test(r.path)).length;

/** Paid commands, each different so none is answered from an earlier run. */
const commandsOf = (trial: number) =>
  Array.from({ length: 400 }, (_, i) =>
    i % 3 === 0 ? 'songs countries' : `viral pageSize:${1 + ((trial * 7 + i) % 9)} views:>${trial}${i}k`,
  ).join('\n');

/** Runs `npm start`'s entry point on the database until it has sent `atLeast` paid calls, then kills it. */
async function crashOnce(databasePath: string, trial: number, random: () => number): Promise<void> {
  // One process (no tsx wrapper in front), so SIGKILL hits Scout itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      LOG_LEVEL: 'silent',
      SCOUT_API_KEY: KEY,
      SCOUT_API_URL: sandbox.url,
      DATABASE_PATH: databasePath,
    },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.stdin.on('error', () => {});
  child.stdin.write(`${commandsOf(trial)}\n`);
  const before = paidRequests();
  const started = Date.now();
  while (paidRequests() < before + 2 && Date.now() - started < 20_000) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 150)));
  child.kill('SIGKILL');
  await exited;
}

/**
 * A start of Scout on the database some minutes later, when the service can no longer charge what the killed
 * process sent: starting forgets the killed process, and the free answer it gets settles what was left in flight.
 */
async function settleAfterCrash(databasePath: string): Promise<void> {
  const clock = createManualClock(Date.now());
  const app = await createApp({
    clock,
    service: { apiKey: KEY, baseUrl: sandbox.url, mediaUrl: sandbox.mediaUrl },
    databasePath,
    logger: createLogger({ level: 'silent' }),
    families: FAMILIES,
  });
  try {
    clock.advance(SETTLE_GRACE_MS + 1_000);
    await app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'c', text: 'lists' });
  } finally {
    await app.stop();
  }
}

describe('a crash with paid calls in flight', () => {
  it('loses no charge: the ledger matches the sandbox to the credit after restarts', async () => {
    const path = join(dir, 'scout.db');
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let trial = 1; trial <= TRIALS; trial++) {
      await crashOnce(path, trial, random);
      await settleAfterCrash(path);
    }
    const db = await openDatabase({ path });
    try {
      const charged = CREDITS - sandbox.credits(KEY);
      const ledger = (await db.one<{ credits: number; calls: number; settled: number; open: number }>(
        sql`SELECT COALESCE(SUM(credits), 0) AS credits, COUNT(*) AS calls,
             COALESCE(SUM(state = 'settled'), 0) AS settled,
             COALESCE(SUM(state NOT IN ('confirmed', 'settled')), 0) AS open FROM credit_ledger`,
      )) as { credits: number; calls: number; settled: number; open: number };
      expect(charged).toBeGreaterThan(0);
      expect(ledger.credits).toBe(charged);
      expect(ledger.open).toBe(0);
      expect(ledger.calls).toBeGreaterThanOrEqual(TRIALS * 2);
    } finally {
      await db.close();
    }
  }, 120_000);
});
