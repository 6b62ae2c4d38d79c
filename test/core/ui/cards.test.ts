import { describe, expect, it } from 'vitest';
import { CRM_STATUSES } from '../../../src/core/service/enums.js';
import { button } from '../../../src/core/ui/builders.js';
import {
  CRM_STATUS_LABELS,
  contactRow,
  creatorCard,
  listRow,
  normalizeCrmStatus,
  normalizeHandle,
  platformLabel,
  profileUrl,
  viralityLabel,
  viralityLevel,
  viralPostCard,
} from '../../../src/core/ui/cards.js';
import { CARD_LONG_TEXT_MAX, CARD_NICHES_MAX, CARD_SHORT_TEXT_MAX } from '../../../src/core/ui/limits.js';
import type { CreatorCardNode } from '../../../src/core/ui/model.js';
import { HOSTILE_POST, HOSTILE_PROFILE, hostileButtons, NOW, NULL_PROFILE, unsafeChars } from './fixtures.js';

/** Every string value of a node, nested arrays and objects included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('creatorCard', () => {
  const profile = {
    user_id: 'tiktok_123',
    handle: '@jane.doe',
    nickname: 'Jane Doe',
    source: 'TikTok',
    followers: 1_250_000,
    engagement_rate: 0.034,
    avg_views: 250_000,
    avg_likes: 12_500,
    country: 'United States',
    language: 'english',
    main_category: 'Beauty & Personal Care',
    best_promotion_niches: ['skincare', 'makeup'],
    email: 'jane@example.com',
    avatar_url: 'https://cdn.example.com/jane.jpg',
  };

  it('maps a profile, converting the engagement fraction to a percentage', () => {
    const card = creatorCard(profile, {
      fetchedAt: NOW - 2 * 86_400_000,
      now: NOW,
      actions: [button('Add to list', 'crm.add:1', { style: 'primary' })],
    });
    expect(card).toEqual<CreatorCardNode>({
      type: 'creator-card',
      userId: 'tiktok_123',
      handle: 'jane.doe',
      nickname: 'Jane Doe',
      platform: 'tiktok',
      avatarUrl: 'https://cdn.example.com/jane.jpg',
      profileUrl: 'https://www.tiktok.com/@jane.doe',
      followers: 1_250_000,
      engagementPercent: 3.4,
      avgViews: 250_000,
      avgLikes: 12_500,
      country: 'United States',
      language: 'english',
      mainCategory: 'Beauty & Personal Care',
      niches: ['skincare', 'makeup'],
      emailKnown: true,
      email: null,
      fetchedAt: new Date(NOW - 2 * 86_400_000).toISOString(),
      dataAge: '2 days old',
      actions: [{ label: 'Add to list', actionId: 'crm.add:1', style: 'primary' }],
    });
  });

  it('never carries the email unless asked to reveal it', () => {
    const hidden = creatorCard(profile, { fetchedAt: NOW, now: NOW });
    expect(strings(hidden).join(' ')).not.toContain('jane@example.com');
    expect(creatorCard(profile, { fetchedAt: NOW, now: NOW, revealEmail: true }).email).toBe(
      'jane@example.com',
    );
    expect(
      creatorCard({ ...profile, email: null }, { fetchedAt: NOW, now: NOW, revealEmail: true }),
    ).toMatchObject({
      emailKnown: false,
      email: null,
    });
  });

  it('survives nulls everywhere and an empty profile', () => {
    for (const input of [NULL_PROFILE, {}]) {
      const card = creatorCard(input, { fetchedAt: null, now: NOW });
      expect(card).toMatchObject({
        userId: null,
        handle: null,
        nickname: null,
        platform: null,
        avatarUrl: null,
        profileUrl: null,
        followers: null,
        engagementPercent: null,
        niches: [],
        emailKnown: false,
        email: null,
        fetchedAt: null,
        dataAge: 'age unknown',
        actions: [],
      });
    }
  });

  it('cleans and caps hostile content', () => {
    const card = creatorCard(HOSTILE_PROFILE, {
      fetchedAt: NOW,
      now: NOW,
      actions: hostileButtons('a'),
      revealEmail: true,
    });
    for (const value of strings(card)) {
      expect(unsafeChars(value, true)).toEqual([]);
      expect(value.length).toBeLessThanOrEqual(CARD_LONG_TEXT_MAX);
    }
    // A 300-character address is not a real one: known, but never shown cut.
    expect(card.emailKnown).toBe(true);
    expect(card.email).toBeNull();
    expect(card.nickname?.length).toBeLessThanOrEqual(CARD_SHORT_TEXT_MAX);
    expect(card.handle?.startsWith('@')).toBe(false);
    expect(card.niches).toHaveLength(CARD_NICHES_MAX);
    expect(card.profileUrl).toBeNull();
    expect(card.avatarUrl).toMatch(/^https:\/\/cdn\.example\.com\//);
    expect(card.actions).toHaveLength(5);
  });

  it('deduplicates niches and skips blank ones', () => {
    const card = creatorCard(
      { best_promotion_niches: ['fitness', null, ' ', 'fitness', 'yoga\n'] },
      { fetchedAt: NOW, now: NOW },
    );
    expect(card.niches).toEqual(['fitness', 'yoga']);
  });

  it('rejects more actions than one row holds', () => {
    const six = Array.from({ length: 6 }, (_, i) => button(`B${i}`, `b.${i}`));
    expect(() => creatorCard(profile, { fetchedAt: NOW, now: NOW, actions: six })).toThrow(RangeError);
  });

  it('drops unsafe avatar URLs', () => {
    const card = creatorCard({ avatar_url: 'javascript:alert(1)' }, { fetchedAt: NOW, now: NOW });
    expect(card.avatarUrl).toBeNull();
  });
});

describe('profile URLs and platforms', () => {
  it.each([
    ['tiktok', 'https://www.tiktok.com/@someone'],
    ['instagram', 'https://www.instagram.com/someone/'],
    ['youtube', 'https://www.youtube.com/@someone'],
    ['twitter', 'https://x.com/someone'],
    ['linkedin', 'https://www.linkedin.com/in/someone'],
    ['twitch', 'https://www.twitch.tv/someone'],
  ])('derives a %s profile URL', (platform, url) => {
    expect(profileUrl(platform, '@someone')).toBe(url);
  });

  it('refuses unknown platforms and odd handles', () => {
    expect(profileUrl('myspace', 'someone')).toBeNull();
    expect(profileUrl('tiktok', 'a/b?c')).toBeNull();
    expect(profileUrl('tiktok', 'two words')).toBeNull();
    expect(profileUrl(null, 'someone')).toBeNull();
    expect(profileUrl('tiktok', null)).toBeNull();
  });

  it('encodes non-ASCII handles', () => {
    expect(profileUrl('instagram', 'café')).toBe('https://www.instagram.com/caf%C3%A9/');
  });

  it('normalizes handles and names platforms', () => {
    expect(normalizeHandle('  @@name ')).toBe('name');
    expect(normalizeHandle('@')).toBeNull();
    expect(platformLabel('youtube')).toBe('YouTube');
    expect(platformLabel('TWITTER')).toBe('X (Twitter)');
    expect(platformLabel('newplatform')).toBe('newplatform');
  });
});

describe('virality', () => {
  it.each([
    [0, 'average', 'Average'],
    [0.19, 'average', 'Average'],
    [0.2, 'above-average', 'Above average'],
    [0.49, 'above-average', 'Above average'],
    [0.5, 'highly-viral', 'Highly viral'],
    [0.79, 'highly-viral', 'Highly viral'],
    [0.8, 'breakout', 'Breakout'],
    [1, 'breakout', 'Breakout'],
  ])('score %d is %s', (score, level, label) => {
    expect(viralityLevel(score)).toBe(level);
    expect(viralityLabel(score)).toBe(label);
  });

  it('has no band without a score', () => {
    expect(viralityLevel(null)).toBeNull();
    expect(viralityLabel(Number.NaN)).toBeNull();
  });
});

describe('viralPostCard', () => {
  it('maps camelCase posts', () => {
    const card = viralPostCard(HOSTILE_POST, { actions: hostileButtons('v') });
    expect(card).toMatchObject({
      videoUrl: 'https://video.example.com/v/1.mp4',
      thumbnailUrl: 'https://video.example.com/t/1.jpg',
      views: 41_234_567,
      viralityScore: 0.91,
      virality: 'breakout',
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    expect(card.caption?.length).toBeLessThanOrEqual(CARD_LONG_TEXT_MAX);
    expect(card.caption).not.toContain('\n');
    expect(card.creatorUsername?.length).toBeLessThanOrEqual(CARD_SHORT_TEXT_MAX);
  });

  it('accepts the snake_case spellings seen in some clients', () => {
    const card = viralPostCard({
      video_id: 'v1',
      video_url: 'https://v.example.com/1',
      thumbnail_url: 'https://v.example.com/1.jpg',
      virality_score: 0.3,
      music_title: 'Song',
      creator_username: '@maker',
      created_at: '2026-01-01T00:00:00',
    });
    expect(card).toMatchObject({
      postId: 'v1',
      videoUrl: 'https://v.example.com/1',
      thumbnailUrl: 'https://v.example.com/1.jpg',
      virality: 'above-average',
      musicTitle: 'Song',
      creatorUsername: 'maker',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('survives an empty post and missing URLs', () => {
    expect(viralPostCard({ videoUrl: 'not a url' })).toMatchObject({
      postId: null,
      videoUrl: null,
      viralityScore: null,
      virality: null,
      createdAt: null,
      actions: [],
    });
  });
});

describe('CRM rows', () => {
  it('maps a list with its counts and dates', () => {
    expect(
      listRow({
        id: 'l1',
        name: 'Spring Launch',
        description: 'Skincare\ncreators',
        budget: 5000,
        contact_count: 12,
        to_outreach_count: 3,
        start_date: '2026-01-01T00:00:00',
        end_date: null,
      }),
    ).toEqual({
      type: 'list-row',
      listId: 'l1',
      name: 'Spring Launch',
      description: 'Skincare creators',
      contactCount: 12,
      toOutreachCount: 3,
      budget: 5000,
      startDate: '2026-01-01',
      endDate: null,
      actions: [],
    });
  });

  it('maps a contact, normalizing the status case', () => {
    const row = contactRow({
      id: 'c1',
      list_id: 'l1',
      user_id: 'tiktok_1',
      status: 'negotiating',
      contact_email: 'bob@example.com',
      handle: '@bob',
      proposed_rate: 500,
      agreed_rate: null,
      notes: 'call\nlater',
      last_contact_date: '2026-03-09T08:00:00',
    });
    expect(row).toMatchObject({
      status: 'NEGOTIATING',
      handle: 'bob',
      email: 'bob@example.com',
      proposedRate: 500,
      agreedRate: null,
      notes: 'call later',
      lastContactDate: '2026-03-09',
    });
  });

  it('knows every CRM status and nothing else', () => {
    for (const status of CRM_STATUSES) {
      expect(normalizeCrmStatus(status.toLowerCase())).toBe(status);
      expect(CRM_STATUS_LABELS[status]).toMatch(/^[A-Z]/);
    }
    expect(normalizeCrmStatus('ARCHIVED')).toBeNull();
    expect(normalizeCrmStatus(null)).toBeNull();
  });

  it('survives empty rows', () => {
    expect(listRow({})).toMatchObject({ listId: null, name: null, contactCount: null, startDate: null });
    expect(contactRow({})).toMatchObject({
      contactId: null,
      status: null,
      email: null,
      lastContactDate: null,
    });
  });
});
