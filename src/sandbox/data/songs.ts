/** Seeded weekly song charts: stable song ids across 12 ISO weeks and a dozen countries. */
import { createRandom, hashString } from '../random.js';
import { DAY_MS, isoWeekOf, isoWeekStart } from '../time.js';
import type { ChartEntry, Song } from './records.js';
import { ARTISTS, SONG_COUNTRIES, SONG_WORDS } from './vocab.js';

/** Weeks of chart history. */
export const CHART_WEEKS = 12;
/** Entries of one chart. */
export const CHART_SIZE = 50;
/** Songs in the pool. */
const SONG_POOL = 220;

/** A song with where and when it peaks, used to score its chart runs. */
interface SongModel extends Song {
  home: string | null;
  release: number;
  popularity: number;
  spread: number;
  affinity: Map<string, number>;
}

/** The song charts of a sandbox. */
export interface SongCharts {
  /** Every song of the pool. */
  readonly songs: readonly Song[];
  /** Chart weeks, oldest first. */
  readonly weeks: readonly string[];
  /** Countries with a chart: 2-letter code and full name. */
  readonly countries: readonly { code: string; name: string }[];
  /** The chart of a country (2-letter code) in a week, or undefined when there is none. */
  chart(country: string, week: string): readonly ChartEntry[] | undefined;
  /** The global chart of a week, from points summed over every country. */
  global(week: string): readonly ChartEntry[] | undefined;
  /** A song's chart run in a country: one entry per week it charted. */
  history(songId: string, country: string): { week: string; rank: number }[];
  /** The song with that id. */
  song(songId: string): Song | undefined;
}

/** Adds previous rank, weeks on chart and peak rank to ranked song ids, week after week. */
function buildRuns(rankedIds: string[][], songs: Map<string, Song>): ChartEntry[][] {
  const weeksOn = new Map<string, number>();
  const peaks = new Map<string, number>();
  let previous = new Map<string, number>();
  return rankedIds.map((ids) => {
    const current = new Map<string, number>();
    const entries = ids.map((id, index) => {
      const rank = index + 1;
      current.set(id, rank);
      const weeks = (weeksOn.get(id) ?? 0) + 1;
      weeksOn.set(id, weeks);
      const peak = Math.min(peaks.get(id) ?? rank, rank);
      peaks.set(id, peak);
      const song = songs.get(id) as Song;
      return {
        id,
        title: song.title,
        artist: song.artist,
        rank,
        previous_rank: previous.get(id) ?? null,
        weeks_on_chart: weeks,
        peak_rank: peak,
      };
    });
    previous = current;
    return entries;
  });
}

/** Generates the charts: a pure function of the seed and the creation instant (latest week = last full week). */
export function generateSongCharts(seed: number, createdAt: number): SongCharts {
  const random = createRandom(hashString('songs', seed));
  const latestStart = isoWeekStart(isoWeekOf(createdAt - 7 * DAY_MS)) as number;
  const weeks = Array.from({ length: CHART_WEEKS }, (_, i) =>
    isoWeekOf(latestStart - (CHART_WEEKS - 1 - i) * 7 * DAY_MS),
  );
  const titles = new Set<string>();
  const models: SongModel[] = [];
  while (models.length < SONG_POOL) {
    const title = random.chance(0.3)
      ? random.pick(SONG_WORDS)
      : `${random.pick(SONG_WORDS)} ${random.pick(SONG_WORDS)}`;
    if (titles.has(title)) continue;
    titles.add(title);
    const home = random.chance(0.6) ? random.pick(SONG_COUNTRIES).code : null;
    const affinity = new Map<string, number>();
    for (const { code } of SONG_COUNTRIES) {
      affinity.set(code, code === home ? 3 : Math.exp(0.6 * random.normal()));
    }
    models.push({
      id: `song_${random.hex(10)}`,
      title,
      artist: random.pick(ARTISTS),
      home,
      release: random.int(-16, CHART_WEEKS - 1),
      popularity: random.logNormal(1, 0.8),
      spread: random.float(2, 7),
      affinity,
    });
  }
  const songs = new Map<string, Song>(
    models.map((m) => [m.id, { id: m.id, title: m.title, artist: m.artist }]),
  );

  const score = (model: SongModel, country: string, week: number): number => {
    if (week < model.release) return 0;
    const age = week - model.release - 2;
    const lifecycle = Math.exp(-(age * age) / (2 * model.spread * model.spread));
    const noise = 1 + 0.08 * random.normal();
    return model.popularity * (model.affinity.get(country) ?? 1) * lifecycle * noise;
  };

  const charts = new Map<string, ChartEntry[]>();
  const points = weeks.map(() => new Map<string, number>());
  for (const { code } of SONG_COUNTRIES) {
    const ranked = weeks.map((_, w) =>
      models
        .map((m) => ({ id: m.id, value: score(m, code, w) }))
        .filter((s) => s.value > 0)
        .sort((a, b) => b.value - a.value || a.id.localeCompare(b.id))
        .slice(0, CHART_SIZE)
        .map((s) => s.id),
    );
    buildRuns(ranked, songs).forEach((entries, w) => {
      charts.set(`${code}|${weeks[w]}`, entries);
      for (const entry of entries) {
        const weekPoints = points[w] as Map<string, number>;
        weekPoints.set(entry.id, (weekPoints.get(entry.id) ?? 0) + CHART_SIZE + 1 - entry.rank);
      }
    });
  }
  const globalRanked = points.map((weekPoints) =>
    [...weekPoints.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, CHART_SIZE)
      .map(([id]) => id),
  );
  const globalCharts = new Map<string, ChartEntry[]>();
  buildRuns(globalRanked, songs).forEach((entries, w) => {
    globalCharts.set(weeks[w] as string, entries);
  });

  return {
    songs: [...songs.values()],
    weeks,
    countries: SONG_COUNTRIES,
    chart: (country, week) => charts.get(`${country}|${week}`),
    global: (week) => globalCharts.get(week),
    history: (songId, country) =>
      weeks.flatMap((week) => {
        const entry = charts.get(`${country}|${week}`)?.find((e) => e.id === songId);
        return entry ? [{ week, rank: entry.rank }] : [];
      }),
    song: (songId) => songs.get(songId),
  };
}
