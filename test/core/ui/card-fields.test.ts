import { describe, expect, it } from 'vitest';
import {
  contactRowFields,
  contactRowTitle,
  creatorCardFields,
  creatorCardPlatform,
  creatorCardTitle,
  formatCount,
  formatVirality,
  listRowFields,
  listRowTitle,
  viralPostFields,
  viralPostTitle,
} from '../../../src/core/ui/card-fields.js';
import { contactRow, creatorCard, listRow, viralPostCard } from '../../../src/core/ui/cards.js';
import { CARD_TEXT_BUDGET } from '../../../src/core/ui/limits.js';
import type { Field } from '../../../src/core/ui/model.js';
import { HOSTILE_POST, HOSTILE_PROFILE, NOW, NULL_PROFILE } from './fixtures.js';

/** Field values by label. */
function byLabel(fields: readonly Field[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.label, f.value]));
}

describe('creator card fields', () => {
  const card = creatorCard(
    {
      handle: 'jane',
      nickname: 'Jane',
      source: 'youtube',
      followers: 1234,
      engagement_rate: 0.034,
      avg_views: 1_250_000,
      avg_likes: 999,
      country: 'Canada',
      language: 'french',
      main_category: 'Food',
      best_promotion_niches: ['baking', 'vegan'],
      email: 'j@example.com',
    },
    { fetchedAt: NOW - 3 * 3_600_000, now: NOW },
  );

  it('formats every fact once, the same way for all renderers', () => {
    expect(creatorCardTitle(card)).toBe('@jane · Jane');
    expect(creatorCardPlatform(card)).toBe('YouTube');
    expect(byLabel(creatorCardFields(card))).toEqual({
      Followers: '1.2K',
      Engagement: '3.4%',
      'Avg views': '1.3M',
      'Avg likes': '999',
      Country: 'Canada',
      Language: 'french',
      Category: 'Food',
      Email: 'on file',
      Data: '3 hours old',
      Niches: 'baking, vegan',
    });
  });

  it('shows the email only when the card carries it', () => {
    const revealed = creatorCard({ email: 'j@example.com' }, { fetchedAt: NOW, now: NOW, revealEmail: true });
    expect(byLabel(creatorCardFields(revealed)).Email).toBe('j@example.com');
  });

  it('dashes missing facts and falls back on names', () => {
    const empty = creatorCard(NULL_PROFILE, { fetchedAt: null, now: NOW });
    const values = byLabel(creatorCardFields(empty));
    expect(values.Followers).toBe('—');
    expect(values.Engagement).toBe('—');
    expect(values.Email).toBe('none');
    expect(values.Niches).toBe('—');
    expect(creatorCardTitle(empty)).toBe('Unknown creator');
    expect(creatorCardPlatform(empty)).toBeNull();
    expect(creatorCardTitle(creatorCard({ user_id: 'yt_1' }, { fetchedAt: null, now: NOW }))).toBe('yt_1');
    expect(
      creatorCardTitle(creatorCard({ handle: 'same', nickname: 'same' }, { fetchedAt: null, now: NOW })),
    ).toBe('@same');
  });
});

describe('viral post fields', () => {
  it('formats counts, virality and the date', () => {
    const card = viralPostCard({
      creatorUsername: 'maker',
      views: 4_000_000,
      likes: 250_000,
      comments: 1200,
      shares: 45,
      viralityScore: 0.8567,
      category: 'Humor',
      country: 'Brazil',
      musicTitle: 'Track',
      createdAt: '2026-03-01T10:00:00Z',
    });
    expect(viralPostTitle(card)).toBe('@maker');
    expect(byLabel(viralPostFields(card))).toEqual({
      Views: '4M',
      Likes: '250K',
      Comments: '1.2K',
      Shares: '45',
      Virality: '0.86 (Breakout)',
      Category: 'Humor',
      Country: 'Brazil',
      Music: 'Track',
      Posted: '2026-03-01',
    });
    expect(formatVirality({ viralityScore: null, virality: null })).toBe('—');
    expect(formatCount(null)).toBe('—');
    expect(viralPostTitle(viralPostCard({}))).toBe('Viral post');
  });
});

describe('CRM row fields', () => {
  it('formats list counts, budget and dates', () => {
    const row = listRow({
      name: 'Q3',
      contact_count: 1234,
      to_outreach_count: 0,
      budget: 2500.5,
      end_date: '2026-09-30',
    });
    expect(listRowTitle(row)).toBe('Q3');
    expect(byLabel(listRowFields(row))).toEqual({
      Contacts: '1,234',
      'To outreach': '0',
      Budget: '2,500.5',
      Dates: '… → 2026-09-30',
    });
    expect(listRowTitle(listRow({}))).toBe('Unnamed list');
    expect(byLabel(listRowFields(listRow({}))).Dates).toBe('—');
  });

  it('formats contact status and rates', () => {
    const row = contactRow({ handle: 'bob', status: 'DONE', proposed_rate: 1500, agreed_rate: 1250.75 });
    expect(contactRowTitle(row)).toBe('@bob');
    expect(byLabel(contactRowFields(row))).toMatchObject({
      Status: 'Done',
      Email: '—',
      Proposed: '1,500',
      Agreed: '1,250.75',
    });
    expect(contactRowTitle(contactRow({ user_id: 'ig_9' }))).toBe('ig_9');
    expect(contactRowTitle(contactRow({}))).toBe('Unknown creator');
  });
});

describe('card text budget', () => {
  /** Characters a renderer puts in one embed for a card: title, labels, values, links and body text. */
  function size(parts: ReadonlyArray<string | null>, fields: readonly Field[]): number {
    const text = parts.reduce((sum, part) => sum + (part?.length ?? 0), 0);
    return fields.reduce((sum, f) => sum + f.label.length + f.value.length, text);
  }

  it('keeps a worst-case creator card, email revealed, within the per-card budget', () => {
    const card = creatorCard(
      { ...HOSTILE_PROFILE, handle: 'h'.repeat(80), email: `${'e'.repeat(240)}@example.com` },
      { fetchedAt: 0, now: NOW, revealEmail: true },
    );
    expect(card.email).not.toBeNull();
    expect(card.profileUrl).not.toBeNull();
    const total = size(
      [creatorCardTitle(card), creatorCardPlatform(card), card.profileUrl],
      creatorCardFields(card),
    );
    expect(total).toBeLessThanOrEqual(CARD_TEXT_BUDGET);
  });

  it('keeps a worst-case viral post card within the per-card budget', () => {
    const card = viralPostCard(HOSTILE_POST);
    const total = size([viralPostTitle(card), card.caption, card.hook, card.videoUrl], viralPostFields(card));
    expect(total).toBeLessThanOrEqual(CARD_TEXT_BUDGET);
  });
});
