/**
 * Every paid operation of the contract is metered where it is called. The paid operations are written here from the
 * contract (service-api.md, "Credits") and must be exactly those the pricing table charges for, so a paid operation
 * left free, or a new one without a price, fails here. Each one, called through an invocation's metered client
 * against the sandbox, leaves a ledger row for the person; with a daily cap of 0 it is refused before anything
 * reaches the service. The key's own client, which no meter keeps the books of, has none of them: not by its type, and
 * not when called all the same (a cast), which is refused before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CreditCapError } from '../../../src/core/credit-errors.js';
import { budgetScopeFor, createMeter } from '../../../src/core/credits.js';
import {
  type CallOptions,
  type FreeOperation,
  OPERATIONS,
  PRICING,
  type Price,
  type ServiceApi,
  type ServiceClient,
  ServiceError,
  type ServiceResult,
} from '../../../src/core/service/index.js';
import { sql } from '../../../src/core/store/sql.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

/** The contract's paid operations and their prices. */
const CONTRACT_PAID = {
  // GET /api/v1/creators: 1 credit per creator
  'creators.list': { kind: 'per-item' },
  // POST /api/v2/creators/get: 1 credit per creator
  'creators.get': { kind: 'per-item' },
  // POST /api/v1/viral-content: 1 credit per content item
  'viral.search': { kind: 'per-item' },
  // GET /api/v1/songs: 10 credits per request
  'songs.query': { kind: 'per-request', credits: 10 },
  // GET /api/v1/videos: 1 credit per video
  'videos.search': { kind: 'per-item' },
} as const satisfies Record<string, Partial<Price>>;

type PaidOperation = keyof typeof CONTRACT_PAID;

/** One call of each paid operation, with an input the sandbox serves; `ids` are creators it knows. */
const CALLS: Record<PaidOperation, (api: ServiceApi, ids: string[]) => Promise<ServiceResult<unknown>>> = {
  'creators.list': (api) => api.creators.list({ perPage: 2 }),
  'creators.get': (api, ids) => api.creators.get({ userIds: ids }),
  'viral.search': (api) => api.viral.search({ pageSize: 2 }),
  'songs.query': (api) => api.songs.query({ action: 'countries' }),
  'videos.search': (api) => api.videos.search({ perPage: 2 }),
};

const PAID = Object.keys(CALLS) as PaidOperation[];

describe('the paid operations', () => {
  it('are exactly the contract’s, at its prices', () => {
    const priced = OPERATIONS.filter((operation) => PRICING[operation].kind !== 'free');
    expect([...priced].sort()).toEqual(Object.keys(CONTRACT_PAID).sort());
    for (const operation of PAID) expect(PRICING[operation]).toMatchObject(CONTRACT_PAID[operation]);
  });
});

describe('each paid operation, called through a metered client', () => {
  let h: Harness;
  let ids: string[];
  let invocations = 0;
  beforeAll(async () => {
    h = await startHarness();
    // Free, and unmetered: the key's own client.
    ids = (await h.app.service.creators.search({ perPage: 2 })).data.items;
  });
  afterAll(async () => h.stop());

  /** An invocation's client for `userId`, under a daily cap, with its ledger key prefix. */
  const invocation = (userId: string, cap: number | null, defaults?: CallOptions) => {
    invocations += 1;
    const keyPrefix = `metered-${invocations}`;
    const actor = { platform: 'slack', workspaceId: 'T1', userId } as const;
    const { store, clock } = h.app;
    const meter = createMeter({
      ...budgetScopeFor(actor, { store, clock, settings: { defaultDailyCap: cap } }),
      keyPrefix,
      command: 'test',
      accountId: 'test-account',
      owner: h.app.processId,
    });
    return { api: h.app.service.metered(meter, defaults), keyPrefix };
  };

  const rows = (keyPrefix: string) =>
    h.app.store.db.all<{ operation: string; user_id: string; credits: number; state: string }>(
      sql`SELECT operation, user_id, credits, state FROM credit_ledger
          WHERE idempotency_key LIKE ${`${keyPrefix}#%`} ORDER BY id`,
    );

  it.each(PAID)('%s leaves a ledger row for the person at what it cost', async (operation) => {
    const { api, keyPrefix } = invocation(`U-${operation}`, null);
    const sent = h.requests().length;
    const result = await CALLS[operation](api, ids);
    expect(h.requests().length).toBe(sent + 1);
    expect(result.meta.cost).toBeGreaterThan(0);
    expect(await rows(keyPrefix)).toEqual([
      { operation, user_id: `U-${operation}`, credits: result.meta.cost, state: 'confirmed' },
    ]);
  });

  it.each(PAID)('%s is refused by a cap of 0 before anything is sent', async (operation) => {
    const { api, keyPrefix } = invocation(`U-capped-${operation}`, 0);
    const sent = h.requests().length;
    await expect(CALLS[operation](api, ids)).rejects.toBeInstanceOf(CreditCapError);
    // Give a shared profile request time to have gone out, had the call joined one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.requests().length).toBe(sent);
    expect(await rows(keyPrefix)).toEqual([]);
  });

  it.each(PAID)(
    '%s takes the invocation’s call options: its cancelled wait sends nothing',
    async (operation) => {
      const { api, keyPrefix } = invocation(`U-cancelled-${operation}`, null, {
        waitSignal: AbortSignal.abort(),
      });
      const sent = h.requests().length;
      await expect(CALLS[operation](api, ids)).rejects.toMatchObject({ code: 'ABORTED' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(h.requests().length).toBe(sent);
      // Refused before it was sent: forgotten by the ledger.
      expect(await rows(keyPrefix)).toEqual([]);
    },
  );
});

/** The operations (`group.method`) that a client type `C` lets one call. */
type CallableOn<C> = {
  [G in keyof C & string]: { [M in keyof C[G] & string]: `${G}.${M}` }[keyof C[G] & string];
}[keyof C & string];

describe('the key’s own client, unmetered', () => {
  it('has every free operation and no paid one, by its type', () => {
    expectTypeOf<Extract<CallableOn<ServiceClient>, PaidOperation>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<CallableOn<ServiceClient>, FreeOperation>>().toEqualTypeOf<FreeOperation>();
  });

  let h: Harness;
  let ids: string[];
  beforeAll(async () => {
    h = await startHarness();
    ids = (await h.app.service.creators.search({ perPage: 2 })).data.items;
  });
  afterAll(async () => h.stop());

  const ledgerRows = async () => (await h.app.store.db.all(sql`SELECT id FROM credit_ledger`)).length;

  it.each(PAID)('refuses %s called all the same, before anything is sent', async (operation) => {
    const unmetered = h.app.service as unknown as ServiceApi;
    const [sent, rows] = [h.requests().length, await ledgerRows()];
    const refusal = await CALLS[operation](unmetered, ids).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect(refusal).toMatchObject({ code: 'UNMETERED_PAID_CALL', operation, sent: false });
    // Give a shared profile request time to have gone out, had the call joined one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.requests().length).toBe(sent);
    expect(await ledgerRows()).toBe(rows);
  });

  it('still makes free calls, reads and writes', async () => {
    const sent = h.requests().length;
    const { service } = h.app;
    expect((await service.creators.search({ perPage: 1 })).meta.cost).toBe(0);
    const list = (await service.crm.createList({ name: 'Unmetered' })).data;
    expect((await service.crm.listLists()).data.lists.map((l) => l.id)).toContain(list.id);
    expect((await service.agent.projects()).meta.cost).toBe(0);
    expect(h.requests().length).toBe(sent + 4);
  });
});
