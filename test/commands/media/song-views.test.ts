import { describe, expect, it } from 'vitest';
import { humanize, movement, rowNodes, songView, valueText } from '../../../src/commands/media/song-views.js';
import type { SongsResult } from '../../../src/core/service/index.js';
import { plainText, TEXT_MAX } from '../../../src/core/ui/index.js';

const result = (response: Record<string, unknown>): SongsResult => ({
  action: 'test',
  creditsUsed: 10,
  data: Array.isArray(response.data) ? response.data : [],
  items: [],
  response,
});

describe('song views', () => {
  it('describes chart movement', () => {
    expect(movement(3, 5, 4)).toBe('▲2 (was #5)');
    expect(movement(4, 3, 4)).toBe('▼1 (was #3)');
    expect(movement(2, 2, 9)).toBe('= (was #2)');
    expect(movement(7, null, 1)).toBe('new');
    expect(movement(7, null, 5)).toBe('re-entry');
    expect(movement(7, null, null)).toBe('new');
  });

  it('humanizes keys and values of any shape', () => {
    expect(humanize('weeks_on_chart')).toBe('weeks on chart');
    expect(humanize('peakRank')).toBe('peak rank');
    expect(humanize('')).toBe('value');
    expect(valueText(null)).toBe('—');
    expect(valueText(true)).toBe('yes');
    expect(valueText(1234.5)).toBe('1,234.5');
    expect(valueText(Array.from({ length: 12 }, (_, i) => i))).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9 (+2 more)');
    expect(valueText([{ a: 1 }, 2])).toBe('2 items');
    expect(valueText({ title: 'X', n: 2, deep: { a: 1 } })).toBe('title: X · n: 2');
    expect(valueText('x'.repeat(500)).length).toBeLessThanOrEqual(200);
  });

  it('ranks a documented chart and keeps the song ids for histories', () => {
    const view = songView(
      result({
        country: 'US',
        data: [
          { id: 's1', title: 'A', artist: 'B', rank: 1, previous_rank: 2, weeks_on_chart: 3, peak_rank: 1 },
          { id: 's2', title: 'C', rank: '2', previous_rank: null, weeks_on_chart: 1, peak_rank: null },
        ],
      }),
    );
    expect(view.facts).toEqual([{ label: 'Country', value: 'US' }]);
    expect(view.rows).toEqual([
      { text: '#1 A — B · ▲1 (was #2) · 3 wks · peak #1 · s1', songId: 's1', label: 'A — B' },
      { text: '#2 C · new · 1 wk · s2', songId: 's2', label: 'C' },
    ]);
  });

  it('takes rows from the first list when there is no data member, and facts from the rest', () => {
    const view = songView(result({ total: 2, countries: [{ code: 'US', name: 'United States' }, 'GB'] }));
    expect(view.facts).toEqual([{ label: 'Total', value: '2' }]);
    expect(view.rows.map((row) => row.text)).toEqual(['United States · code US', 'GB']);
  });

  it('never throws on hostile values', () => {
    const big = { data: Array.from({ length: 3 }, () => ({ title: '\u202e evil\nline', n: Number.NaN })) };
    const view = songView(result({ ...big, 'a\nb': { c: [] }, nothing: undefined }));
    expect(view.rows[0]?.text).not.toContain('\n');
    expect(view.facts.map((f) => f.label)).toEqual(['A b', 'Nothing']);
  });

  it('splits long row lists into text nodes within the platform limit', () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      text: `${i} ${'x'.repeat(280)}`,
      songId: null,
      label: '',
    }));
    const nodes = rowNodes(rows);
    expect(nodes.length).toBeGreaterThan(1);
    for (const node of nodes) expect(plainText(node.spans).length).toBeLessThanOrEqual(TEXT_MAX);
    expect(nodes.map((node) => plainText(node.spans)).join('\n')).toBe(
      rows.map((row) => row.text).join('\n'),
    );
  });
});
