/**
 * The spend chart drawn from a known ledger: a real PNG of the chart's size (signature and IHDR read by hand), the
 * same input drawn once, and labels drawn with the bundled font on a machine without system fonts.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CHART_FONT, CHART_HEIGHT, CHART_WIDTH, renderSpendChart } from '../../../src/core/charts/render.js';
import { lastDays, OTHERS, spendByDay } from '../../../src/core/charts/spend.js';
import { openStore } from '../../../src/core/store/index.js';
import { isPng, pngSize } from '../../helpers/png.js';

const NOW = new Date('2025-03-30T12:00:00Z');
const WORKSPACE = { platform: 'slack' as const, workspaceId: 'T0CHART' };

/** Seven people over the last 30 days, and one call of another workspace that must not count. */
async function knownLedger() {
  const store = await openStore({ path: ':memory:' });
  let n = 0;
  const spend = (userId: string, daysAgo: number, credits: number, workspaceId = WORKSPACE.workspaceId) =>
    store.ledger.record({
      ...WORKSPACE,
      workspaceId,
      userId,
      at: new Date(NOW.getTime() - daysAgo * 86_400_000),
      operation: 'creators search',
      units: 1,
      credits,
      balance: null,
      idempotencyKey: `k${n++}`,
    });
  for (let day = 0; day < 30; day += 3) await spend('U0ANA', day, 20 + day);
  await spend('U0BO', 1, 90);
  await spend('U0CY', 5, 60);
  await spend('U0DI', 10, 45);
  await spend('U0ED', 20, 30);
  await spend('U0FAY', 25, 8);
  await spend('U0GUS', 29, 6);
  await spend('U0OTHER', 2, 500, 'T0ELSE');
  return store;
}

describe('the spend chart', () => {
  it('draws a PNG of the team’s last 30 days from the ledger, top five and others', async () => {
    const store = await knownLedger();
    const days = lastDays(NOW, 30);
    const range = { from: new Date(`${days[0]}T00:00:00Z`), to: new Date('2025-03-31T00:00:00Z') };
    const data = spendByDay(await store.ledger.daily(WORKSPACE, range), days);
    await store.close();
    expect(data.series.map((s) => s.key)).toEqual(['U0ANA', 'U0BO', 'U0CY', 'U0DI', 'U0ED', OTHERS]);
    expect(data.total).toBe(335 + 90 + 60 + 45 + 30 + 8 + 6);

    const png = await renderSpendChart(data, { title: 'Team spend per day' });
    expect(isPng(png)).toBe(true);
    expect(pngSize(png)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    // Bars, axes, a legend and labels: far more than a blank image of that size compresses to.
    expect(png.byteLength).toBeGreaterThan(8_000);
    // The same spend is drawn once.
    expect(await renderSpendChart(data, { title: 'Team spend per day' })).toBe(png);
  });

  it('labels with the bundled font when the machine has no fonts, and still draws without any font', async () => {
    const script = fileURLToPath(new URL('./no-system-fonts.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, DISABLE_SYSTEM_FONTS_LOAD: '1' },
    });
    const result = JSON.parse(stdout) as {
      families: string[];
      bundledFont: boolean;
      missingFont: boolean;
      bundled: string;
      fallback: string;
    };
    // Only the font shipped in the npm package is known to the canvas (under its own name and Scout's alias).
    expect([...result.families].sort()).toEqual(['Inter', CHART_FONT]);
    expect(result.bundledFont).toBe(true);
    expect(result.missingFont).toBe(false);
    const bundled = Buffer.from(result.bundled, 'base64');
    const fallback = Buffer.from(result.fallback, 'base64');
    for (const png of [bundled, fallback]) {
      expect(isPng(png)).toBe(true);
      expect(pngSize(png)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    }
    // The chart with the font draws its title, ticks and legend: the one with no usable font cannot.
    expect(bundled.equals(fallback)).toBe(false);
  });
});
