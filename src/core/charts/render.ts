/**
 * Draws the team's daily spend as a stacked bar chart PNG, in-process: Chart.js on @napi-rs/canvas (Skia, shipped
 * prebuilt in an npm package per platform; no browser, nothing built or downloaded at install). Labels use Inter,
 * loaded from its npm package, so they render on a machine without system fonts. Both libraries are loaded on the
 * first chart only, and charts are kept by content, so the same spend is drawn once.
 */
import { createRequire } from 'node:module';
import type { SpendByDay } from './spend.js';
import { OTHERS } from './spend.js';

/** Pixel size of the chart. */
export const CHART_WIDTH = 960;
/** Pixel size of the chart. */
export const CHART_HEIGHT = 420;

/** The font family charts draw text with, registered from the bundled font file. */
export const CHART_FONT = 'Scout Inter';

/** The bundled font file: Inter Regular (OFL-1.1) from @expo-google-fonts/inter. */
export const BUNDLED_FONT = '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf';

/** Series colours (Tableau 10); "others" is grey. */
const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1'] as const;
const OTHERS_COLOR = '#9c9c9c';

/** How a chart is drawn. */
export interface ChartOptions {
  /** The label of a series key (a user id, or OTHERS); the key itself by default. */
  readonly label?: (key: string) => string;
  /** The title above the bars. */
  readonly title?: string;
  /** A font file to use instead of the bundled one (a path, or a package path); a missing one falls back. */
  readonly fontFile?: string;
}

type Canvas = typeof import('@napi-rs/canvas');
type Charts = typeof import('chart.js');

interface Engine {
  readonly canvas: Canvas;
  readonly charts: Charts;
  /** Whether the font file was registered; when not, text uses whatever fonts the machine has. */
  readonly font: boolean;
}

const engines = new Map<string, Promise<Engine>>();

function fontPath(file: string): string | null {
  try {
    return createRequire(import.meta.url).resolve(file);
  } catch {
    return null;
  }
}

async function load(fontFile: string): Promise<Engine> {
  const [canvas, charts] = await Promise.all([import('@napi-rs/canvas'), import('chart.js')]);
  const { Chart, BarController, BarElement, CategoryScale, LinearScale, Legend, Title } = charts;
  Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Title);
  const path = fontPath(fontFile);
  const font = path !== null && canvas.GlobalFonts.registerFromPath(path, CHART_FONT) !== null;
  return { canvas, charts, font };
}

/** Loads the libraries and registers the font once per font file. */
function engine(fontFile: string): Promise<Engine> {
  let loading = engines.get(fontFile);
  if (loading === undefined) {
    loading = load(fontFile);
    engines.set(fontFile, loading);
    loading.catch(() => engines.delete(fontFile));
  }
  return loading;
}

/** Whether the font charts use was registered (false when its file could not be read). */
export async function chartFontLoaded(fontFile: string = BUNDLED_FONT): Promise<boolean> {
  return (await engine(fontFile)).font;
}

/** Charts kept by content (most recent last); a chart is about 30 KB. */
const drawn = new Map<string, Uint8Array>();
const DRAWN_MAX = 32;

/** Fills the background white: a PNG is transparent by default, unreadable on a dark theme. */
const whiteBackground = {
  id: 'scoutBackground',
  beforeDraw(chart: {
    ctx: { save(): void; restore(): void; fillStyle: unknown; fillRect(...a: number[]): void };
  }) {
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, CHART_WIDTH, CHART_HEIGHT);
    ctx.restore();
  },
};

function draw(engine: Engine, data: SpendByDay, options: ChartOptions): Uint8Array {
  const label = options.label ?? ((key: string) => key);
  const family = engine.font ? CHART_FONT : 'sans-serif';
  const font = { family, size: 13 };
  const canvas = engine.canvas.createCanvas(CHART_WIDTH, CHART_HEIGHT);
  const context = canvas.getContext('2d');
  const chart = new engine.charts.Chart(context as unknown as ConstructorParameters<Charts['Chart']>[0], {
    type: 'bar',
    data: {
      labels: data.days.map((day) => day.slice(5)),
      datasets: data.series.map((series, i) => ({
        label: series.key === OTHERS ? 'others' : label(series.key),
        data: [...series.values],
        backgroundColor: series.key === OTHERS ? OTHERS_COLOR : (COLORS[i % COLORS.length] ?? OTHERS_COLOR),
      })),
    },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      events: [],
      scales: {
        x: { stacked: true, ticks: { font, maxRotation: 0, autoSkip: true }, grid: { display: false } },
        y: {
          stacked: true,
          beginAtZero: true,
          ticks: { font, precision: 0 },
          title: { display: true, text: 'credits', font },
        },
      },
      plugins: {
        legend: { position: 'bottom', labels: { font } },
        title: {
          display: options.title !== undefined,
          text: options.title ?? '',
          font: { ...font, size: 16 },
        },
      },
    },
    plugins: [whiteBackground],
  });
  try {
    return new Uint8Array(canvas.toBuffer('image/png'));
  } finally {
    chart.destroy();
  }
}

/** Renders spend per day as a PNG stacked bar chart (CHART_WIDTH × CHART_HEIGHT); the same input is drawn once. */
export async function renderSpendChart(data: SpendByDay, options: ChartOptions = {}): Promise<Uint8Array> {
  const fontFile = options.fontFile ?? BUNDLED_FONT;
  const label = options.label ?? ((key: string) => key);
  const key = JSON.stringify([fontFile, options.title ?? null, data, data.series.map((s) => label(s.key))]);
  const kept = drawn.get(key);
  if (kept !== undefined) {
    drawn.delete(key);
    drawn.set(key, kept);
    return kept;
  }
  const png = draw(await engine(fontFile), data, options);
  drawn.set(key, png);
  if (drawn.size > DRAWN_MAX) drawn.delete(drawn.keys().next().value as string);
  return png;
}
