/**
 * Run as its own process with DISABLE_SYSTEM_FONTS_LOAD=1 (so @napi-rs/canvas loads no font of the machine): draws
 * the same chart with the bundled font and with a font file that does not exist, and prints what it got as JSON.
 */
import { GlobalFonts } from '@napi-rs/canvas';
import { chartFontLoaded, renderSpendChart } from '../../../src/core/charts/render.js';
import { spendByDay } from '../../../src/core/charts/spend.js';

const days = ['2025-03-01', '2025-03-02', '2025-03-03'];
const data = spendByDay(
  [
    { day: '2025-03-01', userId: 'ana', credits: 40 },
    { day: '2025-03-02', userId: 'bo', credits: 25 },
    { day: '2025-03-03', userId: 'ana', credits: 10 },
  ],
  days,
);
const bundled = await renderSpendChart(data, { title: 'Team spend' });
const missing = '/nonexistent/font.ttf';
const fallback = await renderSpendChart(data, { title: 'Team spend', fontFile: missing });
process.stdout.write(
  JSON.stringify({
    families: GlobalFonts.families.map((f) => f.family),
    bundledFont: await chartFontLoaded(),
    missingFont: await chartFontLoaded(missing),
    bundled: Buffer.from(bundled).toString('base64'),
    fallback: Buffer.from(fallback).toString('base64'),
  }),
);
