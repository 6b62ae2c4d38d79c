import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, ViralPost } from '../../../src/sandbox/index.js';
import { clientFor, FIXED_NOW, startSandbox } from '../fixture.js';

interface ViralBody {
  message: string;
  params: Record<string, unknown>;
  response: { data: ViralPost[]; page: number; pageSize: number; totalPages: number; totalResults: number };
}

let sandbox: Sandbox;
const KEY = 'viral-key';
const search = (body: Record<string, unknown>) =>
  clientFor(sandbox, KEY).post<ViralBody>('/api/v1/viral-content', body);

beforeAll(async () => {
  sandbox = await startSandbox({
    keys: [{ key: KEY, teamId: 't', credits: 1_000_000 }],
    rateLimitPerMinute: 10_000,
  });
});
afterAll(async () => {
  await sandbox.stop();
});

describe('viral content', () => {
  it('answers the documented envelope, 12 items by default, newest first, one credit per item', async () => {
    const before = sandbox.credits(KEY);
    const answer = await search({});
    expect(answer.status).toBe(200);
    const { response, params } = answer.json;
    expect(params).toEqual({ page: 1, pageSize: 12 });
    expect(response).toMatchObject({ page: 1, pageSize: 12, totalResults: 2000, totalPages: 167 });
    expect(response.data).toHaveLength(12);
    const times = response.data.map((p) => Date.parse(p.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const key of [
      'id',
      'videoUrl',
      'thumbnailUrl',
      'caption',
      'viralityScore',
      'musicTitle',
      'creatorUsername',
      'hook',
    ]) {
      expect(response.data[0]).toHaveProperty(key);
    }
    expect(sandbox.credits(KEY)).toBe(before - 12);
  });

  it('ORs values within an array field and ANDs the fields', async () => {
    const one = await search({ contentFormats: ['asmr'], pageSize: 100 });
    const two = await search({ contentFormats: ['asmr', 'vlog'], pageSize: 100 });
    expect(two.json.response.totalResults).toBeGreaterThan(one.json.response.totalResults);
    expect(two.json.response.data.every((p) => ['asmr', 'vlog'].includes(p.contentFormat))).toBe(true);
    const narrow = await search({
      contentFormats: ['asmr', 'vlog'],
      categories: ['Food', 'Travel'],
      pageSize: 100,
    });
    expect(narrow.json.response.totalResults).toBeLessThan(two.json.response.totalResults);
    expect(narrow.json.response.data.every((p) => ['Food', 'Travel'].includes(p.category))).toBe(true);
    expect(narrow.json.params).toMatchObject({
      contentFormats: ['asmr', 'vlog'],
      categories: ['Food', 'Travel'],
    });
  });

  it('filters by ranges, flags, text and inclusive dates', async () => {
    const answer = await search({
      viewsMin: 100_000,
      viralityScoreMin: 0.5,
      hasFace: true,
      isAiGenerated: false,
      pageSize: 100,
    });
    expect(answer.json.response.data.length).toBeGreaterThan(0);
    for (const p of answer.json.response.data) {
      expect(p.views).toBeGreaterThanOrEqual(100_000);
      expect(p.viralityScore).toBeGreaterThanOrEqual(0.5);
      expect([p.hasFace, p.isAiGenerated]).toEqual([true, false]);
    }
    const day = new Date(FIXED_NOW - 10 * 86_400_000).toISOString().slice(0, 10);
    const oneDay = await search({ dateCreatedFrom: day, dateCreatedTo: day, pageSize: 100 });
    expect(oneDay.json.response.totalResults).toBeGreaterThan(0);
    expect(oneDay.json.response.data.every((p) => p.createdAt.startsWith(day))).toBe(true);
    const hook = await search({ hook: 'WAIT FOR THE END', pageSize: 5 });
    expect(hook.json.response.data.every((p) => p.hook.toLowerCase().includes('wait for the end'))).toBe(
      true,
    );
    const brand = await search({ brandMentionedContains: 'nik', pageSize: 100 });
    expect(brand.json.response.data.length).toBeGreaterThan(0);
    expect(brand.json.response.data.every((p) => p.brandMentioned === 'Nike')).toBe(true);
    const unset = await search({ categories: [], countries: null, hasFace: null });
    expect(unset.json.response.totalResults).toBe(2000);
  });

  it('pages to the end', async () => {
    const seen: string[] = [];
    const first = await search({ countries: ['Germany'], pageSize: 5 });
    const { totalPages, totalResults } = first.json.response;
    for (let page = 1; page <= totalPages; page++) {
      seen.push(
        ...(await search({ countries: ['Germany'], pageSize: 5, page })).json.response.data.map((p) => p.id),
      );
    }
    expect(new Set(seen).size).toBe(totalResults);
    const beyond = await search({ countries: ['Germany'], pageSize: 5, page: totalPages + 1 });
    expect(beyond.json.response.data).toEqual([]);
  });

  it.each([
    [{ pageSize: 101 }, 'pageSize'],
    [{ page: 0 }, 'page'],
    [{ contentTones: ['sleepy'] }, 'contentTones'],
    [{ dateCreatedFrom: '2026-13-01' }, 'dateCreatedFrom'],
    [{ hasFace: 'yes' }, 'hasFace'],
    [{ sortBy: 'views' }, 'sortBy'],
  ])('answers 400 shape C for %j', async (body, name) => {
    const answer = await search(body);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: expect.stringContaining(name) });
  });
});
