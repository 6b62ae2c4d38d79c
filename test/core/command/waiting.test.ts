/** Interim messages of a command: the working message, queue places and their pace, and nothing after the answer. */
import { describe, expect, it } from 'vitest';
import {
  QUEUE_UPDATE_MS,
  queueText,
  startWaiting,
  type WaitingOptions,
} from '../../../src/core/command/waiting.js';
import { createLogger } from '../../../src/core/logger.js';
import type { Reply } from '../../../src/core/ui/index.js';

const textOf = (shown: Reply) => JSON.stringify(shown.nodes);

function setUp(overrides: Partial<WaitingOptions> = {}) {
  const shown: Reply[] = [];
  let now = 1_000_000;
  let cancelTokens = 0;
  const waiting = startWaiting({
    progress: async (interim) => {
      shown.push(interim);
    },
    inPlace: true,
    working: 'Searching creators…',
    workingAfterMs: null,
    cancelToken: () => {
      cancelTokens += 1;
      return 'stop-token';
    },
    cancel: new AbortController(),
    cancellable: () => {},
    logger: createLogger({ level: 'silent' }),
    now: () => now,
    ...overrides,
  });
  return {
    waiting,
    shown,
    advance: (ms: number) => {
      now += ms;
    },
    cancelTokens: () => cancelTokens,
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('interim messages', () => {
  it('shows the working message when the answer takes longer than the delay, and not after it', async () => {
    const slow = setUp({ workingAfterMs: 20 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await slow.waiting.finish();
    expect(slow.shown.map(textOf)).toEqual([expect.stringContaining('Searching creators…')]);

    const fast = setUp({ workingAfterMs: 50 });
    await fast.waiting.finish();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(fast.shown).toEqual([]);
  });

  it('counts the working delay from the arrival of the request', async () => {
    const late = setUp({ workingAfterMs: 1_000, since: performance.now() - 990 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await late.waiting.finish();
    expect(late.shown.map(textOf)).toEqual([expect.stringContaining('Searching creators…')]);

    const fresh = setUp({ workingAfterMs: 1_000, since: performance.now() });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await fresh.waiting.finish();
    expect(fresh.shown).toEqual([]);
  });

  it('says the place in the queue, updating it in place at most every few seconds', async () => {
    const { waiting, shown, advance } = setUp();
    waiting.calls.onQueue?.({ ahead: 12, etaSeconds: 15 });
    waiting.calls.onQueue?.({ ahead: 11, etaSeconds: 14 });
    advance(QUEUE_UPDATE_MS);
    waiting.calls.onQueue?.({ ahead: 6, etaSeconds: 8 });
    await flush();
    expect(shown.map(textOf)).toEqual([
      expect.stringContaining('12 requests ahead of yours, about 15 s'),
      expect.stringContaining('6 requests ahead of yours, about 8 s'),
    ]);
    // A long wait offers Cancel; a short one does not.
    expect(textOf(shown[0] as Reply)).toContain('Cancel');
    expect(textOf(shown[1] as Reply)).not.toContain('Cancel');
    await waiting.finish();
  });

  it('says the place once where every update would be a new message', async () => {
    const { waiting, shown, advance } = setUp({ inPlace: false });
    waiting.calls.onQueue?.({ ahead: 3, etaSeconds: 4 });
    advance(QUEUE_UPDATE_MS * 2);
    waiting.calls.onQueue?.({ ahead: 1, etaSeconds: 2 });
    await flush();
    await waiting.finish();
    expect(shown).toHaveLength(1);
  });

  it('shows nothing once finished, and waits for the message being shown', async () => {
    let release = () => {};
    const shown: string[] = [];
    const { waiting } = setUp({
      progress: (interim) =>
        new Promise<void>((resolve) => {
          release = () => {
            shown.push(textOf(interim));
            resolve();
          };
        }),
    });
    waiting.calls.onQueue?.({ ahead: 2, etaSeconds: 3 });
    await flush();
    let finished = false;
    const finishing = waiting.finish().then(() => {
      finished = true;
    });
    waiting.calls.onWait?.(40);
    await flush();
    expect(finished).toBe(false);
    release();
    await finishing;
    expect(shown).toHaveLength(1);
  });

  it('makes one Cancel button however often it is offered', async () => {
    const { waiting, advance, cancelTokens } = setUp();
    waiting.calls.onQueue?.({ ahead: 40, etaSeconds: 50 });
    advance(QUEUE_UPDATE_MS);
    waiting.calls.onQueue?.({ ahead: 30, etaSeconds: 40 });
    waiting.calls.onWait?.(45);
    await flush();
    await waiting.finish();
    expect(cancelTokens()).toBe(1);
  });

  it('says a long wait the queue did not report, once, with Cancel', async () => {
    const alone = setUp({ inPlace: false });
    alone.waiting.calls.onWait?.(45);
    alone.waiting.calls.onWait?.(44);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await alone.waiting.finish();
    expect(alone.shown.map(textOf)).toEqual([
      expect.stringContaining('wait before sending this: about 45 s'),
    ]);
    expect(textOf(alone.shown[0] as Reply)).toContain('Cancel');

    const queued = setUp({ inPlace: false });
    queued.waiting.calls.onWait?.(45);
    queued.waiting.calls.onQueue?.({ ahead: 2, etaSeconds: 45 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await queued.waiting.finish();
    expect(queued.shown.map(textOf)).toEqual([expect.stringContaining('2 requests ahead of yours')]);
  });

  it('arms Cancel again when a later call of the command waits, and never once finished', async () => {
    const armed: boolean[] = [];
    const { waiting, advance } = setUp({ inPlace: false, cancellable: (now) => armed.push(now) });
    // The search waits (Cancel shown), is sent, then the profiles call waits: the Cancel shown stops that wait too.
    waiting.calls.onQueue?.({ ahead: 3, etaSeconds: 40 });
    waiting.calls.onQueueOver?.();
    advance(QUEUE_UPDATE_MS * 2);
    waiting.calls.onQueue?.({ ahead: 2, etaSeconds: 55 });
    expect(armed).toEqual([true, false, true]);
    await waiting.finish();
    // A call still queued after the command ended (its answer is sent) arms nothing.
    waiting.calls.onQueue?.({ ahead: 1, etaSeconds: 50 });
    waiting.calls.onWait?.(50);
    expect(armed).toEqual([true, false, true]);
  });

  it('offers Cancel once the wait turns out long, where the first estimate was short', async () => {
    const { waiting, shown, advance } = setUp({ inPlace: false });
    waiting.calls.onQueue?.({ ahead: 0, etaSeconds: 3 });
    advance(QUEUE_UPDATE_MS);
    // A 429 then holds the call past 30 s: the transport says so, and the person may cancel.
    waiting.calls.onWait?.(90);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await waiting.finish();
    expect(shown).toHaveLength(2);
    expect(textOf(shown[1] as Reply)).toContain('about 90 s');
    expect(textOf(shown[1] as Reply)).toContain('Cancel');
  });

  it('shows no working message after the command showed one of its own', async () => {
    const { waiting, shown } = setUp({ workingAfterMs: 20 });
    waiting.shownElsewhere();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await waiting.finish();
    expect(shown).toEqual([]);
  });

  it('words places and estimates', () => {
    expect(queueText({ ahead: 0, etaSeconds: 0.2 })).toBe('The service is busy: yours is next, in a moment.');
    expect(queueText({ ahead: 1, etaSeconds: 5 })).toBe(
      'The service is busy: 1 request ahead of yours, about 5 s.',
    );
    expect(queueText({ ahead: 70, etaSeconds: 150 })).toBe(
      'The service is busy: 70 requests ahead of yours, about 2 min 30 s.',
    );
  });
});
