/**
 * Several people's result pages shown at the same moment buy their profiles in one creators-get: the whole app over
 * the sandbox, each person through the dispatcher. Each person's ledger holds what their own profiles cost, the sum
 * is what the sandbox charged, a cap refusal touches only its person, and a lost answer of the shared request is
 * settled, once it can no longer be charged, to what the sandbox charged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import type { Actor } from '../../../src/core/actor.js';
import { createManualClock } from '../../../src/core/clock.js';
import { SETTLE_GRACE_MS } from '../../../src/core/store/ledger-settle.js';
import { sql } from '../../../src/core/store/sql.js';
import { renderText } from '../../../src/core/ui/index.js';
import { type CuttingProxy, startCuttingProxy } from '../../fakes/cutting-proxy.js';
import { type Harness, type HarnessOptions, startHarness, TEST_KEY } from '../../helpers/harness.js';

const CREDITS = 100_000;
const GET = '/api/v2/creators/get';
/** Long enough a collection window that every search of a test has answered before the shared request leaves. */
const WINDOW_MS = 1_000;

const person = (i: number): Actor => ({
  ...LOCAL_ACTOR,
  userId: `U${i}`,
  userName: `person ${i}`,
  isAdmin: false,
});
/** A first page of creators of its own for each person: follower ranges that do not overlap. */
const searchOf = (i: number) => `creators followers:${10 + i * 10}k-${19 + i * 10}k`;
/** The handles of the cards in a printed reply. */
const handles = (out: string) => [...out.matchAll(/^(?:\d+\. )?@(\S+) · /gm)].map((m) => m[1]);

interface Row {
  user_id: string;
  credits: number;
  state: string;
  request_key: string | null;
}

describe('profiles of several people bought in one request', () => {
  let h: Harness | undefined;
  let proxy: CuttingProxy | undefined;
  afterEach(async () => {
    await h?.stop();
    await proxy?.stop();
    h = undefined;
    proxy = undefined;
  });

  const start = async (options: HarnessOptions = {}) => {
    h = await startHarness({
      credits: CREDITS,
      settings: { repeatWindowMs: 0, confirmAbove: 1_000 },
      profileBatch: { windowMs: WINDOW_MS },
      ...options,
    });
    return h;
  };
  /** Runs a person's search (their own, or `text`); resolves with the printed answer. */
  const search = async (harness: Harness, i: number, text = searchOf(i)) =>
    renderText(await harness.app.dispatcher.text({ actor: person(i), channelId: 'c', text })).text;
  /** Runs each person's search at the same moment. */
  const searchAll = (harness: Harness, people: readonly number[]) =>
    Promise.all(people.map((i) => search(harness, i)));
  const gets = (harness: Harness) => harness.requests().filter((r) => r.path === GET);
  const rows = (harness: Harness) =>
    harness.app.store.db.all<Row>(
      sql`SELECT user_id, credits, state, request_key FROM credit_ledger WHERE operation = 'creators.get' ORDER BY id`,
    );
  const charged = (harness: Harness) => CREDITS - harness.sandbox.credits(TEST_KEY);

  it('sends one creators-get for everyone; each person pays for their own profiles', async () => {
    const harness = await start();
    const people = [0, 1, 2, 3, 4, 5, 6, 7];
    const answers = await searchAll(harness, people);
    for (const answer of answers) expect(handles(answer)).toHaveLength(5);
    // One search each, and one request for all the profiles.
    expect(gets(harness)).toHaveLength(1);
    expect((gets(harness)[0]?.body as { userIds?: string[] } | undefined)?.userIds).toHaveLength(
      5 * people.length,
    );
    const ledger = await rows(harness);
    expect(ledger.map((r) => r.user_id).sort()).toEqual(people.map((i) => `U${i}`).sort());
    for (const row of ledger) expect(row).toMatchObject({ credits: 5, state: 'confirmed' });
    expect(new Set(ledger.map((r) => r.request_key)).size).toBe(1);
    expect(ledger.reduce((sum, r) => sum + r.credits, 0)).toBe(charged(harness));
    expect(charged(harness)).toBe(5 * people.length);
  });

  it('lets one person’s cap refuse them alone; the others still share one request', async () => {
    const harness = await start();
    await harness.app.store.settings.setDailyCap(person(1), 2, LOCAL_ACTOR.userId, harness.app.clock.now());
    const answers = await searchAll(harness, [0, 1, 2, 3]);
    expect(answers[1]).toMatch(/cap/i);
    expect(handles(answers[1] as string)).toHaveLength(0);
    for (const i of [0, 2, 3]) expect(handles(answers[i] as string)).toHaveLength(5);
    expect(gets(harness)).toHaveLength(1);
    const ledger = await rows(harness);
    expect(ledger.map((r) => r.user_id).sort()).toEqual(['U0', 'U2', 'U3']);
    expect(ledger.reduce((sum, r) => sum + r.credits, 0)).toBe(charged(harness));
    expect(charged(harness)).toBe(15);
  });

  it('settles a lost answer of the shared request to what the sandbox charged, for each person', async () => {
    const clock = createManualClock(Date.now());
    const harness = await start({
      clock,
      through: async (url) => {
        proxy = await startCuttingProxy(url, (_method, path) => (path === GET ? 'cut' : 'pass'));
        return proxy.url;
      },
    });
    // A fourth person runs the third one's search: the same five profiles, bought once, by whoever asked first.
    const [first, second, third, same] = await Promise.all([
      search(harness, 0),
      search(harness, 1),
      search(harness, 2),
      search(harness, 3, searchOf(2)),
    ]);
    for (const answer of [first, second])
      expect(answer).toMatch(/its answer was lost[\s\S]*Retry \(up to 5 credits\)/);
    // Of the two asking for the same profiles, only the first to ask may have been charged: only they are told so.
    const lost = [third, same].map((answer) => answer?.includes('its answer was lost'));
    expect(lost.filter(Boolean)).toHaveLength(1);
    const payer = lost[0] ? 'U2' : 'U3';
    // Sent once, never again, and counted for each person at their part, unconfirmed.
    expect(gets(harness)).toHaveLength(1);
    expect(charged(harness)).toBe(15);
    let ledger = await rows(harness);
    expect(ledger.map((r) => [r.user_id, r.credits, r.state]).sort()).toEqual([
      ['U0', 5, 'unconfirmed'],
      ['U1', 5, 'unconfirmed'],
      [payer, 5, 'unconfirmed'],
    ]);
    expect(new Set(ledger.map((r) => r.request_key)).size).toBe(1);
    expect(ledger[0]?.request_key).not.toBeNull();

    // Once it can no longer be charged, the next balance the service reports settles it.
    clock.advance(SETTLE_GRACE_MS + 1_000);
    await harness.app.dispatcher.text({ actor: person(0), channelId: 'c', text: 'lists' });
    ledger = await rows(harness);
    expect(ledger.map((r) => [r.user_id, r.credits, r.state]).sort()).toEqual([
      ['U0', 5, 'settled'],
      ['U1', 5, 'settled'],
      [payer, 5, 'settled'],
    ]);
    expect(ledger.reduce((sum, r) => sum + r.credits, 0)).toBe(charged(harness));
  });
});
