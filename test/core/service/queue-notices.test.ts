import { describe, expect, it } from 'vitest';
import { estimatePlace, estimateStarts, type WindowState } from '../../../src/core/service/queue-notices.js';

/** A window of 10 starts a minute, nothing out, requests of 1 s. */
const state = (changes: Partial<WindowState> = {}): WindowState => ({
  allowance: 10,
  windowMs: 60_000,
  marginMs: 0,
  maxConcurrent: 10,
  holdMs: 0,
  tokens: [],
  busy: [],
  requestMs: 1_000,
  ...changes,
});

describe('queue estimate', () => {
  it('starts at once while the window has starts left', () => {
    expect(estimateStarts(state({ tokens: [5_000, 6_000] }), 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(estimatePlace(state(), 0)).toEqual({ ahead: 0, etaSeconds: 0 });
  });

  it('waits for tokens to come back once the window is used up', () => {
    const tokens = [12_000, 3_000, 30_000, 7_000, 7_000, 50_000, 41_000, 20_500, 9_000, 59_000];
    expect(estimateStarts(state({ tokens }), 3)).toEqual([3_000, 7_000, 7_000]);
    expect(estimatePlace(state({ tokens }), 4)).toEqual({ ahead: 4, etaSeconds: 12 });
  });

  it('counts whole windows for a queue longer than the allowance', () => {
    // 25 ahead of 10 a minute, all free now: the 26th start is in the third window, after two rounds of requests.
    const starts = estimateStarts(state({ marginMs: 25 }), 26);
    expect(starts.slice(0, 10).every((at) => at === 0)).toBe(true);
    expect(starts[10]).toBe(61_025);
    expect(starts[25]).toBe(2 * 61_025);
    expect(estimatePlace(state({ marginMs: 25 }), 25)).toEqual({ ahead: 25, etaSeconds: 123 });
  });

  it('starts nothing before a hold ends', () => {
    expect(estimateStarts(state({ holdMs: 45_000 }), 2)).toEqual([45_000, 45_000]);
    expect(estimatePlace(state({ holdMs: 45_000, tokens: Array(10).fill(50_000) }), 0)).toEqual({
      ahead: 0,
      etaSeconds: 50,
    });
  });

  it('waits for a place to run when requests in flight fill the concurrency bound', () => {
    const starts = estimateStarts(state({ maxConcurrent: 2, busy: [4_000, 9_000], tokens: [] }), 3);
    expect(starts).toEqual([4_000, 5_000, 6_000]);
  });

  it('lets returning tokens first pay back an allowance that shrank', () => {
    // 12 out of an allowance now 10: the first two returns only bring the count down to the allowance.
    const tokens = Array.from({ length: 12 }, (_, i) => (i + 1) * 1_000);
    expect(estimateStarts(state({ tokens }), 2)).toEqual([3_000, 4_000]);
  });

  it('keeps a token at most two windows after its start, for requests longer than a window', () => {
    const starts = estimateStarts(state({ allowance: 1, requestMs: 200_000 }), 2);
    expect(starts).toEqual([0, 120_000]);
  });
});
