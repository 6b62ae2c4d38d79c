/** Seeded creator profiles: log-normal audiences, every enumeration value present, ids per platform. */
import {
  ACCOUNT_TYPES,
  AGE_GROUPS,
  BODY_COMPLEXIONS,
  COUNTRIES,
  GENDERS,
  HAIR_COLORS,
  LANGUAGES,
  MAIN_CATEGORIES,
  RACES,
  SEARCH_PLATFORMS,
  V1_PLATFORMS,
} from '../../core/service/enums.js';
import { createRandom, createWeighted, hashString, type Random } from '../random.js';
import { DAY_MS } from '../time.js';
import type { CreatorProfile } from './records.js';
import {
  CATEGORY_TOPICS,
  COUNTRY_LANGUAGES,
  FIRST_NAMES,
  GENERIC_HASHTAGS,
  HANDLE_WORDS,
  LAST_NAMES,
  PRODUCTS,
} from './vocab.js';

/** How many creators a sandbox holds. */
export const CREATOR_COUNT = 6000;

const pickSource = createWeighted(V1_PLATFORMS, [35, 33, 15, 8, 5, 4]);
// Zipf-like weights over the contract's country order, which runs roughly from the largest markets down.
const pickCountry = createWeighted(
  COUNTRIES,
  COUNTRIES.map((_, i) => 1 / (i + 1) ** 1.1),
);
const pickAge = createWeighted(AGE_GROUPS, [1, 15, 40, 25, 10, 5, 2, 1, 0.5, 0.5]);
const pickAccountType = createWeighted(ACCOUNT_TYPES, [20, 35, 15, 15, 15]);
const pickRace = createWeighted(RACES, [35, 15, 12, 12, 8, 8, 10]);
const pickHair = createWeighted(HAIR_COLORS, [20, 35, 35, 6, 4]);
const pickBody = createWeighted(BODY_COMPLEXIONS, [25, 55, 15, 5]);

/** Returns the i-th value of a list for the first creators (so every value occurs), then a drawn one. */
function covering<T>(list: readonly T[], index: number, draw: () => T): T {
  return index < list.length ? (list[index] as T) : draw();
}

function creatorId(source: string, random: Random, first: string, last: string): string {
  switch (source) {
    case 'instagram':
      return `instagram_${random.digits(11)}`;
    case 'tiktok':
      return `tiktok_${random.digits(19)}`;
    case 'youtube': {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
      let id = 'UC';
      for (let i = 0; i < 22; i++) id += alphabet[random.int(0, alphabet.length - 1)];
      return `youtube_${id}`;
    }
    case 'twitter':
      return `twitter_${random.digits(18)}`;
    case 'linkedin':
      return `linkedin_${first}-${last}-${random.hex(6)}`;
    default:
      return `${source}_${random.digits(9)}`;
  }
}

function durationFor(source: string, random: Random): number | null {
  switch (source) {
    case 'youtube':
      return random.int(120, 1800);
    case 'twitch':
      return random.int(1800, 14_400);
    case 'twitter':
    case 'linkedin':
      return random.chance(0.5) ? null : random.int(15, 180);
    default:
      return random.int(8, 90);
  }
}

/** Alternates filter spellings and lowercase ones, as the live profiles do. */
function varyCase(value: string, random: Random): string {
  if (!random.chance(0.4)) return value;
  const lower = value.toLowerCase();
  return lower.endsWith(' hair') && random.chance(0.5) ? lower.slice(0, -' hair'.length) : lower;
}

/** Generates the creator index of a sandbox: a pure function of the seed and the creation instant. */
export function generateCreators(seed: number, createdAt: number, count = CREATOR_COUNT): CreatorProfile[] {
  const random = createRandom(hashString('creators', seed));
  const usedIds = new Set<string>();
  const usedHandles = new Set<string>();
  const creators: CreatorProfile[] = [];
  for (let i = 0; i < count; i++) {
    // The first creators sit on search platforms so that every enumeration value is findable by search.
    const source = i < 200 ? (SEARCH_PLATFORMS[i % SEARCH_PLATFORMS.length] as string) : pickSource(random);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    let id = creatorId(source, random, first, last);
    while (usedIds.has(id)) id = creatorId(source, random, first, last);
    usedIds.add(id);

    const mainCategory = covering(MAIN_CATEGORIES, i, () => random.pick(MAIN_CATEGORIES));
    const topics = CATEGORY_TOPICS[mainCategory];
    const subTopics = random.sample(topics, random.int(1, 2));
    const country = covering(COUNTRIES, i, () => pickCountry(random));
    const language = covering(LANGUAGES, i, () =>
      random.chance(0.8) ? (COUNTRY_LANGUAGES[country] ?? 'english') : random.pick(LANGUAGES),
    );

    const style = random.int(0, 3);
    const word = random.pick(HANDLE_WORDS);
    let handle =
      [`${first}${word}`, `${first}.${last}`, `the${first}${word}`, `${first}_${last}`][style] ?? first;
    if (random.chance(0.3) || usedHandles.has(handle)) handle += random.int(1, 999);
    while (usedHandles.has(handle)) handle += random.int(0, 9);
    usedHandles.add(handle);

    const followers = Math.round(Math.min(10_000_000, Math.max(1000, random.logNormal(40_000, 1.5))));
    // Big audiences engage less: draw from 0.5% to 15% with the upper end shrinking as followers grow.
    const ceiling = Math.max(0.02, 0.15 - Math.log10(followers / 1000) * 0.03);
    const engagement = Math.round(random.float(0.005, ceiling) * 10_000) / 10_000;
    const avgViews = Math.round(followers * random.float(source === 'tiktok' ? 0.2 : 0.05, 1.5));
    const avgLikes = Math.round(followers * engagement * 0.92);
    const avgComments = Math.round(followers * engagement * 0.08);
    const totalVideos = random.int(20, 3000);
    const uploadsPerWeek = Math.round(random.float(0.2, source === 'twitter' ? 20 : 12) * 10) / 10;
    const hasEmail = random.chance(0.6);
    const domain = random.pick(['example.com', 'example.net', 'example.org']);
    const website = random.chance(0.5) ? `https://${handle.replace(/[._]/g, '-')}.example.com` : null;
    const products = random.sample(PRODUCTS, random.int(0, 3));
    const hashtags = [
      ...subTopics.map((t) => t.replace(/\s+/g, '')),
      ...random.sample(GENERIC_HASHTAGS, random.int(1, 3)),
    ];
    const name = `${first[0]?.toUpperCase()}${first.slice(1)} ${last[0]?.toUpperCase()}${last.slice(1)}`;

    creators.push({
      user_id: id,
      handle,
      nickname: name,
      bio: `${subTopics.join(' & ')} | ${mainCategory} creator from ${country}${hasEmail ? ' | collabs via email' : ''}`,
      source,
      email: hasEmail ? `${handle}@${domain}` : null,
      categories: [mainCategory, ...subTopics],
      followers,
      following: random.int(20, 3000),
      total_videos: totalVideos,
      total_likes: avgLikes * totalVideos,
      avg_views: avgViews,
      avg_likes: avgLikes,
      avg_comments: avgComments,
      engagement_rate: engagement,
      main_website: website,
      websites: website ? [website, `https://links.example.com/${handle}`] : [],
      description: random.chance(0.5) ? `Sharing ${subTopics[0] ?? mainCategory} content every week.` : null,
      promoted_products: products,
      best_promotion_niches: random.sample(topics, 2),
      main_category: mainCategory,
      country,
      date_created_timestamp: Math.round((createdAt - random.float(0, 730) * DAY_MS) / 10) / 100,
      avatar_url: `https://avatars.example.com/${id}.jpg`,
      age: covering(AGE_GROUPS, i, () => pickAge(random)),
      gender: covering(GENDERS, i, () => random.pick(GENDERS)),
      account_type: covering(ACCOUNT_TYPES, i, () => pickAccountType(random)),
      race: varyCase(
        covering(RACES, i, () => pickRace(random)),
        random,
      ),
      hair_color: varyCase(
        covering(HAIR_COLORS, i, () => pickHair(random)),
        random,
      ),
      body_complexion: varyCase(
        covering(BODY_COMPLEXIONS, i, () => pickBody(random)),
        random,
      ),
      language,
      hashtags,
      uploads_per_week: uploadsPerWeek,
      uploads_per_month: Math.round(uploadsPerWeek * 4.33 * 10) / 10,
      avg_video_duration_seconds: durationFor(source, random),
      promotions_count: random.chance(0.3) ? 0 : random.int(1, 20),
      affiliate_posts_count: random.chance(0.5) ? 0 : random.int(1, 10),
      sponsorship_posts_count: random.chance(0.4) ? 0 : random.int(1, 12),
    });
  }
  return creators;
}
