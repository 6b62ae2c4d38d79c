import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_TYPES,
  AGE_GROUPS,
  BODY_COMPLEXIONS,
  CONTENT_FORMATS,
  CONTENT_TONES,
  COUNTRIES,
  GENDERS,
  HAIR_COLORS,
  LANGUAGES,
  MAIN_CATEGORIES,
  RACES,
  V1_PLATFORMS,
  VISUAL_STYLES,
} from '../../../src/core/service/enums.js';
import { createWorld } from '../../../src/sandbox/data/world.js';
import { isoWeekOf } from '../../../src/sandbox/time.js';
import { FIXED_NOW } from '../fixture.js';

const world = createWorld(7, FIXED_NOW);
const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const loose = (value: string) => value.toLowerCase().replace(/\s+hair$/, '');

describe('seeded creators', () => {
  const creators = world.creators();

  it('holds at least 5,000 creators with unique, platform-shaped ids', () => {
    expect(creators.length).toBeGreaterThanOrEqual(5000);
    expect(new Set(creators.map((c) => c.user_id)).size).toBe(creators.length);
    const shapes: Record<string, RegExp> = {
      instagram: /^instagram_\d{11}$/,
      tiktok: /^tiktok_\d{19}$/,
      youtube: /^youtube_UC[\w-]{22}$/,
      twitter: /^twitter_\d{18}$/,
      linkedin: /^linkedin_[a-z]+-[a-z]+-[0-9a-f]{6}$/,
      twitch: /^twitch_\d{9}$/,
    };
    expect(creators.filter((c) => !shapes[c.source]?.test(c.user_id))).toEqual([]);
  });

  it('covers every value of every creator enumeration', () => {
    const values = (pick: (c: (typeof creators)[number]) => string) => new Set(creators.map(pick));
    expect(values((c) => c.main_category)).toEqual(new Set(MAIN_CATEGORIES));
    expect(values((c) => c.country)).toEqual(new Set(COUNTRIES));
    expect(values((c) => c.language)).toEqual(new Set(LANGUAGES));
    expect(values((c) => c.source)).toEqual(new Set(V1_PLATFORMS));
    expect(values((c) => c.age)).toEqual(new Set(AGE_GROUPS));
    expect(values((c) => c.gender)).toEqual(new Set(GENDERS));
    expect(values((c) => c.account_type)).toEqual(new Set(ACCOUNT_TYPES));
    expect(values((c) => loose(c.race))).toEqual(new Set(RACES.map(loose)));
    expect(values((c) => loose(c.hair_color))).toEqual(new Set(HAIR_COLORS.map(loose)));
    expect(values((c) => loose(c.body_complexion))).toEqual(new Set(BODY_COMPLEXIONS.map(loose)));
    // Profiles spell some values differently from the filters, as the live service does.
    expect(creators.some((c) => c.race !== c.race.toLowerCase())).toBe(true);
    expect(creators.some((c) => c.race === c.race.toLowerCase())).toBe(true);
  });

  it('draws realistic audiences and contact data', () => {
    const followers = creators.map((c) => c.followers).sort((a, b) => a - b);
    expect(followers[0]).toBeGreaterThanOrEqual(1000);
    expect(followers[followers.length - 1]).toBeLessThanOrEqual(10_000_000);
    const median = followers[Math.floor(followers.length / 2)] as number;
    expect(median).toBeGreaterThan(10_000);
    expect(median).toBeLessThan(200_000);
    expect(followers.filter((f) => f > 1_000_000).length).toBeGreaterThan(20);
    const rates = creators.map((c) => c.engagement_rate);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(0.005);
    expect(Math.max(...rates)).toBeLessThanOrEqual(0.15);
    expect(Math.max(...creators.map((c) => c.date_created_timestamp * 1000))).toBeLessThanOrEqual(FIXED_NOW);
    const withEmail = creators.filter((c) => c.email !== null).length / creators.length;
    expect(withEmail).toBeGreaterThan(0.55);
    expect(withEmail).toBeLessThan(0.65);
  });
});

describe('seeded viral posts', () => {
  const posts = world.viralPosts();

  it('holds 2,000 posts over the last 60 days, newest first', () => {
    expect(posts).toHaveLength(2000);
    const times = posts.map((p) => Date.parse(p.createdAt));
    expect(Math.max(...times)).toBeLessThanOrEqual(FIXED_NOW);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(FIXED_NOW - 60 * 86_400_000);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('covers every format, tone, style, category and country', () => {
    expect(new Set(posts.map((p) => p.contentFormat))).toEqual(new Set(CONTENT_FORMATS));
    expect(new Set(posts.map((p) => p.contentTone))).toEqual(new Set(CONTENT_TONES));
    expect(new Set(posts.map((p) => p.visualStyle))).toEqual(new Set(VISUAL_STYLES));
    expect(new Set(posts.map((p) => p.category))).toEqual(new Set(MAIN_CATEGORIES));
    expect(new Set(posts.map((p) => p.country))).toEqual(new Set(COUNTRIES));
    expect(posts.filter((p) => p.viralityScore < 0 || p.viralityScore > 1)).toEqual([]);
  });
});

describe('seeded song charts', () => {
  const charts = world.songs();

  it('charts at least 10 countries over 12 ISO weeks ending last week', () => {
    expect(charts.countries.length).toBeGreaterThanOrEqual(10);
    for (const c of charts.countries) expect(c.code).toMatch(/^[A-Z]{2}$/);
    expect(charts.weeks).toHaveLength(12);
    for (const w of charts.weeks) expect(w).toMatch(/^\d{4}-W\d{2}$/);
    expect(charts.weeks[11]).toBe(isoWeekOf(FIXED_NOW - 7 * 86_400_000));
  });

  it('keeps song ids stable across weeks, so runs and previous ranks line up', () => {
    const [previousWeek, week] = charts.weeks.slice(-2) as [string, string];
    const previous = new Map((charts.chart('US', previousWeek) ?? []).map((e) => [e.id, e]));
    const current = charts.chart('US', week) ?? [];
    expect(current.length).toBe(50);
    const carried = current.filter((e) => previous.has(e.id));
    expect(carried.length).toBeGreaterThan(20);
    for (const entry of current) {
      expect(entry.previous_rank).toBe(previous.get(entry.id)?.rank ?? null);
      expect(entry.peak_rank).toBeLessThanOrEqual(entry.rank);
      expect(charts.history(entry.id, 'US').length).toBe(entry.weeks_on_chart);
    }
  });
});

describe('seeded teams', () => {
  const team = world.team('team_a', 'Ada');

  it('links agent projects to the team CRM lists and keeps conversation histories', () => {
    const listIds = new Set(team.lists.map((l) => l.id));
    expect(team.projects.length).toBeGreaterThanOrEqual(3);
    for (const p of team.projects) {
      expect(p.id).toMatch(/^[0-9a-f]{24}$/);
      if (p.campaign_id !== null) expect(listIds.has(p.campaign_id)).toBe(true);
    }
    expect(team.projects.some((p) => p.campaign_id !== null)).toBe(true);
    const inbound = team.messages.filter((m) => m.direction === 'inbound');
    expect(inbound.length).toBeGreaterThan(0);
    expect(team.messages.some((m) => m.is_follow_up && m.follow_up_number > 0)).toBe(true);
    for (const reply of inbound) {
      const thread = team.messages.filter((m) => m.thread_id === reply.thread_id);
      expect(thread[0]?.direction).toBe('outbound');
      expect(reply.parent_message_id).not.toBeNull();
    }
    expect(team.contacts.every((c) => listIds.has(c.list_id))).toBe(true);
  });

  it('gives each team its own data', () => {
    const other = world.team('team_b');
    expect(other.projects.map((p) => p.id)).not.toEqual(team.projects.map((p) => p.id));
    expect(other.lists.every((l) => l.team_id === 'team_b')).toBe(true);
  });
});

describe('determinism', () => {
  it('generates the same data from the same seed and clock, other data from another seed', () => {
    const again = createWorld(7, FIXED_NOW);
    expect(digest(again.creators())).toBe(digest(world.creators()));
    expect(digest(again.viralPosts())).toBe(digest(world.viralPosts()));
    expect(digest(again.songs().chart('GB', again.songs().weeks[5] ?? ''))).toBe(
      digest(world.songs().chart('GB', world.songs().weeks[5] ?? '')),
    );
    expect(digest(again.team('team_a', 'Ada').messages)).toBe(
      digest(createWorld(7, FIXED_NOW).team('team_a', 'Ada').messages),
    );
    const other = createWorld(8, FIXED_NOW);
    expect(digest(other.creators())).not.toBe(digest(world.creators()));
    expect(digest(other.viralPosts())).not.toBe(digest(world.viralPosts()));
  });
});
