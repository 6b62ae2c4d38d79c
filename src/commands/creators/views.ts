/** How creators are shown: a card with its buttons, and the full profile of the Details view. */
import type { CommandContext } from '../../core/command/types.js';
import type { CreatorProfile } from '../../core/service/creators.js';
import {
  type Button,
  bold,
  button,
  type CardNode,
  creatorCard,
  engagementPercent,
  fields,
  formatAmount,
  formatDate,
  formatPercent,
  normalizeHandle,
  type ReplyNode,
  text,
  truncate,
} from '../../core/ui/index.js';
import type { ProfileEntry } from './profiles-cache.js';

/** Element kinds of the creators family. */
export const KINDS = {
  /** Previous / next page of a result. */
  page: 'creators.page',
  /** Add one creator, or a page of them, to a CRM list: without a value it offers the lists, else it adds. */
  add: 'creators.add',
  /** A page's multi-select of creators: the chosen ones are added as Add to list adds (a list named, or asked). */
  choose: 'creators.choose',
  /** Create the list a person named and add the creators to it: offered when no list has that name. */
  createAdd: 'creators.create-add',
  /** The full profile of a creator. */
  details: 'creators.details',
  /** Look up the creator a profile link names (a link unfurl's button): the cached card, else a free search. */
  lookup: 'creators.lookup',
} as const;

/** What the Add and Details buttons carry. */
export interface CreatorRef {
  userId: string;
  handle: string | null;
}

/** A creator reference from a profile. */
export function refOf(profile: CreatorProfile): CreatorRef {
  return { userId: profile.user_id, handle: normalizeHandle(profile.handle) };
}

/** The buttons of a creator card: Add to list, and Details unless the details are shown already. */
export function cardButtons(ctx: CommandContext, profile: CreatorProfile, withDetails: boolean): Button[] {
  const ref = refOf(profile);
  const row = [button('Add to list', ctx.token(KINDS.add, ref), { style: 'primary' })];
  if (withDetails) row.push(button('Details', ctx.token(KINDS.details, ref)));
  return row;
}

/**
 * What Add all on this page carries: the creator ids of the page, added in one request; `chosen`: those chosen in
 * the page's multi-select.
 */
export interface PageRef {
  userIds: string[];
  scope?: 'chosen' | undefined;
}

/** A creator card with its buttons and the age of its data. */
export function cardOf(ctx: CommandContext, entry: ProfileEntry, withDetails = true): CardNode {
  return creatorCard(entry.profile, {
    fetchedAt: entry.fetchedAt,
    now: ctx.clock.now(),
    actions: cardButtons(ctx, entry.profile, withDetails),
  });
}

type Maybe<T> = T | null | undefined;

const joined = (values: Maybe<readonly Maybe<string>[]>, prefix = '') => {
  const kept = (values ?? []).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return kept.length === 0 ? null : kept.map((v) => `${prefix}${v.replace(/^#/, '')}`).join(', ');
};

const numberOr = (value: Maybe<number>, unit = '') =>
  typeof value === 'number' && Number.isFinite(value) ? `${formatAmount(value)}${unit}` : '—';

function websitesOf(profile: CreatorProfile): string | null {
  const urls = new Set<string>();
  if (typeof profile.main_website === 'string' && profile.main_website !== '') urls.add(profile.main_website);
  for (const site of profile.websites ?? []) {
    if (typeof site === 'string') urls.add(site);
    else if (typeof site === 'object' && site !== null && 'url' in site && typeof site.url === 'string') {
      urls.add(site.url);
    }
  }
  return urls.size === 0 ? null : [...urls].join('\n');
}

const BIO_MAX = 600;

/** The full profile: the card (email shown) and every profile fact the service returned. */
export function detailNodes(
  ctx: CommandContext,
  entry: ProfileEntry,
  actions: readonly Button[],
): ReplyNode[] {
  const p = entry.profile;
  const card = creatorCard(p, {
    fetchedAt: entry.fetchedAt,
    now: ctx.clock.now(),
    actions,
    revealEmail: true,
  });
  const duration = p.avg_video_duration_seconds;
  const percent = engagementPercent(p.engagement_rate);
  const engagement = percent === null ? '—' : formatPercent(percent);
  return [
    card,
    p.bio ? text(bold('Bio'), `: ${truncate(p.bio, BIO_MAX)}`) : null,
    p.description ? text(bold('About'), `: ${truncate(p.description, BIO_MAX)}`) : null,
    fields([
      { label: 'Email', value: p.email ?? 'not known' },
      { label: 'Categories', value: joined([p.main_category, ...(p.categories ?? [])].filter(unique())) },
      { label: 'Websites', value: websitesOf(p) },
      { label: 'Promoted products', value: joined(p.promoted_products) },
      { label: 'Best niches to promote', value: joined(p.best_promotion_niches) },
      { label: 'Hashtags', value: joined(p.hashtags, '#') },
      {
        label: 'Cadence',
        value: `${numberOr(p.uploads_per_week)} a week · ${numberOr(p.uploads_per_month)} a month · videos ${typeof duration === 'number' ? `~${formatAmount(duration)} s` : '—'}`,
      },
      {
        label: 'Promotions (analysed sample)',
        value: `${numberOr(p.promotions_count)} promotions · ${numberOr(p.affiliate_posts_count)} affiliate · ${numberOr(p.sponsorship_posts_count)} sponsored`,
      },
      {
        label: 'Audience',
        value: `${numberOr(p.followers)} followers · ${numberOr(p.following)} following · ${numberOr(p.total_videos)} videos · ${numberOr(p.total_likes)} likes · engagement ${engagement} · ${numberOr(p.avg_comments)} avg comments`,
      },
    ]),
    fields([
      { label: 'Age', value: p.age, inline: true },
      { label: 'Gender', value: p.gender, inline: true },
      { label: 'Account type', value: p.account_type, inline: true },
      { label: 'Race', value: p.race, inline: true },
      { label: 'Hair', value: p.hair_color, inline: true },
      { label: 'Body', value: p.body_complexion, inline: true },
      { label: 'Account created', value: createdDate(p.date_created_timestamp), inline: true },
      { label: 'Creator id', value: p.user_id, inline: true },
    ]),
  ].filter((node) => node !== null);
}

function createdDate(seconds: Maybe<number>): string | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? formatDate(seconds * 1000) : null;
}

function unique() {
  const seen = new Set<string>();
  return (value: Maybe<string>): value is string => {
    if (typeof value !== 'string') return false;
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}
