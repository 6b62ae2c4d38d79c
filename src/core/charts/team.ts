/**
 * The team's spend over the last TEAM_DAYS days, as `/scout credits` and Slack's App Home show it: the data stacked
 * by person, a sparkline of the daily totals, and the chart as a PNG file.
 */
import type { Platform } from '../actor.js';
import { utcDay } from '../credits.js';
import type { Ledger } from '../store/ledger.js';
import { type FileAttachment, file } from '../ui/index.js';
import { renderSpendChart } from './render.js';
import { lastDays, type SpendByDay, spendByDay } from './spend.js';

/** Days the team's spend covers, today included. */
export const TEAM_DAYS = 30;

/** The title of the chart, and of its file. */
export const TEAM_CHART_TITLE = `Team spend per day, last ${TEAM_DAYS} days`;

/** The team's daily spend over the last TEAM_DAYS days (UTC), stacked by person. */
export async function teamSpend(
  ledger: Pick<Ledger, 'daily'>,
  workspace: { platform: Platform; workspaceId: string },
  now: Date,
): Promise<SpendByDay> {
  const days = lastDays(now, TEAM_DAYS);
  const range = { from: new Date(`${days[0]}T00:00:00Z`), to: utcDay(now).to };
  return spendByDay(await ledger.daily(workspace, range), days);
}

/** The chart of `data` as a PNG file to show as an image. Throws when it cannot be drawn. */
export async function teamChartFile(data: SpendByDay): Promise<FileAttachment> {
  const png = await renderSpendChart(data, { title: `${TEAM_CHART_TITLE} (credits)` });
  return file(`spend-${data.days.at(-1)}.png`, png, {
    mimeType: 'image/png',
    title: TEAM_CHART_TITLE,
    display: 'image',
  });
}
