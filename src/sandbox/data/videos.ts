/** Seeded videos of `GET /api/v1/videos`, drawn from the short-form and video-hosting creators. */
import { createRandom, hashString } from '../random.js';
import { DAY_MS } from '../time.js';
import type { CreatorProfile, VideoRecord } from './records.js';
import { HOOKS } from './vocab.js';

/** How many videos a sandbox holds. */
export const VIDEO_COUNT = 3000;

/** Generates the videos: a pure function of the seed, the creation instant and the creators. */
export function generateVideos(
  seed: number,
  createdAt: number,
  creators: readonly CreatorProfile[],
): VideoRecord[] {
  const random = createRandom(hashString('videos', seed));
  const owners = creators.filter(
    (c) => c.source === 'tiktok' || c.source === 'instagram' || c.source === 'youtube',
  );
  const videos: VideoRecord[] = [];
  for (let i = 0; i < VIDEO_COUNT; i++) {
    const owner = random.pick(owners);
    const views = Math.round(owner.avg_views * random.logNormal(1, 0.9));
    const likes = Math.round(views * random.float(0.02, 0.12));
    const tags = random.sample(owner.hashtags, random.int(1, owner.hashtags.length));
    const topic = owner.categories[1] ?? owner.main_category;
    const line = `${random.pick(HOOKS)} ${topic}`;
    videos.push({
      iv_id: 100_000 + i,
      user_id: owner.user_id,
      user_handle: owner.handle,
      video_id: owner.source === 'youtube' ? random.hex(11) : random.digits(19),
      source: owner.source,
      views,
      likes,
      comments: Math.round(likes * random.float(0.01, 0.1)),
      shares: Math.round(likes * random.float(0.01, 0.25)),
      user_followers: owner.followers,
      description: `${line} ${tags.map((t) => `#${t}`).join(' ')}`,
      hashtags: tags,
      subtitles: random.chance(0.6) ? [line, `Today we talk about ${topic}.`, 'Follow for part two.'] : null,
      date_created_timestamp: Math.round((createdAt - random.float(0, 365) * DAY_MS) / 10) / 100,
    });
  }
  return videos;
}
