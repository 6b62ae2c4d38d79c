/** Seeded viral posts over the last 60 days, with every format, tone, style, category and country. */
import {
  CONTENT_FORMATS,
  CONTENT_TONES,
  COUNTRIES,
  MAIN_CATEGORIES,
  VISUAL_STYLES,
} from '../../core/service/enums.js';
import { createRandom, hashString } from '../random.js';
import { DAY_MS, isoTimestamp } from '../time.js';
import type { CreatorProfile, Song, ViralPost } from './records.js';
import {
  BRANDS,
  CATEGORY_TOPICS,
  COLOR_PALETTES,
  CTA_TYPES,
  HOOKS,
  PRIMARY_EMOTIONS,
  PRODUCTION_QUALITIES,
  PRODUCTS,
  TARGET_DEMOGRAPHICS,
  VIDEO_SETTINGS,
} from './vocab.js';

/** How many viral posts a sandbox holds. */
export const VIRAL_POST_COUNT = 2000;
/** How far back viral posts go. */
export const VIRAL_WINDOW_DAYS = 60;

/** Host of the (fictional) viral video files. */
const MEDIA_HOST = 'https://cdn.viral.example.com';

function covering<T>(list: readonly T[], index: number, draw: () => T): T {
  return index < list.length ? (list[index] as T) : draw();
}

/** Generates the viral posts, newest first: a pure function of the seed, creation instant, creators and songs. */
export function generateViralPosts(
  seed: number,
  createdAt: number,
  creators: readonly CreatorProfile[],
  songs: readonly Song[],
): ViralPost[] {
  const random = createRandom(hashString('viral', seed));
  const shortForm = creators.filter((c) => c.source === 'tiktok' || c.source === 'instagram');
  const posts: ViralPost[] = [];
  for (let i = 0; i < VIRAL_POST_COUNT; i++) {
    const creator = random.pick(shortForm);
    const category = covering(MAIN_CATEGORIES, i, () =>
      random.chance(0.6) ? creator.main_category : random.pick(MAIN_CATEGORIES),
    );
    const topic = random.pick(CATEGORY_TOPICS[category as keyof typeof CATEGORY_TOPICS]);
    const country = covering(COUNTRIES, i, () =>
      random.chance(0.7) ? creator.country : random.pick(COUNTRIES),
    );
    // Virality is views relative to followers on a 0..1 scale; most viral posts sit between 0.2 and 0.95.
    const viralityScore =
      Math.round(Math.min(1, Math.max(0.05, random.float(0.1, 0.7) + 0.3 * random.next())) * 1000) / 1000;
    const views = Math.round(creator.followers * (0.5 + viralityScore * random.float(5, 40)));
    const likes = Math.round(views * random.float(0.03, 0.15));
    const hasProduct = random.chance(0.35);
    const isBranded = hasProduct && random.chance(0.5);
    const id = random.digits(19);
    const hook = `${random.pick(HOOKS)} ${topic}`;
    posts.push({
      id,
      videoUrl: `${MEDIA_HOST}/videos/${id}.mp4`,
      thumbnailUrl: `${MEDIA_HOST}/thumbnails/${id}.jpg`,
      caption: `${hook} #${topic.replace(/\s+/g, '')} #fyp`,
      views,
      likes,
      comments: Math.round(likes * random.float(0.01, 0.08)),
      shares: Math.round(likes * random.float(0.02, 0.3)),
      viralityScore,
      followers: creator.followers,
      category,
      country,
      musicTitle: random.chance(0.8) ? random.pick(songs).title : `original sound - ${creator.handle}`,
      creatorUsername: creator.handle,
      hook,
      createdAt: isoTimestamp(Math.floor(createdAt - random.float(0, VIRAL_WINDOW_DAYS) * DAY_MS)),
      contentFormat: covering(CONTENT_FORMATS, i, () => random.pick(CONTENT_FORMATS)),
      contentTone: covering(CONTENT_TONES, i, () => random.pick(CONTENT_TONES)),
      visualStyle: covering(VISUAL_STYLES, i, () => random.pick(VISUAL_STYLES)),
      videoSetting: covering(VIDEO_SETTINGS, i, () => random.pick(VIDEO_SETTINGS)),
      targetDemographic: covering(TARGET_DEMOGRAPHICS, i, () => random.pick(TARGET_DEMOGRAPHICS)),
      productionQuality: covering(PRODUCTION_QUALITIES, i, () => random.pick(PRODUCTION_QUALITIES)),
      ctaType: covering(CTA_TYPES, i, () => random.pick(CTA_TYPES)),
      primaryEmotion: covering(PRIMARY_EMOTIONS, i, () => random.pick(PRIMARY_EMOTIONS)),
      videoTopic: topic,
      contentCategory: `${category} / ${topic}`,
      productCategory: hasProduct ? random.pick(PRODUCTS) : null,
      brandMentioned: isBranded ? random.pick(BRANDS) : null,
      colorPalette: random.pick(COLOR_PALETTES),
      hasFace: random.chance(0.7),
      hasProduct,
      isBranded,
      isPromotional: isBranded || (hasProduct && random.chance(0.3)),
      hasTextOverlay: random.chance(0.6),
      isTrendingFormat: random.chance(0.4),
      isAiGenerated: random.chance(0.08),
    });
  }
  return posts.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}
