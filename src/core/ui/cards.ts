/**
 * Cards of creator profiles and viral posts from service data: what each card shows (title, link, facts, in
 * which order and how formatted) is decided here, once, and every renderer lays the card out the same way.
 * Input types are minimal structural views of the contract's objects; every member may be missing or null.
 */
import { card } from './builders.js';
import {
  engagementPercent,
  finiteOrNull,
  formatAge,
  formatCount,
  formatDate,
  formatPercent,
  type Instant,
  MISSING,
  safeUrl,
  shortText,
  singleLine,
} from './format.js';
import { CARD_LONG_TEXT_MAX, CARD_NICHES_MAX, CARD_SHORT_TEXT_MAX } from './limits.js';
import type { Button, CardNode } from './model.js';

/** A value a service may send, leave out or send as null. */
export type Maybe<T> = T | null | undefined;

/** The creator profile members a card uses (snake_case, as the service sends them). */
export interface CreatorProfileInput {
  readonly user_id?: Maybe<string>;
  readonly handle?: Maybe<string>;
  readonly nickname?: Maybe<string>;
  readonly source?: Maybe<string>;
  readonly followers?: Maybe<number>;
  readonly engagement_rate?: Maybe<number>;
  readonly avg_views?: Maybe<number>;
  readonly avg_likes?: Maybe<number>;
  readonly country?: Maybe<string>;
  readonly language?: Maybe<string>;
  readonly main_category?: Maybe<string>;
  readonly best_promotion_niches?: Maybe<readonly Maybe<string>[]>;
  readonly email?: Maybe<string>;
  readonly avatar_url?: Maybe<string>;
}

/** Options of `creatorCard`. */
export interface CreatorCardOptions {
  /** When the profile was fetched (from the service or the profile cache). */
  readonly fetchedAt: Maybe<Instant>;
  /** The current time, injected so the age is deterministic. */
  readonly now: Date | number;
  readonly actions?: readonly Button[];
  /** Put the email itself on the card; by default the card only says whether one is known. */
  readonly revealEmail?: boolean;
}

const PROFILE_URLS: Readonly<Record<string, (handle: string) => string>> = {
  tiktok: (h) => `https://www.tiktok.com/@${h}`,
  instagram: (h) => `https://www.instagram.com/${h}/`,
  youtube: (h) => `https://www.youtube.com/@${h}`,
  twitter: (h) => `https://x.com/${h}`,
  linkedin: (h) => `https://www.linkedin.com/in/${h}`,
  twitch: (h) => `https://www.twitch.tv/${h}`,
};

const PLATFORM_LABELS: Readonly<Record<string, string>> = {
  tiktok: 'TikTok',
  instagram: 'Instagram',
  youtube: 'YouTube',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  twitch: 'Twitch',
};

/** Display name of a platform (`source`); an unknown one is shown as given. */
export function platformLabel(platform: string): string {
  return PLATFORM_LABELS[platform.toLowerCase()] ?? platform;
}

/** A handle without leading "@" signs, or null. */
export function normalizeHandle(handle: Maybe<string>): string | null {
  return typeof handle === 'string'
    ? shortText(singleLine(handle).replace(/^@+/, ''), CARD_SHORT_TEXT_MAX)
    : null;
}

/** Public profile URL for a platform and handle, or null when the platform is unknown or the handle odd. */
export function profileUrl(platform: Maybe<string>, handle: Maybe<string>): string | null {
  return fullProfileUrl(platform, normalizeHandle(handle));
}

/**
 * Public profile URL for a platform and a handle taken as it is (no "@", not shortened for display, as data such
 * as an export needs), or null when the platform is unknown or the handle odd.
 */
export function fullProfileUrl(platform: Maybe<string>, bare: Maybe<string>): string | null {
  if (typeof platform !== 'string' || typeof bare !== 'string') return null;
  const build = PROFILE_URLS[platform.trim().toLowerCase()];
  // Only handles made of letters, digits, dot, dash and underscore: anything else is not a real handle.
  if (build === undefined || !/^[\p{L}\p{N}._-]+$/u.test(bare)) return null;
  return safeUrl(build(encodeURIComponent(bare)));
}

/** Virality band of a viral post (score 0..1): below 0.2, 0.2–0.5, 0.5–0.8, 0.8 and above. */
export type ViralityLevel = 'average' | 'above-average' | 'highly-viral' | 'breakout';

/** Virality band of a score 0..1: 0.2–0.5 above average, 0.5–0.8 highly viral, 0.8+ breakout. */
export function viralityLevel(score: Maybe<number>): ViralityLevel | null {
  const value = finiteOrNull(score);
  if (value === null) return null;
  if (value >= 0.8) return 'breakout';
  if (value >= 0.5) return 'highly-viral';
  if (value >= 0.2) return 'above-average';
  return 'average';
}

/** Display labels of the virality bands. */
export const VIRALITY_LABELS: Readonly<Record<ViralityLevel, string>> = {
  average: 'Average',
  'above-average': 'Above average',
  'highly-viral': 'Highly viral',
  breakout: 'Breakout',
};

/** Display label of a virality score, or null. */
export function viralityLabel(score: Maybe<number>): string | null {
  const level = viralityLevel(score);
  return level === null ? null : VIRALITY_LABELS[level];
}

/** A virality score with its band, "0.86 (Breakout)", or a dash. */
export function formatVirality(score: Maybe<number>): string {
  const value = finiteOrNull(score);
  const label = viralityLabel(value);
  return value === null || label === null ? MISSING : `${Number(value.toFixed(2))} (${label})`;
}

/** Longest valid email address (RFC 5321 path limit). */
const EMAIL_MAX = 254;

/** A displayable email: one line, at most EMAIL_MAX, with an "@"; never cut, since a cut address misleads. */
export function displayEmail(value: Maybe<string>): string | null {
  const line = typeof value === 'string' ? singleLine(value) : '';
  return line.length > EMAIL_MAX || !line.includes('@') ? null : line;
}

/** How a creator is named: "@handle · Nickname", falling back on whatever names the creator. */
function creatorTitle(handle: string | null, nickname: string | null, userId: string | null): string {
  const at = handle === null ? null : `@${handle}`;
  if (at !== null && nickname !== null && nickname !== handle) return `${at} · ${nickname}`;
  return at ?? nickname ?? userId ?? 'Unknown creator';
}

/** The first CARD_NICHES_MAX distinct niches of a profile. */
function nichesOf(profile: CreatorProfileInput): string[] {
  const niches: string[] = [];
  for (const niche of profile.best_promotion_niches ?? []) {
    const clean = shortText(niche, 40);
    if (clean !== null && !niches.includes(clean)) niches.push(clean);
    if (niches.length === CARD_NICHES_MAX) break;
  }
  return niches;
}

/**
 * A creator card from a profile: "@handle · Nickname" linking to the public profile, the platform, the avatar,
 * the audience facts and the age of the data. The email itself appears only with `revealEmail`; otherwise the
 * card says whether one is on file.
 */
export function creatorCard(profile: CreatorProfileInput, options: CreatorCardOptions): CardNode {
  const handle = normalizeHandle(profile.handle);
  const platform = shortText(profile.source, 40)?.toLowerCase() ?? null;
  const title = creatorTitle(
    handle,
    shortText(profile.nickname, CARD_SHORT_TEXT_MAX),
    shortText(profile.user_id, 100),
  );
  const email =
    (options.revealEmail === true ? displayEmail(profile.email) : null) ??
    (shortText(profile.email, EMAIL_MAX) === null ? 'none' : 'on file');
  const engagement = engagementPercent(profile.engagement_rate);
  const niches = nichesOf(profile);
  const short = (value: Maybe<string>) => shortText(value, CARD_SHORT_TEXT_MAX);
  return card({
    title,
    link: { url: profileUrl(platform, handle), label: 'Profile' },
    subtitle: platform === null ? null : platformLabel(platform),
    image: { url: profile.avatar_url, alt: title },
    fields: [
      { label: 'Followers', value: formatCount(profile.followers), inline: true },
      {
        label: 'Engagement',
        value: engagement === null ? MISSING : formatPercent(engagement),
        inline: true,
      },
      { label: 'Avg views', value: formatCount(profile.avg_views), inline: true },
      { label: 'Avg likes', value: formatCount(profile.avg_likes), inline: true },
      { label: 'Country', value: short(profile.country), inline: true },
      { label: 'Language', value: short(profile.language), inline: true },
      { label: 'Category', value: short(profile.main_category), inline: true },
      { label: 'Email', value: email, inline: true },
      { label: 'Niches', value: niches.length === 0 ? MISSING : niches.join(', ') },
    ],
    footnote: `Data: ${formatAge(options.fetchedAt, options.now)}`,
    actions: options.actions,
  });
}

/** The viral post members a card uses; snake_case spellings seen in some clients are accepted too. */
export interface ViralPostInput {
  readonly id?: Maybe<string>;
  readonly video_id?: Maybe<string>;
  readonly videoUrl?: Maybe<string>;
  readonly video_url?: Maybe<string>;
  readonly thumbnailUrl?: Maybe<string>;
  readonly thumbnail_url?: Maybe<string>;
  readonly caption?: Maybe<string>;
  readonly views?: Maybe<number>;
  readonly likes?: Maybe<number>;
  readonly comments?: Maybe<number>;
  readonly shares?: Maybe<number>;
  readonly viralityScore?: Maybe<number>;
  readonly virality_score?: Maybe<number>;
  readonly category?: Maybe<string>;
  readonly country?: Maybe<string>;
  readonly musicTitle?: Maybe<string>;
  readonly music_title?: Maybe<string>;
  readonly creatorUsername?: Maybe<string>;
  readonly creator_username?: Maybe<string>;
  readonly hook?: Maybe<string>;
  readonly createdAt?: Maybe<string>;
  readonly created_at?: Maybe<string>;
}

/**
 * A viral post card: "@creator" linking to the video, the thumbnail, the caption and hook, the counts, the
 * virality score with its band and when it was posted.
 */
export function viralPostCard(
  post: ViralPostInput,
  options: { readonly actions?: readonly Button[] } = {},
): CardNode {
  const creator = normalizeHandle(post.creatorUsername ?? post.creator_username);
  const title = creator === null ? 'Viral post' : `@${creator}`;
  const hook = shortText(post.hook, CARD_LONG_TEXT_MAX);
  const short = (value: Maybe<string>) => shortText(value, CARD_SHORT_TEXT_MAX);
  return card({
    title,
    link: { url: post.videoUrl ?? post.video_url, label: 'Video' },
    image: { url: post.thumbnailUrl ?? post.thumbnail_url, alt: title },
    body: [shortText(post.caption, CARD_LONG_TEXT_MAX), hook === null ? null : `Hook: ${hook}`],
    fields: [
      { label: 'Views', value: formatCount(post.views), inline: true },
      { label: 'Likes', value: formatCount(post.likes), inline: true },
      { label: 'Comments', value: formatCount(post.comments), inline: true },
      { label: 'Shares', value: formatCount(post.shares), inline: true },
      { label: 'Virality', value: formatVirality(post.viralityScore ?? post.virality_score), inline: true },
      { label: 'Category', value: short(post.category), inline: true },
      { label: 'Country', value: short(post.country), inline: true },
      { label: 'Music', value: short(post.musicTitle ?? post.music_title), inline: true },
      { label: 'Posted', value: formatDate(post.createdAt ?? post.created_at), inline: true },
    ],
    actions: options.actions,
  });
}
