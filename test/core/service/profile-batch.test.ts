/**
 * Profile calls made at the same moment share one creators-get, against the sandbox over real HTTP: each caller
 * gets only its own ids' profiles, at the credits its part cost, and what it asked first is what it pays for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatorGetResult } from '../../../src/core/service/creators.js';
import { mayHaveCharged, ServiceError } from '../../../src/core/service/errors.js';
import { PROFILE_BATCH_MAX_IDS } from '../../../src/core/service/index.js';
import type { ServiceResult } from '../../../src/core/service/types.js';
import type { UnbookedClient } from '../../helpers/unbooked.js';
import { type Harness, KEY, startHarness } from './helpers/setup.js';

const CREDITS = 1000;
let h: Harness;
/** A client whose batches collect callers long enough for a test to line them up. */
let client: UnbookedClient;
let ids: string[];

beforeEach(async () => {
  h = await startHarness({ sandbox: { keys: [{ key: KEY, teamId: 't1', credits: CREDITS }] } });
  client = h.clientWith({ profileBatch: { windowMs: 150 } });
  const first = await h.client.creators.search({ perPage: 100 });
  const second = await h.client.creators.search({ page: 2, perPage: 100 });
  ids = [...new Set([...first.data.items, ...second.data.items])];
  expect(ids.length).toBeGreaterThanOrEqual(150);
});
afterEach(async () => {
  await client.stop();
  await h.stop();
});

/** The creators-get requests the sandbox received, as the ids each carried. */
const sent = () =>
  h.sandbox
    .requests(KEY)
    .filter((r) => r.path === '/api/v2/creators/get')
    .map((r) => (r.body as { userIds: string[] }).userIds);
const charged = () => CREDITS - h.sandbox.credits(KEY);
const idsOf = (result: ServiceResult<CreatorGetResult>) => result.data.creators.map((c) => c.user_id);

describe('profile calls made at the same moment', () => {
  it('share one request; each caller gets its own profiles and pays for the ids it asked first', async () => {
    const a = ids.slice(0, 5);
    const b = ids.slice(5, 10);
    // Asks two of b's ids, two of its own, and one the service does not know.
    const c = [...ids.slice(8, 12), 'tiktok_does_not_exist'];
    const [ra, rb, rc] = await Promise.all([
      client.creators.get({ userIds: a }),
      client.creators.get({ userIds: b }),
      client.creators.get({ userIds: c }),
    ]);
    expect(sent()).toEqual([[...a, ...b, ...ids.slice(10, 12), 'tiktok_does_not_exist']]);
    expect(idsOf(ra as ServiceResult<CreatorGetResult>)).toEqual(a);
    expect(idsOf(rb as ServiceResult<CreatorGetResult>)).toEqual(b);
    expect(idsOf(rc as ServiceResult<CreatorGetResult>)).toEqual(ids.slice(8, 12));
    expect(rc?.data.requestedIds).toEqual(c);
    expect([ra?.meta.cost, rb?.meta.cost, rc?.meta.cost]).toEqual([5, 5, 2]);
    expect(charged()).toBe(12);
    // Each knows its part of the one request: what it could have cost it had the answer been lost.
    const parts = [ra, rb, rc].map((r) => r?.share);
    expect(parts.map((p) => p?.estimate)).toEqual([5, 5, 3]);
    expect(new Set(parts.map((p) => p?.request)).size).toBe(1);
    expect(ra?.meta.creditsRemaining).toBe(CREDITS - 12);
    expect([ra, rb, rc].map((r) => r?.data.isTrial)).toEqual([false, false, false]);

    // A call alone is sent as it is, its request its own.
    const lone = await client.creators.get({ userIds: ids.slice(20, 23) });
    expect(sent().at(-1)).toEqual(ids.slice(20, 23));
    expect(lone.meta.cost).toBe(3);
    expect(lone.share).toBeUndefined();
  });

  it('tells every caller of a shared request that the account is a trial, when the answer says so', async () => {
    h.sandbox.addKey({ key: KEY, teamId: 't1', credits: CREDITS, trial: true });
    const results = await Promise.all([
      client.creators.get({ userIds: ids.slice(0, 2) }),
      client.creators.get({ userIds: ids.slice(2, 4) }),
    ]);
    expect(sent()).toEqual([ids.slice(0, 4)]);
    expect(results.map((r) => r.data.isTrial)).toEqual([true, true]);
  });

  it(`gathers at most ${PROFILE_BATCH_MAX_IDS} ids in a request; a bigger call goes alone`, async () => {
    const callers = Array.from({ length: 25 }, (_, i) => ids.slice(i * 5, i * 5 + 5));
    const results = await Promise.all(callers.map((userIds) => client.creators.get({ userIds })));
    expect(sent().map((request) => request.length)).toEqual([100, 25]);
    expect(sent().flat()).toEqual(callers.flat());
    results.forEach((result, i) => {
      expect(idsOf(result)).toEqual(callers[i]);
      expect(result.meta.cost).toBe(5);
    });
    expect(charged()).toBe(125);

    // A call of more ids than a batch gathers goes alone, at once; callers beside it still share theirs.
    const big = ids.slice(0, 120);
    const [small, alone, other] = await Promise.all([
      client.creators.get({ userIds: ids.slice(130, 132) }),
      client.creators.get({ userIds: big }),
      client.creators.get({ userIds: ids.slice(140, 142) }),
    ]);
    expect([small.meta.cost, alone.meta.cost, other.meta.cost]).toEqual([2, 120, 2]);
    expect(sent().slice(2)).toEqual([big, [...ids.slice(130, 132), ...ids.slice(140, 142)]]);
  });

  it('drops a caller that cancels before the request is sent, with its ids', async () => {
    const cancel = new AbortController();
    const kept = client.creators.get({ userIds: ids.slice(0, 3) });
    const left = client.creators.get({ userIds: ids.slice(3, 6) }, { waitSignal: cancel.signal });
    setTimeout(() => cancel.abort(), 20);
    const error = await left.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'ABORTED', sent: false });
    expect(mayHaveCharged(error)).toBe(false);
    expect((await kept).meta.cost).toBe(3);
    expect(sent()).toEqual([ids.slice(0, 3)]);
    expect(charged()).toBe(3);
  });

  it('sends nothing when every caller left before it was sent, nor for one past its deadline', async () => {
    const cancel = new AbortController();
    const calls = [
      client.creators.get({ userIds: ids.slice(0, 3) }, { signal: cancel.signal }),
      client.creators.get({ userIds: ids.slice(3, 6) }, { deadline: new Date(Date.now() + 20) }),
    ].map((call) => call.catch((e: unknown) => e));
    setTimeout(() => cancel.abort(), 40);
    const [cancelled, late] = await Promise.all(calls);
    expect(cancelled).toMatchObject({ code: 'ABORTED', sent: false });
    expect(late).toMatchObject({ code: 'TOO_LATE', sent: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent()).toEqual([]);
  });

  it('once sent, cancels the request only when every caller cancelled', async () => {
    h.sandbox.injectFaults(KEY, { kind: 'timeout' }, 1);
    const first = new AbortController();
    const second = new AbortController();
    let started = 0;
    const onStart = () => {
      started += 1;
      if (started === 2) setTimeout(() => first.abort(), 20);
    };
    const calls = [
      client.creators.get({ userIds: ids.slice(0, 2) }, { signal: first.signal, onStart }),
      client.creators.get({ userIds: ids.slice(2, 4) }, { signal: second.signal, onStart }),
    ].map((call) => call.catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The first cancelled, but the second still waits for the answer of the request they share.
    expect(started).toBe(2);
    expect(sent()).toHaveLength(1);
    second.abort();
    const errors = await Promise.all(calls);
    for (const error of errors) {
      expect(error).toMatchObject({ code: 'ABORTED', sent: true });
      expect(mayHaveCharged(error)).toBe(true);
    }
  });

  it('batches people and background jobs apart', async () => {
    await Promise.all([
      client.creators.get({ userIds: ids.slice(0, 2) }),
      client.creators.get({ userIds: ids.slice(2, 4) }, { priority: 'background' }),
      client.creators.get({ userIds: ids.slice(4, 6) }),
    ]);
    expect(sent()).toHaveLength(2);
    expect(sent()).toContainEqual([...ids.slice(0, 2), ...ids.slice(4, 6)]);
    expect(sent()).toContainEqual(ids.slice(2, 4));
  });

  it('gives every caller the request’s failure, with the same code and sent, and its own part', async () => {
    h.sandbox.injectFaults(KEY, { kind: 'server-error', status: 500 }, 1);
    const errors = await Promise.all(
      [ids.slice(0, 2), ids.slice(1, 4)].map((userIds) =>
        client.creators.get({ userIds }).catch((e: unknown) => e),
      ),
    );
    expect(sent()).toHaveLength(1);
    const [first, second] = errors as ServiceError[];
    expect(first?.code).toBe(second?.code);
    expect([first?.sent, second?.sent]).toEqual([true, true]);
    expect(errors.every(mayHaveCharged)).toBe(true);
    expect([first?.share?.estimate, second?.share?.estimate]).toEqual([2, 2]);
    expect(first?.share?.request).toBe(second?.share?.request);

    h.sandbox.injectFaults(KEY, { kind: 'error-shape', status: 402, body: { detail: 'Out of credits' } }, 1);
    const refused = await Promise.all(
      [ids.slice(0, 2), ids.slice(2, 4)].map((userIds) =>
        client.creators.get({ userIds }).catch((e: unknown) => e),
      ),
    );
    expect(refused.map((e) => (e as ServiceError).code)).toEqual(['PAYMENT_REQUIRED', 'PAYMENT_REQUIRED']);
    expect(refused.some(mayHaveCharged)).toBe(false);
    expect(sent()).toHaveLength(2);
  });

  it('refuses bad input before it joins anything: nothing is sent for it', async () => {
    const [good, bad, other] = await Promise.all([
      client.creators.get({ userIds: ids.slice(0, 2) }),
      client.creators.get({ userIds: [] }).catch((e: unknown) => e),
      client.creators.get({ userIds: ids.slice(2, 4) }),
    ]);
    expect(bad).toMatchObject({ code: 'INVALID_INPUT', sent: false });
    expect([good.meta.cost, other.meta.cost]).toEqual([2, 2]);
    expect(sent()).toEqual([ids.slice(0, 4)]);
  });
});
