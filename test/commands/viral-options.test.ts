/** Viral filters by the service's own names and by country codes, end to end against the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpFamily } from '../../src/commands/help.js';
import { viralFamily } from '../../src/commands/viral.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ families: [viralFamily, helpFamily] });
});
afterAll(async () => h.stop());

const viralBody = async (line: string) => {
  const from = h.requests().length;
  const out = await h.type(line);
  const request = h
    .requests()
    .slice(from)
    .find((r) => r.path === '/api/v1/viral-content');
  if (request === undefined) throw new Error(`${line} made no call: ${out}`);
  const { page: _page, pageSize: _size, ...body } = request.body as Record<string, unknown>;
  return body;
};

describe('viral filters', () => {
  it("take the service's own bound names, each setting one bound", async () => {
    expect(await viralBody('/scout viral viewsMin:1k viralityScoreMin:0.2 FOLLOWERSMAX:10m')).toEqual({
      viewsMin: 1000,
      viralityScoreMin: 0.2,
      followersMax: 10_000_000,
    });
    expect(await viralBody('/scout viral views:>1k')).toEqual({ viewsMin: 1001 });
  });

  it('refuse a virality score outside 0-1, and a maximum of 1 as no filter', async () => {
    for (const [line, message] of [
      ['virality:<=1', 'virality:<=1 is no filter at all; leave it out.'],
      ['viralityScoreMax:1', 'viralityScoreMax:1 is no filter at all; leave it out.'],
      ['virality:0-1', 'virality:0-1 is no filter at all; leave it out.'],
      ['virality:>2', 'virality:>2 is out of range: virality goes from 0 to 1.'],
      ['virality:0.5-1.5', 'virality:0.5-1.5 is out of range: virality goes from 0 to 1.'],
    ]) {
      const from = h.requests().length;
      expect((await h.type(`/scout viral ${line}`)).split('\n')[0]).toBe(`Error: ${message}`);
      expect(h.requests().slice(from), line).toEqual([]);
    }
    expect(await viralBody('/scout viral virality:0.5-1')).toEqual({ viralityScoreMin: 0.5 });
    expect(await viralBody('/scout viral virality:<0.9')).toEqual({ viralityScoreMax: 0.9 });
  });

  it('take country codes and short forms for the viral-content countries, and only those', async () => {
    expect(await viralBody('/scout viral countries:US,uk,UAE')).toEqual({
      countries: ['United States', 'United Kingdom', 'United Arab Emirates'],
    });
    const from = h.requests().length;
    const out = await h.type('/scout viral country:Pakistan');
    expect(out).toMatch(/^Error: country \(countries\) cannot include "Pakistan"\./);
    expect(h.requests().slice(from)).toEqual([]);
  });

  it("show in help the names people type, each reaching its filter, and not the service's", async () => {
    for (const line of ['/scout help viral', '/scout help viral options']) {
      const out = await h.type(line);
      const said = out.split('\n').flatMap((text) => text.trim().split(' · '));
      expect(said, line).toEqual(
        expect.arrayContaining([
          'views: Views, e.g. 100k-5m or >1m',
          'virality: Virality score 0-1: 0.2 above average, 0.5 highly viral, 0.8 breakout. E.g. >0.5',
          'countries: Countries by name or code, any of them (comma list; 140 countries have viral posts) (140 values: /scout help values countries)',
        ]),
      );
      for (const spelling of ['viewsMin', 'viewsMax', 'viralityScore'])
        expect(out, `${line}: ${spelling}`).not.toContain(spelling);
    }
    expect(await viralBody('/scout viral views:100k-5m virality:>0.5 countries:US,Japan')).toEqual({
      viewsMin: 100_000,
      viewsMax: 5_000_000,
      viralityScoreMin: 0.5,
      countries: ['United States', 'Japan'],
    });
  });
});
