/**
 * Creator profile links: which URLs name a creator's profile on a platform the service searches, read strictly
 * (the URL shapes Scout's own cards link to, see core/ui/cards.ts), so anything else — a post, a search page, a
 * reserved path, an odd host or a handle with characters no platform allows — names no creator.
 */
import type { SEARCH_PLATFORMS } from '../../core/service/enums.js';

/** A platform whose profile links Scout reads. */
export type LinkPlatform = (typeof SEARCH_PLATFORMS)[number];

/** The creator a profile link names. */
export interface ProfileLink {
  platform: LinkPlatform;
  /** The handle as written in the link, without "@". */
  handle: string;
}

/** The registrable domain of each platform's profile links; Slack matches their subdomains (www., m.) too. */
export const PROFILE_LINK_DOMAINS: Readonly<Record<LinkPlatform, string>> = {
  tiktok: 'tiktok.com',
  instagram: 'instagram.com',
  youtube: 'youtube.com',
  twitter: 'x.com',
  linkedin: 'linkedin.com',
};

/** Longer links are not read at all: no profile URL comes near it. */
export const PROFILE_LINK_MAX = 2048;

/** Handle length Scout accepts (as `creators show`). */
const HANDLE = /^[\p{L}\p{N}._-]{1,100}$/u;

/** Hosts of each platform: the bare domain and the subdomains its profile pages are served on. */
const HOSTS: ReadonlyArray<readonly [string, LinkPlatform]> = [
  ['tiktok.com', 'tiktok'],
  ['www.tiktok.com', 'tiktok'],
  ['m.tiktok.com', 'tiktok'],
  ['instagram.com', 'instagram'],
  ['www.instagram.com', 'instagram'],
  ['m.instagram.com', 'instagram'],
  ['youtube.com', 'youtube'],
  ['www.youtube.com', 'youtube'],
  ['m.youtube.com', 'youtube'],
  ['x.com', 'twitter'],
  ['www.x.com', 'twitter'],
  ['twitter.com', 'twitter'],
  ['www.twitter.com', 'twitter'],
  ['mobile.twitter.com', 'twitter'],
  ['linkedin.com', 'linkedin'],
  ['www.linkedin.com', 'linkedin'],
];

/** First path segments that are the platforms' own pages, not profiles. */
const RESERVED: Readonly<Partial<Record<LinkPlatform, ReadonlySet<string>>>> = {
  instagram: new Set([
    'about',
    'accounts',
    'developer',
    'direct',
    'explore',
    'legal',
    'p',
    'reel',
    'reels',
    'stories',
    'tv',
    'web',
  ]),
  twitter: new Set([
    'compose',
    'explore',
    'hashtag',
    'home',
    'i',
    'intent',
    'login',
    'messages',
    'notifications',
    'privacy',
    'search',
    'settings',
    'share',
    'signup',
    'tos',
  ]),
};

/** The path's segments, percent-decoded; null when a segment does not decode. */
function segmentsOf(pathname: string): string[] | null {
  const parts = pathname.split('/').filter((part) => part !== '');
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/** The handle a platform's profile path names, or null for any other path. */
function handleOf(platform: LinkPlatform, segments: readonly string[]): string | null {
  const [first, second, ...rest] = segments;
  if (first === undefined || rest.length > 0) return null;
  switch (platform) {
    case 'tiktok':
    case 'youtube':
      // https://www.tiktok.com/@handle, https://www.youtube.com/@handle
      return second === undefined && first.startsWith('@') ? first.slice(1) : null;
    case 'instagram':
    case 'twitter':
      // https://www.instagram.com/handle/, https://x.com/handle
      return second === undefined && !RESERVED[platform]?.has(first.toLowerCase()) ? first : null;
    case 'linkedin':
      // https://www.linkedin.com/in/handle
      return first === 'in' && second !== undefined ? second : null;
  }
}

/** The creator `url` names when it is a profile link of a platform Scout reads; null for anything else. */
export function parseProfileLink(url: string): ProfileLink | null {
  if (url.length > PROFILE_LINK_MAX) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return null;
  const platform = HOSTS.find(([host]) => host === parsed.hostname)?.[1];
  if (platform === undefined) return null;
  const segments = segmentsOf(parsed.pathname);
  const handle = segments === null ? null : handleOf(platform, segments);
  return handle !== null && HANDLE.test(handle) ? { platform, handle } : null;
}
