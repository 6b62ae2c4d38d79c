/** Which URLs name a creator profile: the shapes Scout's cards link to, read strictly. */
import { describe, expect, it } from 'vitest';
import { PROFILE_LINK_MAX, parseProfileLink } from '../../src/commands/creators/profile-links.js';
import { profileUrl } from '../../src/core/ui/index.js';

describe('parseProfileLink', () => {
  it.each(['tiktok', 'instagram', 'youtube', 'twitter', 'linkedin'])(
    'reads back the %s profile URL a card links to',
    (platform) => {
      const url = profileUrl(platform, 'ana.fit_01') as string;
      expect(parseProfileLink(url)).toEqual({ platform, handle: 'ana.fit_01' });
    },
  );

  it('accepts subdomains, a trailing slash, a query string, a fragment and unicode handles', () => {
    expect(parseProfileLink('https://m.tiktok.com/@ana/?lang=en#x')).toEqual({
      platform: 'tiktok',
      handle: 'ana',
    });
    expect(parseProfileLink('https://instagram.com/ana?igsh=1')).toEqual({
      platform: 'instagram',
      handle: 'ana',
    });
    expect(parseProfileLink('https://twitter.com/ana')).toEqual({ platform: 'twitter', handle: 'ana' });
    expect(parseProfileLink(profileUrl('tiktok', 'zoë') as string)).toEqual({
      platform: 'tiktok',
      handle: 'zoë',
    });
  });

  it.each([
    'https://www.tiktok.com/@ana/video/1',
    'https://www.tiktok.com/ana',
    'https://www.youtube.com/watch?v=x',
    'https://www.youtube.com/channel/UC123',
    'https://www.instagram.com/p/abc/',
    'https://www.instagram.com/explore',
    'https://x.com/home',
    'https://x.com/i/flow/login',
    'https://www.linkedin.com/in/',
    'https://www.linkedin.com/company/acme',
    'https://www.tiktok.com/@a%2Fb',
    'https://www.tiktok.com/@%E0%A4%A',
    'https://www.tiktok.com/@two%20words',
    'https://www.tiktok.com.evil.example/@ana',
    'https://evil.example/www.tiktok.com/@ana',
    'https://user:pw@www.tiktok.com/@ana',
    'https://www.tiktok.com:8443/@ana',
    'ftp://www.tiktok.com/@ana',
    'javascript:alert(1)',
    'not a url',
    `https://www.tiktok.com/@${'a'.repeat(101)}`,
    `https://www.tiktok.com/@ana?${'q'.repeat(PROFILE_LINK_MAX)}`,
  ])('names no creator in %s', (url) => {
    expect(parseProfileLink(url)).toBeNull();
  });
});
