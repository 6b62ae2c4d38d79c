/**
 * The guard on its own, over the real app graph (SQLite store, reservations, tenants with the sandbox's key): which
 * work is claimed, what a duplicate gets, when a cost is confirmed first, and that a claim never outlives work that
 * did not finish.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { createManualClock } from '../../../src/core/clock.js';
import { createGuard, type GuardedWork, invocationKey } from '../../../src/core/command/guard.js';
import { type DispatchEnv, type Scoped, scope } from '../../../src/core/command/invocation.js';
import { CreditCapError } from '../../../src/core/credit-errors.js';
import { createLogger } from '../../../src/core/logger.js';
import { sql } from '../../../src/core/store/sql.js';
import { notice, type Reply, reply, text } from '../../../src/core/ui/index.js';
import { type Harness, type HarnessOptions, startHarness } from '../../helpers/harness.js';

let h: Harness;
let started: Harness | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

const start = async (options: HarnessOptions = {}) => {
  h = await startHarness({ families: [], ...options });
  started = h;
  const { app } = h;
  const env: DispatchEnv = {
    registry: app.registry,
    store: app.store,
    tenants: app.tenants,
    clock: app.clock,
    logger: createLogger({ level: 'silent' }),
    settings: app.settings,
    reservations: app.reservations,
    owner: app.processId,
  };
  const guard = createGuard(env, new Map());
  /** The local person's invocation in channel `channelId`, in their tenant. */
  const invocation = async (channelId = 'c1'): Promise<Scoped> => {
    const scoped = await scope(env, { actor: LOCAL_ACTOR, channelId }, { family: 'test', outcome: 'ok' }, []);
    if (scoped === null) throw new Error('the local person is outside');
    return scoped;
  };
  return { env, guard, invocation };
};

/** Work that counts its runs and answers with the count. */
const counting = (overrides: Partial<GuardedWork> = {}) => {
  const runs = { count: 0 };
  const work: GuardedWork = {
    what: 'test work',
    input: { n: 1 },
    commandText: 'test work',
    command: 'test work',
    confirmed: false,
    changes: null,
    capPerCall: false,
    working: 'Working…',
    estimate: () => 0,
    confirmation: { type: 'command', family: 'test', command: 'work', input: { n: 1 }, text: 'test work' },
    work: async () => {
      runs.count += 1;
      return reply([text(`ran ${runs.count}`)]);
    },
    ...overrides,
  };
  return { runs, work };
};

const shown = (answer: Reply) => JSON.stringify(answer.nodes);
const claims = async () =>
  (await h.app.store.db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM invocations`))?.n ?? -1;

describe('the guard', () => {
  it('runs free reads every time and claims nothing', async () => {
    const { guard, invocation } = await start();
    const { runs, work } = counting();
    await guard(await invocation(), work);
    expect(shown(await guard(await invocation(), work))).toContain('ran 2');
    expect(runs.count).toBe(2);
    expect(await claims()).toBe(0);
  });

  it('runs a change once within the window, telling a repeat it is done with what the first run said', async () => {
    const clock = createManualClock(new Date());
    const { guard, invocation } = await start({ clock, settings: { repeatWindowMs: 10_000 } });
    const { runs, work } = counting({ changes: 'thing' });
    const first = await guard(await invocation(), work);
    expect(first).toEqual(reply([text('ran 1')]));
    clock.advance(3_000);
    const repeat = await invocation();
    // Not a copy of the first answer, which would now be false: only its author is told, and nothing is replaced.
    expect(await guard(repeat, { ...work, work: async () => reply([text('ran again')]) })).toEqual(
      reply([
        notice('info', 'Already done (nothing changed).'),
        text('First run, 3 seconds ago: “', 'ran 1', '”'),
      ]),
    );
    expect(repeat.tally.outcome).toBe('duplicate');
    expect(runs.count).toBe(1);
    // Other input, another channel: other work.
    expect(shown(await guard(await invocation(), { ...work, input: { n: 2 } }))).toContain('ran 2');
    expect(shown(await guard(await invocation('c2'), work))).toContain('ran 3');
    clock.advance(10_001);
    expect(shown(await guard(await invocation(), work))).toContain('ran 4');
  });

  it('tells a repeat of paid work that it spent nothing, and keeps only the first answer’s opening line', async () => {
    const clock = createManualClock(new Date());
    const { guard, invocation } = await start({ clock });
    let runs = 0;
    const { work } = counting({
      estimate: () => 1,
      work: async () => {
        runs += 1;
        return reply([notice('success', 'Bought 1 profile.'), text('a long answer '.repeat(20))], {
          visibility: 'channel',
          replace: true,
        });
      },
    });
    await guard(await invocation(), work);
    clock.advance(1_200);
    const repeat = await guard(await invocation(), work);
    expect(repeat.visibility).toBe('author');
    expect(repeat.replace).toBeUndefined();
    expect(shown(repeat)).toContain('Already done (nothing changed). This repeat spent no credits.');
    expect(shown(repeat)).toContain('First run, 1 second ago: “Bought 1 profile.”');
    expect(shown(repeat)).not.toContain('a long answer');
    expect(runs).toBe(1);
    const kept = await h.app.store.db.one<{ reply: string }>(sql`SELECT reply FROM invocations`);
    expect(JSON.parse(kept?.reply ?? '')).toEqual(reply([text('Bought 1 profile.')]));
  });

  it('claims paid work too, and tells a duplicate of work still running that its answer is coming', async () => {
    const { guard, invocation } = await start();
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { runs, work } = counting({ estimate: () => 1 });
    const slow = {
      ...work,
      work: async (ctx: Parameters<GuardedWork['work']>[0]) => gate.then(() => work.work(ctx)),
    };
    const first = guard(await invocation(), slow);
    await expect.poll(claims).toBe(1);
    const repeat = await invocation();
    expect(shown(await guard(repeat, slow))).toContain(
      'Already working on that: the answer will appear here.',
    );
    expect(repeat.tally.outcome).toBe('duplicate');
    open();
    expect(shown(await first)).toContain('ran 1');
    expect(runs.count).toBe(1);
  });

  it('claims again, before running, work whose kept answer does not read back as a reply', async () => {
    const { guard, invocation } = await start();
    const { runs, work } = counting({ changes: 'thing' });
    await guard(await invocation(), work);
    const key = invocationKey({ actor: LOCAL_ACTOR, channelId: 'c1' }, work.what, work.input);
    await h.app.store.invocations.finish(key, { nodes: [{ type: 'carousel' }] }, h.app.clock.now());
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const slow: GuardedWork = { ...work, work: (ctx) => gate.then(() => work.work(ctx)) };
    const rerun = guard(await invocation(), slow);
    const state = async () =>
      (await h.app.store.db.one<{ state: string }>(sql`SELECT state FROM invocations WHERE key = ${key}`))
        ?.state;
    await expect.poll(state).toBe('running');
    expect(shown(await guard(await invocation(), slow))).toContain('Already working on that');
    open();
    expect(shown(await rerun)).toContain('ran 2');
    expect(runs.count).toBe(2);
  });

  it('asks to confirm a cost above the threshold, running and keeping nothing, and runs it once confirmed', async () => {
    const { guard, invocation } = await start({ settings: { confirmAbove: 15 } });
    const { runs, work } = counting({ estimate: () => 20 });
    const asking = await invocation();
    const asked = await guard(asking, work);
    expect(shown(asked)).toContain('This will cost up to ');
    expect(shown(asked)).toContain('Confirm (20 credits)');
    expect(asking.tally.outcome).toBe('confirm');
    expect(runs.count).toBe(0);
    expect(await claims()).toBe(0);
    // Confirm and Cancel: only the person asked may press them; Confirm carries what it runs.
    expect(asking.elements.map((e) => [e.kind, e.ownerId])).toEqual([
      ['scout.confirm', 'me'],
      ['scout.cancel', 'me'],
    ]);
    expect(JSON.parse(asking.elements[0]?.payload ?? '')).toEqual(work.confirmation);
    expect(shown(await guard(await invocation(), { ...work, confirmed: true }))).toContain('ran 1');
    expect(await h.spentToday()).toBe(0);
  });

  it('refuses work over the daily cap before it runs, and forgets its claim', async () => {
    const { guard, invocation } = await start({ settings: { defaultDailyCap: 10 } });
    const { runs, work } = counting({ estimate: () => 20 });
    await expect(guard(await invocation(), work)).rejects.toBeInstanceOf(CreditCapError);
    expect(runs.count).toBe(0);
    expect(await claims()).toBe(0);
    // A ceiling checked at each paid call is not held against the cap up front.
    expect(shown(await guard(await invocation(), { ...work, capPerCall: true }))).toContain('ran 1');
  });

  it('forgets the claim of work that failed, so trying again runs it', async () => {
    const { guard, invocation } = await start();
    let fail = true;
    const { runs, work } = counting({ changes: 'thing' });
    const flaky: GuardedWork = {
      ...work,
      work: async (ctx) => {
        if (fail) throw new Error('the work failed');
        return work.work(ctx);
      },
    };
    await expect(guard(await invocation(), flaky)).rejects.toThrow('the work failed');
    expect(await claims()).toBe(0);
    fail = false;
    expect(shown(await guard(await invocation(), flaky))).toContain('ran 1');
    expect(runs.count).toBe(1);
  });

  it('keys an invocation by its person, channel, work and input', () => {
    const key = (userId: string, channelId: string, what: string, input: unknown) =>
      invocationKey({ actor: { ...LOCAL_ACTOR, userId }, channelId }, what, input);
    const same = key('me', 'c', 'list create', { name: 'a' });
    expect(key('me', 'c', 'list create', { name: 'a' })).toBe(same);
    expect(same).toHaveLength(32);
    expect(
      new Set([
        same,
        key('ana', 'c', 'list create', { name: 'a' }),
        key('me', 'd', 'list create', { name: 'a' }),
        key('me', 'c', 'list delete', { name: 'a' }),
        key('me', 'c', 'list create', { name: 'b' }),
      ]).size,
    ).toBe(5);
  });
});
