/**
 * Answers lost after the service charged: through a proxy that cuts the connection or answers 504 once the
 * sandbox has processed a paid request, nothing is sent twice, the person is told and offered a Retry that states
 * the cost, and the ledger ends equal, to the credit, to what the sandbox charged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { createManualClock } from '../../../src/core/clock.js';
import { SETTLE_GRACE_MS } from '../../../src/core/store/ledger-settle.js';
import { sql } from '../../../src/core/store/sql.js';
import { type CuttingProxy, type Fate, startCuttingProxy } from '../../fakes/cutting-proxy.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';

const PAID = /^\/api\/(v1\/songs|v1\/viral-content|v2\/creators\/get)\b/;
const CREDITS = 100_000;

interface LedgerTotals {
  credits: number;
  unconfirmed: number;
  settled: number;
  pending: number;
}

const totals = async (h: Harness): Promise<LedgerTotals | undefined> =>
  h.app.store.db.one<LedgerTotals>(
    sql`SELECT COALESCE(SUM(credits), 0) AS credits,
         COALESCE(SUM(state = 'unconfirmed'), 0) AS unconfirmed,
         COALESCE(SUM(state = 'settled'), 0) AS settled,
         COALESCE(SUM(state = 'pending'), 0) AS pending FROM credit_ledger`,
  );

const ledgerRows = async (h: Harness) =>
  (await h.app.store.db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM credit_ledger`))?.n;

const paidRequests = (h: Harness) => h.requests().filter((r) => PAID.test(r.path)).length;

describe('paid calls whose answer is lost', () => {
  let h: Harness | undefined;
  let proxy: CuttingProxy | undefined;
  afterEach(async () => {
    await h?.stop();
    await proxy?.stop();
    h = undefined;
    proxy = undefined;
  });

  /** Scout's clock, moved past the time a lost call may still be charged before the balances settle it. */
  let clock = createManualClock(Date.now());
  const afterGrace = () => clock.advance(SETTLE_GRACE_MS + 1_000);

  /** A harness behind a proxy giving the nth paid request (from 1) the fate `fateOf(n)`. */
  const start = async (fateOf: (n: number) => Fate) => {
    let paid = 0;
    clock = createManualClock(Date.now());
    h = await startHarness({
      clock,
      credits: CREDITS,
      settings: { repeatWindowMs: 0, confirmAbove: 1_000 },
      // Quick retries, so a retry of a paid call would show at once.
      retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
      through: async (url) => {
        proxy = await startCuttingProxy(url, (_method, path) => (PAID.test(path) ? fateOf(++paid) : 'pass'));
        return proxy.url;
      },
    });
    return h;
  };

  it('never sends them again, and the ledger matches what the service charged, to the credit', async () => {
    const harness = await start((n) => (n % 3 === 0 ? 'cut' : n % 5 === 0 ? 'gateway-timeout' : 'pass'));
    const commands = [
      'songs countries',
      'viral pageSize:4 views:>1m',
      'creators niche:yoga followers:10k-100k',
      'viral pageSize:7 format:tutorial',
      'songs countries',
    ];
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) answers.push(await harness.type(commands[i % commands.length] as string));
    // Once no lost call can still be charged, a free answer reports the balance that settles them.
    afterGrace();
    await harness.type('lists');

    const lostAnswers = answers.filter((a) => a.includes('its answer was lost'));
    expect(proxy?.lost).toBeGreaterThanOrEqual(8);
    expect(lostAnswers).toHaveLength(proxy?.lost ?? -1);
    for (const answer of lostAnswers) expect(answer).toMatch(/Retry \(up to \d+ credits\)/);
    // One request per paid call written to the ledger: none was sent a second time.
    expect(paidRequests(harness)).toBe(await ledgerRows(harness));

    const charged = CREDITS - harness.sandbox.credits(TEST_KEY);
    const ledger = (await totals(harness)) as LedgerTotals;
    expect(ledger.credits).toBe(charged);
    expect(ledger.unconfirmed).toBe(0);
    expect(ledger.pending).toBe(0);
    expect(ledger.settled).toBe(proxy?.lost);
  });

  it('counts a lost call at its estimate, unconfirmed, shown in /scout credits; Retry runs it once more', async () => {
    const harness = await start((n) => (n === 1 ? 'cut' : 'pass'));
    const lost = await harness.type('songs countries');
    expect(lost).toContain('Retry (up to 10 credits)');
    expect(await totals(harness)).toMatchObject({ credits: 10, unconfirmed: 1, settled: 0 });
    expect(await harness.spentToday()).toBe(10);

    const retried = await harness.type('retry');
    expect(retried).toContain('Countries with song charts');
    expect(paidRequests(harness)).toBe(2);
    expect(CREDITS - harness.sandbox.credits(TEST_KEY)).toBe(20);
    expect(await totals(harness)).toMatchObject({ credits: 20, unconfirmed: 1 });
    // The Retry button works once.
    const token = (
      await harness.app.store.db.one<{ token: string }>(
        sql`SELECT token FROM action_tokens WHERE kind = 'scout.confirm'`,
      )
    )?.token as string;
    const again = await harness.app.dispatcher.action({ actor: LOCAL_ACTOR, channelId: 'terminal', token });
    expect(JSON.stringify(again)).toContain('Already');
    expect(paidRequests(harness)).toBe(2);
    // No balance was known before the lost call, so nothing can settle it: it stays at its estimate, and says so.
    expect(await harness.type('credits')).toMatch(/Unconfirmed this month: 10 credits \(1 call\)/);
  });

  it('says one credit in the singular when a one-credit call is lost', async () => {
    const harness = await start((n) => (n === 1 ? 'cut' : 'pass'));
    const { data } = await harness.app.service.creators.search({ mainCategory: 'Food', perPage: 1 });
    const lost = await harness.type(`creators show ${data.items[0]}`);
    expect(lost).toContain('The service may have charged for this (up to 1 credit), but its answer was lost');
    expect(lost).toContain('Retry (up to 1 credit)');
    expect(await harness.type('credits')).toContain('Unconfirmed this month: 1 credit (1 call).');
  });

  it('settles a lost call from the balances reported before and after it, once it can no longer be charged', async () => {
    const harness = await start((n) => (n === 1 ? 'cut' : 'pass'));
    // A free answer reports the balance before the call...
    await harness.type('lists');
    expect(await harness.type('songs countries')).toContain('its answer was lost');
    expect(await totals(harness)).toMatchObject({ credits: 10, unconfirmed: 1 });
    // ...an answer soon after settles nothing: a gateway's 504 or a time-out does not stop the service's own work...
    await harness.type('lists');
    expect(await totals(harness)).toMatchObject({ credits: 10, unconfirmed: 1 });
    expect(await harness.type('songs weeks country:us')).toContain('Chart weeks');
    expect(await totals(harness)).toMatchObject({ credits: 20, unconfirmed: 1 });
    // ...and once it is past, the next balance settles it, with the calls in between at their known cost.
    afterGrace();
    expect(await harness.type('credits')).not.toContain('Unconfirmed');
    expect(await totals(harness)).toMatchObject({ credits: 20, unconfirmed: 0, settled: 1 });
    expect(CREDITS - harness.sandbox.credits(TEST_KEY)).toBe(20);
  });

  it('settles a call the service never processed at nothing', async () => {
    // A 5xx may come after the work was done, so it counts as possibly charged; the balances show it was not.
    const harness = await start(() => 'pass');
    await harness.type('lists');
    harness.sandbox.injectFaults(TEST_KEY, { kind: 'server-error', status: 500 }, 1);
    expect(await harness.type('songs countries')).toContain('Retry (up to 10 credits)');
    afterGrace();
    await harness.type('lists');
    expect(await totals(harness)).toMatchObject({ credits: 0, unconfirmed: 0, settled: 1 });
    expect(CREDITS - harness.sandbox.credits(TEST_KEY)).toBe(0);
  });

  it('settles a call at its estimate when a top-up leaves nothing to explain, and the next lost call exactly', async () => {
    const harness = await start((n) => (n <= 2 ? 'cut' : 'pass'));
    await harness.type('lists');
    await harness.type('songs countries');
    // Someone tops the key up by 15 credits: the balance rose, which no charge explains.
    harness.sandbox.setCredits(TEST_KEY, harness.sandbox.credits(TEST_KEY) + 15);
    afterGrace();
    await harness.type('lists');
    expect(await totals(harness)).toMatchObject({ credits: 10, unconfirmed: 0, settled: 1 });
    // It holds nothing back: a later lost call settles from the balances after it, to the credit.
    await harness.type('songs countries');
    afterGrace();
    await harness.type('lists');
    expect(await totals(harness)).toMatchObject({ credits: 20, unconfirmed: 0, settled: 2 });
    expect(CREDITS + 15 - harness.sandbox.credits(TEST_KEY)).toBe(20);
  });

  it('forgets a paid call the service refused: nothing is charged, nothing is unconfirmed', async () => {
    const harness = await start(() => 'pass');
    harness.sandbox.injectFaults(
      TEST_KEY,
      { kind: 'error-shape', status: 402, body: { detail: 'Out of credits' } },
      1,
    );
    expect(await harness.type('songs countries')).toContain('needs payment');
    expect(await totals(harness)).toMatchObject({ credits: 0, unconfirmed: 0, pending: 0 });
    expect(CREDITS - harness.sandbox.credits(TEST_KEY)).toBe(0);
  });
});
