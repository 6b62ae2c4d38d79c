/**
 * `credits` in the terminal: without spend it says so and saves nothing; with spend it prints a sparkline of the
 * team's last 30 days and the path of the chart it saved, a PNG of the chart's size, saved once per content.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { CHART_HEIGHT, CHART_WIDTH } from '../../../src/core/charts/render.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { isPng, pngSize } from '../../helpers/png.js';

let h: Harness;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scout-credits-chart-'));
  h = await startHarness({ filesDir: dir });
});
afterAll(async () => {
  await h.stop();
});

/** Spend of a teammate on an earlier day, written to the ledger as a paid call would be. */
async function teammateSpent(userId: string, daysAgo: number, credits: number) {
  await h.app.store.ledger.record({
    platform: LOCAL_ACTOR.platform,
    workspaceId: LOCAL_ACTOR.workspaceId,
    userId,
    at: new Date(Date.now() - daysAgo * 86_400_000),
    operation: 'creators search',
    units: 1,
    credits,
    balance: null,
    idempotencyKey: `teammate-${userId}-${daysAgo}`,
  });
}

describe('credits chart in the terminal', () => {
  it('says there is no spend yet, and saves no chart', async () => {
    const out = await h.type('credits');
    expect(out).toMatch(/Team, last 30 days\*{0,2}\s+No spend yet\./);
    expect(out).not.toContain('File saved');
    expect(await readdir(dir)).toEqual([]);
  });

  it('prints a sparkline of the last 30 days and saves the chart as a PNG', async () => {
    await h.type('creators category:Fitness');
    await teammateSpent('ana', 3, 40);
    await teammateSpent('bo', 12, 15);
    const out = await h.type('credits');

    const total = (await h.spentToday()) + 40 + 15;
    const line = out.split('\n').find((l) => /[▁▂▃▄▅▆▇█]{30}/.test(l));
    expect(line).toBeDefined();
    const bars = /([▁▂▃▄▅▆▇█]{30})/.exec(line ?? '')?.[1] ?? '';
    // Today is the highest bar or ana's day is; the days without spend are the lowest.
    expect(bars.at(-1)).not.toBe('▁');
    expect(bars.at(-4)).not.toBe('▁');
    expect(bars.at(-13)).not.toBe('▁');
    expect([...bars].filter((bar) => bar === '▁')).toHaveLength(27);
    expect(line).toContain(`${total} credits`);

    const path = /File saved: (.+\.png)/.exec(out)?.[1];
    expect(path).toBeDefined();
    expect(path?.startsWith(dir)).toBe(true);
    expect(path).toMatch(/spend-\d{4}-\d{2}-\d{2}\.png$/);
    const png = await readFile(path as string);
    expect(isPng(png)).toBe(true);
    expect(pngSize(png)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
  });

  it('saves the chart once per content: the same chart again reuses its file, a changed one gets its own', async () => {
    const pngs = async () => (await readdir(dir)).filter((name) => name.endsWith('.png')).sort();
    const savedOf = (out: string) => /File saved: (.+\.png)/.exec(out)?.[1];
    const before = await pngs();
    const first = savedOf(await h.type('credits'));
    const again = savedOf(await h.type('credits'));
    expect(first).toBeDefined();
    expect(again).toBe(first);
    expect((await pngs()).length).toBeLessThanOrEqual(before.length + 1);
    const count = (await pngs()).length;

    await teammateSpent('cy', 5, 7);
    const changed = savedOf(await h.type('credits'));
    expect(changed).not.toBe(first);
    expect(changed).toMatch(/spend-\d{4}-\d{2}-\d{2}-\d+\.png$/);
    expect(await pngs()).toHaveLength(count + 1);
    // Shown again unchanged: the file of that content, nothing new.
    expect(savedOf(await h.type('credits'))).toBe(changed);
    expect(await pngs()).toHaveLength(count + 1);
  });
});
