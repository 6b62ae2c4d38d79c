/**
 * Budget alerts in the terminal, end to end: songs commands (10 credits each) typed into the shell against the
 * sandbox, the real jobs sending the alerts through the terminal Outbound, which prints each direct message.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTerminalOutbound } from '../../../src/adapters/terminal/outbound.js';
import { creditsFamily } from '../../../src/commands/credits.js';
import { songsFamily } from '../../../src/commands/songs.js';
import { adminsFamily } from '../../../src/commands/tenancy.js';
import { createManualClock } from '../../../src/core/clock.js';
import type { CommandSettings } from '../../../src/core/command/types.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import type { Outbound, PostedMessage } from '../../../src/core/outbound.js';
import { sql } from '../../../src/core/store/sql.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';
import { until } from '../jobs/fixture.js';

let h: Harness | null = null;
let jobs: Jobs | null = null;
afterEach(async () => {
  await jobs?.stop();
  await h?.stop();
  jobs = null;
  h = null;
});

/** The harness with its jobs sending through a terminal Outbound; returns what that Outbound printed so far. */
async function start(settings: Partial<CommandSettings>, clock = createManualClock('2026-03-15T09:00:00Z')) {
  const harness = await startHarness({
    families: [songsFamily, creditsFamily, adminsFamily],
    clock,
    settings: { repeatWindowMs: 0, ...settings },
  });
  h = harness;
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  jobs = createJobs({
    app: harness.app,
    outbound: new Map([['terminal', createTerminalOutbound({ output })]]),
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent' }),
    pollIntervalMs: 3_600_000,
    digestCheckMs: 3_600_000,
    alertCheckMs: 3_600_000,
  });
  await jobs.start();
  return { harness, clock, printed: () => printed };
}

/** The direct messages printed, each with its text. */
const directMessages = (printed: string) =>
  printed
    .split(/\n(?=── )/)
    .filter((part) => part.includes('── direct message'))
    .map((part) => part.trim());

/** Types a paid songs command: 10 credits. */
const song = async (harness: Harness) => {
  const answer = await harness.type('songs countries');
  expect(answer).toContain('United States');
};

/** Lets any alert the last command queued be sent (they go at once, off the command's path). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('budget alerts', () => {
  it('tell a person once at 80% and once at 100% of their daily cap, with the numbers, and again the next day', async () => {
    const { harness, clock, printed } = await start({ defaultDailyCap: 100 });
    const dms = () => directMessages(printed());
    for (let i = 0; i < 7; i++) await song(harness);
    await settle();
    expect(await harness.spentToday()).toBe(70);
    expect(dms()).toEqual([]);

    await song(harness);
    await until(() => dms().length === 1, 'the 80% alert');
    const [warning] = dms();
    expect(warning).toContain('direct message 1 to @me');
    expect(warning).toContain(
      'You have used 80% of your daily credit cap: 80 of 100 credits spent today. It resets at 00:00 UTC.',
    );
    expect(warning).toMatch(/Spent today: 80 credits/);
    expect(warning).toMatch(/Daily cap: 100 credits/);
    expect(warning).toMatch(/Resets: 2026-03-16 00:00 UTC/);

    // Past 80%, still under the cap: nothing new.
    await song(harness);
    await settle();
    expect(await harness.spentToday()).toBe(90);
    expect(dms()).toHaveLength(1);

    await song(harness);
    await until(() => dms().length === 2, 'the 100% alert');
    expect(dms()[1]).toContain('You have reached your daily credit cap: 100 of 100 credits spent today.');
    expect(dms()[1]).toContain('resets at 00:00 UTC');

    // At the cap: refused, nothing spent, nothing sent; a later round of the jobs finds nothing left to send.
    expect(await harness.type('songs countries')).toContain('daily cap');
    await settle();
    expect(await harness.spentToday()).toBe(100);
    expect(dms()).toHaveLength(2);
    const rows = await harness.app.store.db.all(
      sql`SELECT key, state FROM outbox WHERE user_id = 'me' ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'alert:me:100:2026-03-15', state: 'posted' },
      { key: 'alert:me:80:2026-03-15', state: 'posted' },
    ]);

    // A new UTC day: the cap resets, and passing 80% is news again.
    clock.set(new Date('2026-03-16T08:00:00Z'));
    for (let i = 0; i < 8; i++) await song(harness);
    await until(() => dms().length === 3, 'the next day’s 80% alert');
    expect(dms()[2]).toContain('80 of 100 credits spent today');
    expect(dms()[2]).toContain('2026-03-17 00:00 UTC');
    await song(harness);
    await settle();
    expect(dms()).toHaveLength(3);
  });

  it('tell a person who passes 80% and 100% in one call only that the cap is reached', async () => {
    const { harness, printed } = await start({ defaultDailyCap: 20 });
    await song(harness);
    await settle();
    expect(directMessages(printed())).toEqual([]);
    await song(harness);
    await until(() => directMessages(printed()).length === 1, 'the 100% alert');
    await settle();
    expect(directMessages(printed())).toHaveLength(1);
    expect(directMessages(printed())[0]).toContain(
      'You have reached your daily credit cap: 20 of 20 credits',
    );
    const rows = await harness.app.store.db.all(sql`SELECT key, state FROM outbox ORDER BY key`);
    expect(rows).toEqual([
      { key: expect.stringMatching(/^alert:me:100:/), state: 'posted' },
      { key: expect.stringMatching(/^alert:me:80:/), state: 'dropped' },
    ]);
  });

  it('tell the known admins and the person whose call did it, once a day, when the balance drops below SCOUT_BALANCE_ALERT', async () => {
    const { harness, printed } = await start({ balanceAlert: 500 });
    expect(await harness.type('admins add @ana')).toMatch(/ana/);
    harness.sandbox.setCredits(TEST_KEY, 520);
    await song(harness);
    await song(harness);
    await settle();
    // 500 left: not below the threshold.
    expect(directMessages(printed())).toEqual([]);

    await song(harness);
    await until(() => directMessages(printed()).length === 2, 'the balance alerts');
    const dms = directMessages(printed());
    expect(dms.filter((dm) => dm.includes('to @ana'))).toHaveLength(1);
    expect(dms.filter((dm) => dm.includes('to @me'))).toHaveLength(1);
    for (const dm of dms) {
      expect(dm).toContain(
        'The team’s service balance is down to 490 credits, below the alert threshold of 500 credits.',
      );
      expect(dm).toMatch(/Balance: 490 credits/);
      expect(dm).toMatch(/Alert below: 500 credits/);
      expect(dm).toContain('Reported after a paid call by @me.');
    }

    // Lower still, the same day: no second alert.
    await song(harness);
    await settle();
    await jobs?.stop();
    await jobs?.start();
    await settle();
    expect(directMessages(printed())).toHaveLength(2);
  });

  it('never hold a command up or fail it: a DM that hangs or fails is the jobs’ business', async () => {
    const harness = await startHarness({
      families: [songsFamily],
      settings: { repeatWindowMs: 0, defaultDailyCap: 20 },
    });
    h = harness;
    let attempts = 0;
    let fail = false;
    const outbound: Outbound = {
      platform: 'terminal',
      post: () => Promise.reject(new Error('no channel posts here')),
      postDirect: () => {
        attempts += 1;
        return fail
          ? Promise.reject(new Error('the platform refused it'))
          : new Promise<PostedMessage>(() => {});
      },
    };
    const startJobs = async () => {
      jobs = createJobs({
        app: harness.app,
        outbound: new Map([['terminal', outbound]]),
        logger: createLogger({ level: 'silent' }),
        pollIntervalMs: 3_600_000,
        digestCheckMs: 3_600_000,
        alertCheckMs: 3_600_000,
      });
      await jobs.start();
    };
    await startJobs();
    await song(harness);
    await song(harness);
    await until(() => attempts === 1, 'the DM to be sent');
    // The DM never completes; the shell goes on answering, and the jobs still stop.
    expect(await harness.type('songs countries')).toContain('daily cap');
    await jobs?.stop();

    fail = true;
    await startJobs();
    await until(() => attempts === 2, 'the DM to be tried again');
    expect(await harness.type('songs countries')).toContain('daily cap');
    expect(await harness.spentToday()).toBe(20);
    const row = await harness.app.store.db.one(
      sql`SELECT state, attempts FROM outbox WHERE key LIKE 'alert:me:100:%'`,
    );
    expect(row).toEqual({ state: 'posting', attempts: 2 });
  });

  it('stay off without a cap or a balance threshold', async () => {
    const { harness, printed } = await start({});
    harness.sandbox.setCredits(TEST_KEY, 15);
    await song(harness);
    await settle();
    expect(directMessages(printed())).toEqual([]);
    expect((await harness.app.store.db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM outbox`))?.n).toBe(0);
  });
});
