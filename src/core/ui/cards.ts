/**
 * Card and row builders from service data (creator profiles, viral posts, CRM lists and contacts).
 * Input types are minimal structural views of the contract's objects; every member may be missing or null.
 */
import { CRM_STATUSES, type CrmStatus } from '../service/enums.js';
import { checkButtonRow } from './builders.js';
import {
  engagementPercent,
  finiteOrNull,
  formatAge,
  formatDate,
  type Instant,
  safeUrl,
  shortText,
  singleLine,
  toIsoString,
} from './format.js';
import { CARD_LONG_TEXT_MAX, CARD_NICHES_MAX, CARD_SHORT_TEXT_MAX } from './limits.js';
import type {
  Button,
  ContactRowNode,
  CreatorCardNode,
  ListRowNode,
  ViralityLevel,
  ViralPostCardNode,
} from './model.js';

type Maybe<T> = T | null | undefined;

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

/** Display labels of the CRM statuses. */
export const CRM_STATUS_LABELS: Readonly<Record<CrmStatus, string>> = {
  TO_OUTREACH: 'To outreach',
  OUTREACHED: 'Outreached',
  NEGOTIATING: 'Negotiating',
  WORKING: 'Working',
  DONE: 'Done',
  CANCELLED: 'Cancelled',
};

/** A CRM status in any letter case (the service accepts any), upper-cased; null when unknown. */
export function normalizeCrmStatus(status: Maybe<string>): CrmStatus | null {
  if (typeof status !== 'string') return null;
  const upper = status.trim().toUpperCase();
  return CRM_STATUSES.find((known) => known === upper) ?? null;
}

/** Longest valid email address (RFC 5321 path limit). */
const EMAIL_MAX = 254;

/** A displayable email: one line, at most EMAIL_MAX, with an "@"; never cut, since a cut address misleads. */
function cleanEmail(value: Maybe<string>): string | null {
  const line = typeof value === 'string' ? singleLine(value) : '';
  return line.length > EMAIL_MAX || !line.includes('@') ? null : line;
}

/** Card actions: at most one row of buttons with distinct tokens. */
function cardActions(actions: readonly Button[] | undefined): readonly Button[] {
  return checkButtonRow(actions ?? []);
}

/** A creator card from a profile; the email appears only with `revealEmail`. */
export function creatorCard(profile: CreatorProfileInput, options: CreatorCardOptions): CreatorCardNode {
  const handle = normalizeHandle(profile.handle);
  const platform = shortText(profile.source, 40)?.toLowerCase() ?? null;
  const email = cleanEmail(profile.email);
  const niches: string[] = [];
  for (const niche of profile.best_promotion_niches ?? []) {
    const clean = shortText(niche, 40);
    if (clean !== null && !niches.includes(clean)) niches.push(clean);
    if (niches.length === CARD_NICHES_MAX) break;
  }
  return {
    type: 'creator-card',
    userId: shortText(profile.user_id, 100),
    handle,
    nickname: shortText(profile.nickname, CARD_SHORT_TEXT_MAX),
    platform,
    avatarUrl: safeUrl(profile.avatar_url),
    profileUrl: profileUrl(platform, handle),
    followers: finiteOrNull(profile.followers),
    engagementPercent: engagementPercent(profile.engagement_rate),
    avgViews: finiteOrNull(profile.avg_views),
    avgLikes: finiteOrNull(profile.avg_likes),
    country: shortText(profile.country, CARD_SHORT_TEXT_MAX),
    language: shortText(profile.language, CARD_SHORT_TEXT_MAX),
    mainCategory: shortText(profile.main_category, CARD_SHORT_TEXT_MAX),
    niches,
    emailKnown: shortText(profile.email, EMAIL_MAX) !== null,
    email: options.revealEmail === true ? email : null,
    fetchedAt: toIsoString(options.fetchedAt),
    dataAge: formatAge(options.fetchedAt, options.now),
    actions: cardActions(options.actions),
  };
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

/** A viral post card. */
export function viralPostCard(
  post: ViralPostInput,
  options: { readonly actions?: readonly Button[] } = {},
): ViralPostCardNode {
  const score = finiteOrNull(post.viralityScore ?? post.virality_score);
  return {
    type: 'viral-post-card',
    postId: shortText(post.id ?? post.video_id, 100),
    thumbnailUrl: safeUrl(post.thumbnailUrl ?? post.thumbnail_url),
    videoUrl: safeUrl(post.videoUrl ?? post.video_url),
    caption: shortText(post.caption, CARD_LONG_TEXT_MAX),
    creatorUsername: normalizeHandle(post.creatorUsername ?? post.creator_username),
    views: finiteOrNull(post.views),
    likes: finiteOrNull(post.likes),
    comments: finiteOrNull(post.comments),
    shares: finiteOrNull(post.shares),
    viralityScore: score,
    virality: viralityLevel(score),
    category: shortText(post.category, CARD_SHORT_TEXT_MAX),
    country: shortText(post.country, CARD_SHORT_TEXT_MAX),
    musicTitle: shortText(post.musicTitle ?? post.music_title, CARD_SHORT_TEXT_MAX),
    hook: shortText(post.hook, CARD_LONG_TEXT_MAX),
    createdAt: toIsoString(post.createdAt ?? post.created_at),
    actions: cardActions(options.actions),
  };
}

/** The CRM list members a row uses. */
export interface CrmListInput {
  readonly id?: Maybe<string>;
  readonly name?: Maybe<string>;
  readonly description?: Maybe<string>;
  readonly budget?: Maybe<number>;
  readonly contact_count?: Maybe<number>;
  readonly to_outreach_count?: Maybe<number>;
  readonly start_date?: Maybe<string>;
  readonly end_date?: Maybe<string>;
}

/** A CRM list row. */
export function listRow(
  list: CrmListInput,
  options: { readonly actions?: readonly Button[] } = {},
): ListRowNode {
  return {
    type: 'list-row',
    listId: shortText(list.id, 100),
    name: shortText(list.name, CARD_SHORT_TEXT_MAX),
    description: shortText(list.description, CARD_LONG_TEXT_MAX),
    contactCount: finiteOrNull(list.contact_count),
    toOutreachCount: finiteOrNull(list.to_outreach_count),
    budget: finiteOrNull(list.budget),
    startDate: formatDate(list.start_date),
    endDate: formatDate(list.end_date),
    actions: cardActions(options.actions),
  };
}

/** The CRM contact members a row uses. */
export interface CrmContactInput {
  readonly id?: Maybe<string>;
  readonly list_id?: Maybe<string>;
  readonly user_id?: Maybe<string>;
  readonly status?: Maybe<string>;
  readonly contact_email?: Maybe<string>;
  readonly handle?: Maybe<string>;
  readonly proposed_rate?: Maybe<number>;
  readonly agreed_rate?: Maybe<number>;
  readonly content_deliverables?: Maybe<string>;
  readonly notes?: Maybe<string>;
  readonly last_contact_date?: Maybe<string>;
}

/** A CRM contact row; the contact email is the team's own CRM data, so it is shown. */
export function contactRow(
  contact: CrmContactInput,
  options: { readonly actions?: readonly Button[] } = {},
): ContactRowNode {
  return {
    type: 'contact-row',
    contactId: shortText(contact.id, 100),
    listId: shortText(contact.list_id, 100),
    userId: shortText(contact.user_id, 100),
    handle: normalizeHandle(contact.handle),
    status: normalizeCrmStatus(contact.status),
    email: cleanEmail(contact.contact_email),
    proposedRate: finiteOrNull(contact.proposed_rate),
    agreedRate: finiteOrNull(contact.agreed_rate),
    deliverables: shortText(contact.content_deliverables, CARD_LONG_TEXT_MAX),
    notes: shortText(contact.notes, CARD_LONG_TEXT_MAX),
    lastContactDate: formatDate(contact.last_contact_date),
    actions: cardActions(options.actions),
  };
}
