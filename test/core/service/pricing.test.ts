import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/core/service/operations.js';
import { costOf, estimateCost, PRICING } from '../../../src/core/service/pricing.js';

describe('pricing', () => {
  it('prices every operation as the contract says', () => {
    const paid = OPERATIONS.filter((op) => PRICING[op].kind !== 'free');
    expect(paid.sort()).toEqual([
      'creators.get',
      'creators.list',
      'songs.query',
      'videos.search',
      'viral.search',
    ]);
    expect(costOf('creators.list', 7)).toBe(7);
    expect(costOf('creators.get', 0)).toBe(0);
    expect(costOf('viral.search', 12)).toBe(12);
    expect(costOf('videos.search', 3)).toBe(3);
    expect(costOf('songs.query', 0)).toBe(10);
    expect(costOf('creators.search', 100)).toBe(0);
    expect(costOf('crm.addCreators', 5)).toBe(0);
    expect(costOf('media.remixVideo', 1)).toBe(0);
  });

  it('estimates an upper bound from the page size or the ids', () => {
    expect(estimateCost('creators.list', { perPage: 25 })).toBe(25);
    expect(estimateCost('creators.list', { perPage: '30' })).toBe(30);
    expect(estimateCost('creators.list')).toBe(10);
    expect(estimateCost('creators.list', { perPage: 5000 })).toBe(100);
    expect(estimateCost('creators.get', { userIds: ['a', 'b', 'c'] })).toBe(3);
    expect(estimateCost('creators.get', { user_ids: ['a'] })).toBe(1);
    expect(estimateCost('viral.search', {})).toBe(12);
    expect(estimateCost('viral.search', { pageSize: 50 })).toBe(50);
    expect(estimateCost('videos.search', {})).toBe(20);
    expect(estimateCost('videos.search', { perPage: 8 })).toBe(8);
    expect(estimateCost('songs.query', { action: 'countries' })).toBe(10);
    for (const free of ['creators.search', 'crm.listLists', 'agent.messages', 'media.remixImage'] as const) {
      expect(estimateCost(free, { perPage: 100 })).toBe(0);
    }
  });
});
