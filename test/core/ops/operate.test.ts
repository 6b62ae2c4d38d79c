/**
 * The operator endpoints on the operator server (Scout with no Slack server: Discord only, or the terminal), over a
 * real app driven through the terminal: /metrics parsed as Prometheus reads it, /readyz for the database and storage.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { createOpsServer, type OpsServer } from '../../../src/core/ops-server.js';
import { sql } from '../../../src/core/store/sql.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { call, readiness, scrape } from './scrape.js';

const logger = createLogger({ level: 'silent' });

describe('operator endpoints', () => {
  let h: Harness | undefined;
  let ops: OpsServer | undefined;
  afterEach(async () => {
    await ops?.stop();
    await h?.stop();
    ops = undefined;
    h = undefined;
  });

  const start = async (settings: Parameters<typeof startHarness>[0] = {}) => {
    h = await startHarness(settings);
    ops = createOpsServer({ app: h.app, port: 0, logger });
    await ops.start();
    return { h, port: ops.port };
  };

  it('counts commands by family and outcome, requests, waits and credits, with process metrics', async () => {
    const { h, port } = await start({ settings: { repeatWindowMs: 0, defaultDailyCap: 15 } });
    expect(await h.type('help')).toContain('help');
    await h.type('frobnicate now');
    await h.type('viral views:lots');
    await h.type('songs countries');
    // The second would pass the cap of 15: refused before anything is sent.
    const sent = h.requests().length;
    expect(await h.type('songs countries')).toContain('daily cap');
    expect(h.requests()).toHaveLength(sent);

    const metrics = await scrape(port);
    expect(metrics.value('scout_commands_total', { family: 'help', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'unknown', outcome: 'input_error' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'viral', outcome: 'input_error' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'songs', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'songs', outcome: 'refused' })).toBe(1);
    // Every request the sandbox received is counted once, by operation and status.
    const songs = h.requests().length;
    expect(songs).toBeGreaterThan(0);
    expect(metrics.value('scout_upstream_requests_total', { operation: 'songs.query', status: '200' })).toBe(
      songs,
    );
    expect(
      metrics.observations('scout_upstream_request_duration_seconds', { operation: 'songs.query' }),
    ).toBe(songs);
    expect(
      metrics.value('scout_credits_charged_total', { operation: 'songs.query', state: 'confirmed' }),
    ).toBe(await h.spentToday());
    expect(await h.spentToday()).toBe(10);
    expect(metrics.observations('scout_rate_limiter_wait_seconds', { priority: 'user' })).toBe(songs);
    expect(metrics.value('scout_rate_limiter_queue_length', { priority: 'user' })).toBe(0);
    expect(metrics.value('scout_rate_limiter_queue_length', { priority: 'background' })).toBe(0);
    expect(metrics.value('scout_ledger_unwritten_completions')).toBe(0);
    // prom-client's default process metrics, in the app's own registry.
    expect(metrics.family('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(metrics.family('nodejs_heap_size_used_bytes')?.type).toBe('GAUGE');
    expect(metrics.family('scout_ack_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('counts element presses by the family of the command that made them', async () => {
    const { h, port } = await start({ settings: { repeatWindowMs: 0 } });
    await h.type('creators category:Fitness followers:10k-100k');
    expect(await h.type('next')).toContain('Page 2');
    const metrics = await scrape(port);
    expect(metrics.value('scout_commands_total', { family: 'creators', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_actions_total', { family: 'creators', outcome: 'ok' })).toBe(1);
    expect(
      metrics.value('scout_credits_charged_total', { operation: 'creators.get', state: 'confirmed' }),
    ).toBe(await h.spentToday());
  });

  it('counts a confirmation asked, its press, and a repeat answered from the first run', async () => {
    const { h, port } = await start({ settings: { confirmAbove: 5 } });
    expect(await h.type('songs countries')).toContain('Confirm');
    expect(await h.type('confirm')).toContain('Countries with song charts');
    // Within the repeat window, the same paid command is answered from the first run: nothing is sent again.
    const sent = h.requests().length;
    await h.type('songs countries');
    expect(h.requests()).toHaveLength(sent);
    const metrics = await scrape(port);
    expect(metrics.value('scout_commands_total', { family: 'songs', outcome: 'confirm' })).toBe(1);
    expect(metrics.value('scout_actions_total', { family: 'songs', outcome: 'ok' })).toBe(1);
    expect(metrics.value('scout_commands_total', { family: 'songs', outcome: 'duplicate' })).toBe(1);
  });

  it('is ready with the database open and migrated, and not once it is closed', async () => {
    const { port } = await start();
    expect(await readiness(port)).toEqual({
      status: 200,
      ready: true,
      checks: { database: 'ok', storage: 'ok' },
    });
    await h?.stop();
    h = undefined;
    const closed = await readiness(port);
    expect(closed.status).toBe(503);
    expect(closed.checks.database).toBe('database closed');
  });

  it('says the storage is full while the ledger keeps completions it could not write', async () => {
    const { h, port } = await start();
    const { db, ledger } = h.app.store;
    const actor = { platform: 'terminal' as const, workspaceId: 'local', userId: 'ana' };
    const grow = (command: string, key: string) =>
      db.run(sql`UPDATE credit_ledger SET command = ${command} WHERE idempotency_key = ${key}`);
    const pageSize = (await db.one<{ page_size: number }>(sql`PRAGMA page_size`))?.page_size as number;
    // A paid call written before it is sent; then the database may not grow, and the page holding it is filled
    // (a row beside it grown as far as it fits), so its completion cannot be written: the ledger keeps it.
    let calls = 0;
    let kept = '';
    for (let attempt = 0; attempt < 10 && ledger.unwritten() === 0; attempt++) {
      const key = `paid-${attempt}`;
      calls += 1;
      kept = key;
      const filler = `filler-${attempt}`;
      await ledger.intend({
        ...actor,
        at: new Date(),
        operation: 'creators.get',
        estimate: 3,
        units: 3,
        accountId: 'acct_test',
        owner: null,
        idempotencyKey: key,
      });
      await ledger.record({
        ...actor,
        at: new Date(),
        operation: 'none',
        units: 0,
        credits: 0,
        balance: null,
        idempotencyKey: filler,
      });
      const pages = (await db.one<{ page_count: number }>(sql`PRAGMA page_count`))?.page_count as number;
      await db.one(sql.raw(`PRAGMA max_page_count = ${pages}`));
      let fits = 0;
      let over = pageSize;
      while (over - fits > 1) {
        const length = Math.floor((fits + over) / 2);
        try {
          await grow('x'.repeat(length), filler);
          fits = length;
        } catch {
          over = length;
        }
      }
      await grow('x'.repeat(fits), filler);
      await ledger.confirm(key, { credits: 3, units: 3, balance: 1_000 });
      if (ledger.unwritten() === 0) await db.one(sql`PRAGMA max_page_count = 1000000`);
    }
    expect(ledger.unwritten()).toBe(1);
    expect((await ledger.find(kept))?.state).toBe('pending');
    const full = await readiness(port);
    expect(full.status).toBe(503);
    expect(full.ready).toBe(false);
    expect(full.checks.storage).toMatch(/^storage full: 1 /);
    expect(full.checks.database).toBe('ok');
    expect((await scrape(port)).value('scout_ledger_unwritten_completions')).toBe(1);

    // Room again: what was kept is written (the app retries with its heartbeat), and Scout is ready.
    await db.one(sql`PRAGMA max_page_count = 1000000`);
    expect(await ledger.retryUnwritten()).toBe(0);
    expect((await ledger.find(kept))?.state).toBe('confirmed');
    expect((await readiness(port)).status).toBe(200);
    // Counted once written: every confirmed call, the kept one included.
    const charged = (await scrape(port)).value('scout_credits_charged_total', {
      operation: 'creators.get',
      state: 'confirmed',
    });
    expect(charged).toBe(3 * calls);
  });

  it('answers /healthz, refuses other methods and paths', async () => {
    const { port } = await start();
    expect((await call(port, '/healthz')).status).toBe(200);
    expect((await call(port, '/metrics', 'POST')).status).toBe(405);
    expect((await call(port, '/slack/events')).status).toBe(404);
  });
});
