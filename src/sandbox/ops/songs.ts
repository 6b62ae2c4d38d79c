/** Song data (`GET /api/v1/songs?action=...`, shape C errors): 10 credits per successful request. */
import { SONG_ACTIONS, type SongAction } from '../../core/service/enums.js';
import type { SongCharts } from '../data/songs.js';
import { SandboxHttpError } from '../server/http.js';
import { createQueryReader, type QueryReader } from '../server/input.js';
import type { Operation } from '../server/router.js';
import { DAY_MS, isoDate, isoWeekStart } from '../time.js';

/** Credits one songs request costs by the contract's price list (a sandbox may be priced otherwise). */
export const SONG_REQUEST_CREDITS = 10;

const NAMES = ['action', 'country_code', 'country', 'week', 'q', 'song_id', 'week1', 'week2'];

interface SongInputs {
  reader: QueryReader;
  charts: SongCharts;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new SandboxHttpError(400, `Missing required parameter: ${name}`);
  return value;
}

/** Reads the 2-letter country; `country` and `country_code` are both accepted, `name` is the documented one. */
function country(
  { reader, charts }: SongInputs,
  name: 'country' | 'country_code',
  need: boolean,
): string | undefined {
  const other = name === 'country' ? 'country_code' : 'country';
  const raw = reader.string(name, other);
  if (raw === undefined) return need ? required(raw, name) : undefined;
  const code = raw.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code))
    throw new SandboxHttpError(400, `${name} must be a 2-letter country code such as US`);
  if (!charts.countries.some((c) => c.code === code)) {
    throw new SandboxHttpError(400, `No chart for country ${code}; see action=countries`);
  }
  return code;
}

function week({ reader, charts }: SongInputs, name: string, need: boolean): string {
  const raw = reader.string(name);
  if (raw === undefined) {
    if (need) required(raw, name);
    return charts.weeks[charts.weeks.length - 1] as string;
  }
  const value = raw.toUpperCase();
  if (isoWeekStart(value) === undefined)
    throw new SandboxHttpError(400, `${name} must be an ISO week such as 2026-W04`);
  if (!charts.weeks.includes(value))
    throw new SandboxHttpError(400, `No chart for week ${value}; see action=weeks`);
  return value;
}

function weekRange(week: string) {
  const start = isoWeekStart(week) as number;
  return { week, start_date: isoDate(start), end_date: isoDate(start + 6 * DAY_MS) };
}

function respond(inputs: SongInputs, action: SongAction): Record<string, unknown> {
  const { charts } = inputs;
  switch (action) {
    case 'countries':
      return { data: charts.countries.map((c) => ({ code: c.code, name: c.name })) };
    case 'weeks': {
      const code = country(inputs, 'country_code', false);
      return { ...(code ? { country_code: code } : {}), data: [...charts.weeks].reverse() };
    }
    case 'date-ranges':
      return { data: [...charts.weeks].reverse().map(weekRange) };
    case 'rankings': {
      const code = country(inputs, 'country', true) as string;
      const w = week(inputs, 'week', false);
      return { country: code, week: w, data: charts.chart(code, w) ?? [] };
    }
    case 'global': {
      const w = week(inputs, 'week', false);
      return { week: w, data: charts.global(w) ?? [] };
    }
    case 'new-entries': {
      const code = country(inputs, 'country', true) as string;
      const w = week(inputs, 'week', false);
      const isFirst = charts.weeks[0] === w;
      // In the first week of the history nothing is known to be new.
      const data = isFirst
        ? []
        : (charts.chart(code, w) ?? []).filter((e) => e.previous_rank === null && e.weeks_on_chart === 1);
      return { country: code, week: w, data };
    }
    case 'search': {
      const q = required(inputs.reader.string('q'), 'q').toLowerCase();
      const latest = charts.weeks[charts.weeks.length - 1] as string;
      const data = charts.songs
        .filter((s) => s.title.toLowerCase().includes(q) || s.artist.toLowerCase().includes(q))
        .map((s) => ({
          ...s,
          countries: charts.countries
            .filter((c) => charts.history(s.id, c.code).length > 0)
            .map((c) => c.code),
          current_global_rank: charts.global(latest)?.find((e) => e.id === s.id)?.rank ?? null,
        }));
      return { query: q, data };
    }
    case 'song-history': {
      const songId = required(inputs.reader.string('song_id'), 'song_id');
      const code = country(inputs, 'country_code', true) as string;
      const song = charts.song(songId);
      if (!song) throw new SandboxHttpError(404, `No song with id ${songId}`);
      const history = charts.history(songId, code);
      return {
        song,
        country_code: code,
        peak_rank: history.length > 0 ? Math.min(...history.map((h) => h.rank)) : null,
        data: history,
      };
    }
    case 'compare': {
      const code = country(inputs, 'country', true) as string;
      const first = week(inputs, 'week1', true);
      const second = week(inputs, 'week2', true);
      const before = new Map((charts.chart(code, first) ?? []).map((e) => [e.id, e]));
      const after = new Map((charts.chart(code, second) ?? []).map((e) => [e.id, e]));
      const ids = [...new Set([...after.keys(), ...before.keys()])];
      const data = ids.map((id) => {
        const song = charts.song(id);
        const a = before.get(id)?.rank ?? null;
        const b = after.get(id)?.rank ?? null;
        return {
          id,
          title: song?.title,
          artist: song?.artist,
          rank_week1: a,
          rank_week2: b,
          change: a !== null && b !== null ? a - b : null,
        };
      });
      return {
        country: code,
        week1: first,
        week2: second,
        new_entries: data.filter((d) => d.rank_week1 === null).length,
        dropped: data.filter((d) => d.rank_week2 === null).length,
        data,
      };
    }
  }
}

/** The songs operation; each request costs `credits`, charged and reported in `credits_used`. */
export function songOperations(credits: number = SONG_REQUEST_CREDITS): Operation[] {
  return [
    {
      method: 'GET',
      pattern: '/api/v1/songs',
      family: 'C',
      handle: ({ query, world, charge }) => {
        const reader = createQueryReader(query);
        reader.rejectUnknown(NAMES);
        const raw = required(query.get('action')?.trim() || undefined, 'action');
        const action = SONG_ACTIONS.find((a) => a === raw.toLowerCase());
        if (!action)
          throw new SandboxHttpError(400, `Unknown action '${raw}'; use one of ${SONG_ACTIONS.join(', ')}`);
        const response = respond({ reader, charts: world.songs() }, action);
        // Charged after the inputs are known to be valid: a bad request costs nothing.
        charge(credits);
        return { body: { message: 'OK', action, credits_used: credits, response } };
      },
    },
  ];
}
