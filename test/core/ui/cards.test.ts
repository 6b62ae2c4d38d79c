import { describe, expect, it } from 'vitest';
import { button } from '../../../src/core/ui/builders.js';
import {
  creatorCard,
  formatVirality,
  normalizeHandle,
  platformLabel,
  profileUrl,
  viralityLabel,
  viralityLevel,
  viralPostCard,
} from '../../../src/core/ui/cards.js';
import {
  CARD_LONG_TEXT_MAX,
  CARD_NICHES_MAX,
  CARD_SHORT_TEXT_MAX,
  CARD_TEXT_BUDGET,
} from '../../../src/core/ui/limits.js';
import type { CardNode } from '../../../src/core/ui/model.js';
import {
  byLabel,
  HOSTILE_POST,
  HOSTILE_PROFILE,
  hostileButtons,
  NOW,
  NULL_PROFILE,
  unsafeChars,
} from './fixtures.js';

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

  it('shows a profile: name, link, platform, avatar, facts in order and the age of the data', () => {
    const card = creatorCard(profile, {
      fetchedAt: NOW - 2 * 86_400_000,
      now: NOW,
      actions: [button('Add to list', 'crm.add:1', { style: 'primary' })],
    });
    expect(card).toEqual<CardNode>({
      type: 'card',
      title: '@jane.doe · Jane Doe',
      link: { url: 'https://www.tiktok.com/@jane.doe', label: 'Profile' },
      subtitle: 'TikTok',
      body: [],
      image: { url: 'https://cdn.example.com/jane.jpg', alt: '@jane.doe · Jane Doe' },
      fields: [
        { label: 'Followers', value: '1.3M', inline: true },
        // The profile's fraction shown as a percentage.
        { label: 'Engagement', value: '3.4%', inline: true },
        { label: 'Avg views', value: '250K', inline: true },
        { label: 'Avg likes', value: '12.5K', inline: true },
        { label: 'Country', value: 'United States', inline: true },
        { label: 'Language', value: 'english', inline: true },
        { label: 'Category', value: 'Beauty & Personal Care', inline: true },
        { label: 'Email', value: 'on file', inline: true },
        { label: 'Niches', value: 'skincare, makeup' },
      ],
      footnote: 'Data: 2 days old',
      actions: [{ label: 'Add to list', actionId: 'crm.add:1', style: 'primary' }],
    });
  });

  it('never carries the email unless asked to reveal it', () => {
    const hidden = creatorCard(profile, { fetchedAt: NOW, now: NOW });
    expect(strings(hidden).join(' ')).not.toContain('jane@example.com');
    const shown = creatorCard(profile, { fetchedAt: NOW, now: NOW, revealEmail: true });
    expect(byLabel(shown.fields).Email).toBe('jane@example.com');
    const none = creatorCard({ ...profile, email: null }, { fetchedAt: NOW, now: NOW, revealEmail: true });
    expect(byLabel(none.fields).Email).toBe('none');
  });

  it('survives nulls everywhere and an empty profile, with dashes and a generic name', () => {
    for (const input of [NULL_PROFILE, {}]) {
      const card = creatorCard(input, { fetchedAt: null, now: NOW });
      expect(card).toMatchObject({
        title: 'Unknown creator',
        link: null,
        subtitle: null,
        image: null,
        footnote: 'Data: age unknown',
        actions: [],
      });
      expect(byLabel(card.fields)).toMatchObject({
        Followers: '—',
        Engagement: '—',
        Country: '—',
        Email: 'none',
        Niches: '—',
      });
    }
  });

  it('names a creator by handle, nickname or id', () => {
    const titleOf = (input: Parameters<typeof creatorCard>[0]) =>
      creatorCard(input, { fetchedAt: null, now: NOW }).title;
    expect(titleOf({ user_id: 'yt_1' })).toBe('yt_1');
    expect(titleOf({ handle: 'same', nickname: 'same' })).toBe('@same');
    expect(titleOf({ nickname: 'Only Nick', user_id: 'yt_1' })).toBe('Only Nick');
    expect(creatorCard({ source: 'newplatform' }, { fetchedAt: null, now: NOW }).subtitle).toBe(
      'newplatform',
    );
  });

  it('cleans and caps hostile content', () => {
    const card = creatorCard(HOSTILE_PROFILE, {
      fetchedAt: NOW,
      now: NOW,
      actions: hostileButtons('a'),
      revealEmail: true,
    });
    for (const value of strings({ ...card, actions: [] })) {
      expect(unsafeChars(value, true)).toEqual([]);
      expect(value.length).toBeLessThanOrEqual(CARD_LONG_TEXT_MAX);
    }
    // A 300-character address is not a real one: known, but never shown cut.
    expect(byLabel(card.fields).Email).toBe('on file');
    const [handle = '', nickname = ''] = card.title.split(' · ');
    expect(handle.startsWith('@@')).toBe(false);
    expect(handle.length).toBeLessThanOrEqual(CARD_SHORT_TEXT_MAX + 1);
    expect(nickname.length).toBeLessThanOrEqual(CARD_SHORT_TEXT_MAX);
    expect(byLabel(card.fields).Niches?.split(', ')).toHaveLength(CARD_NICHES_MAX);
    // A handle that is not a real one gives no profile link.
    expect(card.link).toBeNull();
    expect(card.image?.url).toMatch(/^https:\/\/cdn\.example\.com\//);
    expect(card.actions).toHaveLength(5);
  });

  it('deduplicates niches and skips blank ones', () => {
    const card = creatorCard(
      { best_promotion_niches: ['fitness', null, ' ', 'fitness', 'yoga\n'] },
      { fetchedAt: NOW, now: NOW },
    );
    expect(byLabel(card.fields).Niches).toBe('fitness, yoga');
  });

  it('rejects more actions than one row holds', () => {
    const six = Array.from({ length: 6 }, (_, i) => button(`B${i}`, `b.${i}`));
    expect(() => creatorCard(profile, { fetchedAt: NOW, now: NOW, actions: six })).toThrow(RangeError);
  });

  it('drops unsafe avatar URLs', () => {
    const card = creatorCard({ avatar_url: 'javascript:alert(1)' }, { fetchedAt: NOW, now: NOW });
    expect(card.image).toBeNull();
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
  it('shows a post: creator, video link, thumbnail, caption and hook, counts, virality and date', () => {
    const card = viralPostCard(
      {
        creatorUsername: 'maker',
        videoUrl: 'https://v.example.com/1',
        thumbnailUrl: 'https://v.example.com/1.jpg',
        caption: 'Wait\nfor it',
        hook: 'You will not believe',
        views: 4_000_000,
        likes: 250_000,
        comments: 1200,
        shares: 45,
        viralityScore: 0.8567,
        category: 'Humor',
        country: 'Brazil',
        musicTitle: 'Track',
        createdAt: '2026-03-01T10:00:00Z',
      },
      { actions: [button('Find creator', 'v.find')] },
    );
    expect(card).toEqual<CardNode>({
      type: 'card',
      title: '@maker',
      link: { url: 'https://v.example.com/1', label: 'Video' },
      subtitle: null,
      body: ['Wait for it', 'Hook: You will not believe'],
      image: { url: 'https://v.example.com/1.jpg', alt: '@maker' },
      fields: [
        { label: 'Views', value: '4M', inline: true },
        { label: 'Likes', value: '250K', inline: true },
        { label: 'Comments', value: '1.2K', inline: true },
        { label: 'Shares', value: '45', inline: true },
        { label: 'Virality', value: '0.86 (Breakout)', inline: true },
        { label: 'Category', value: 'Humor', inline: true },
        { label: 'Country', value: 'Brazil', inline: true },
        { label: 'Music', value: 'Track', inline: true },
        { label: 'Posted', value: '2026-03-01', inline: true },
      ],
      footnote: null,
      actions: [{ label: 'Find creator', actionId: 'v.find', style: 'secondary' }],
    });
  });

  it('caps hostile content', () => {
    const card = viralPostCard(HOSTILE_POST, { actions: hostileButtons('v') });
    const [caption = '', hook = ''] = card.body;
    expect(caption.length).toBeLessThanOrEqual(CARD_LONG_TEXT_MAX);
    expect(caption).not.toContain('\n');
    expect(hook.startsWith('Hook: ')).toBe(true);
    expect(card.title.length).toBeLessThanOrEqual(CARD_SHORT_TEXT_MAX + 1);
    expect(byLabel(card.fields).Posted).toBe('2026-03-01');
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
      title: '@maker',
      link: { url: 'https://v.example.com/1' },
      image: { url: 'https://v.example.com/1.jpg' },
    });
    expect(byLabel(card.fields)).toMatchObject({
      Virality: '0.3 (Above average)',
      Music: 'Song',
      Posted: '2026-01-01',
    });
  });

  it('survives an empty post and missing URLs', () => {
    const card = viralPostCard({ videoUrl: 'not a url' });
    expect(card).toMatchObject({ title: 'Viral post', link: null, image: null, body: [], actions: [] });
    expect(byLabel(card.fields)).toMatchObject({ Views: '—', Virality: '—', Posted: '—' });
    expect(formatVirality(null)).toBe('—');
  });
});

describe('card text budget', () => {
  /** Characters a renderer puts in one embed for a card: title, link, lines, labels and values. */
  function size(card: CardNode): number {
    const parts = [card.title, card.subtitle, card.link?.url, card.footnote, ...card.body];
    const text = parts.reduce((sum, part) => sum + (part?.length ?? 0), 0);
    return card.fields.reduce((sum, f) => sum + f.label.length + f.value.length, text);
  }

  it('keeps a worst-case creator card, email revealed, within the per-card budget', () => {
    const card = creatorCard(
      { ...HOSTILE_PROFILE, handle: 'h'.repeat(80), email: `${'e'.repeat(240)}@example.com` },
      { fetchedAt: 0, now: NOW, revealEmail: true },
    );
    expect(byLabel(card.fields).Email).toContain('@example.com');
    expect(card.link).not.toBeNull();
    expect(size(card)).toBeLessThanOrEqual(CARD_TEXT_BUDGET);
  });

  it('keeps a worst-case viral post card within the per-card budget', () => {
    expect(size(viralPostCard(HOSTILE_POST))).toBeLessThanOrEqual(CARD_TEXT_BUDGET);
  });
});
