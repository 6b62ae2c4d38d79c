/**
 * Every query and body parameter name of the service contract (and of service-notes) reaches an option of the
 * command that makes that call, in any case: the README promises the service's own names work as options.
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/commands/index.js';
import { bindTokens } from '../../../src/core/command/bind.js';
import { resolveOption } from '../../../src/core/command/params.js';
import { createRegistry } from '../../../src/core/command/registry.js';
import { tokenize } from '../../../src/core/command/tokenize.js';

const registry = createRegistry(FAMILIES);

const bounds = (...stems: string[]) => stems.flatMap((stem) => [`${stem}Min`, `${stem}Max`]);

/** Creator search and v1 creators share their filters (contract; extras from service-notes). */
const CREATOR_FILTERS = [
  ...bounds(
    'followers',
    'averageViews',
    'averageLikes',
    'engagementRate',
    'uploadsPerWeek',
    'uploadsPerMonth',
    'avgVideoDurationSeconds',
    'promotionsCount',
    'affiliatePostsCount',
    'sponsorshipPostsCount',
  ),
  'age',
  'gender',
  'race',
  'hairColor',
  'bodyComplexion',
  'mainCategory',
  'subCategory',
  'subCategories',
  'bio',
  'promotedProducts',
  'nichesToPromote',
  'keywords',
  'keywordsExcluded',
  'promotedBusinessType',
  'country',
  'source',
  'accountType',
  'username',
  'language',
  'hashtags',
  'emailExists',
  'email',
  'sortBy',
  'sortOrder',
];

const AGENT_FILTERS = [
  'projectId',
  'creatorEmail',
  'email',
  'creatorEmailContains',
  'creatorId',
  'page',
  'perPage',
];

/** Operation by operation: the command that makes the call, and the names the call takes. */
const CONTRACT: ReadonlyArray<{ operation: string; command: string; names: readonly string[] }> = [
  // Creator search collects ids 100 a service page: its page and perPage are the chat page to open at and the
  // cards per page.
  {
    operation: 'GET /api/v2/creators/search',
    command: 'creators search',
    names: [...CREATOR_FILTERS, 'page', 'perPage'],
  },
  // Creators get by id: `creators show` gets one.
  { operation: 'POST /api/v2/creators/get', command: 'creators show', names: ['userIds', 'user_ids'] },
  {
    operation: 'GET /api/v1/creators',
    command: 'creators profiles',
    names: [...CREATOR_FILTERS, 'page', 'perPage'],
  },
  {
    operation: 'POST /api/v1/viral-content',
    command: 'viral search',
    names: [
      'categories',
      'countries',
      ...bounds('views', 'viralityScore', 'followers'),
      'dateCreatedFrom',
      'dateCreatedTo',
      'musicTitle',
      'hook',
      'contentFormats',
      'contentTones',
      'visualStyles',
      'videoSettings',
      'targetDemographics',
      'productionQualities',
      'ctaTypes',
      'primaryEmotions',
      'videoTopicContains',
      'contentCategoryContains',
      'productCategoryContains',
      'brandMentionedContains',
      'colorPaletteContains',
      'hasFace',
      'hasProduct',
      'isBranded',
      'isPromotional',
      'hasTextOverlay',
      'isTrendingFormat',
      'isAiGenerated',
      'page',
      'pageSize',
    ],
  },
  {
    operation: 'GET /api/v1/videos',
    command: 'videos search',
    names: [
      'userHandle',
      ...bounds('userFollowers', 'views', 'likes', 'comments', 'shares'),
      'hashtags',
      'textSearch',
      'sortBy',
      'sortOrder',
      'page',
      'perPage',
    ],
  },
  // Songs: one subcommand per action; the query names of each action (service-notes).
  { operation: 'GET /api/v1/songs weeks', command: 'songs weeks', names: ['country_code'] },
  { operation: 'GET /api/v1/songs rankings', command: 'songs rankings', names: ['country', 'week'] },
  { operation: 'GET /api/v1/songs global', command: 'songs global', names: ['week'] },
  { operation: 'GET /api/v1/songs new-entries', command: 'songs new-entries', names: ['country'] },
  { operation: 'GET /api/v1/songs search', command: 'songs search', names: ['q'] },
  {
    operation: 'GET /api/v1/songs song-history',
    command: 'songs history',
    names: ['song_id', 'country_code'],
  },
  { operation: 'GET /api/v1/songs compare', command: 'songs compare', names: ['country', 'week1', 'week2'] },
  {
    operation: 'POST /api/v2/crm/lists',
    command: 'lists create',
    names: ['name', 'websiteId', 'description', 'budget'],
  },
  { operation: 'PATCH /api/v2/crm/lists/{list_id} name', command: 'lists rename', names: ['name'] },
  {
    operation: 'PATCH /api/v2/crm/lists/{list_id} description',
    command: 'lists describe',
    names: ['description'],
  },
  {
    operation: 'GET /api/v2/crm/lists/{list_id}/creators',
    command: 'list show',
    names: ['page', 'per_page', 'limit', 'status'],
  },
  {
    operation: 'POST /api/v2/crm/lists/{list_id}/creators',
    command: 'list add',
    names: ['userIds', 'status', 'notes', 'contactEmail', 'proposedRate', 'instagramHandle', 'tiktokHandle'],
  },
  { operation: 'POST /api/v2/crm/lists/{list_id}/creators/check', command: 'list check', names: ['userIds'] },
  {
    operation: 'PATCH /api/v2/crm/contacts/{contact_id}',
    command: 'list update',
    names: ['status', 'notes', 'contactEmail', 'proposedRate', 'instagramHandle', 'tiktokHandle'],
  },
  {
    operation: 'GET /api/v1/agent/messages',
    command: 'outreach messages',
    names: [
      ...AGENT_FILTERS,
      'threadId',
      'mailboxAccountId',
      'gmailAccountId',
      'direction',
      'status',
      'isFollowUp',
    ],
  },
  { operation: 'GET /api/v1/agent/contacted-creators', command: 'outreach contacted', names: AGENT_FILTERS },
  {
    operation: 'POST {media_base_url}/api/v1/remix',
    command: 'remix video',
    names: [
      'video_url',
      'playbackSpeed',
      'brightness',
      'contrast',
      'saturation',
      'hue',
      'zoomFactor',
      'volume',
      'removeAudio',
      'gamma',
      'temperature',
      'noise',
      'sharpness',
      'blend',
      // The keys the service answers with, in its snake_case.
      'zoom_factor',
      'device_model',
      'playback_speed',
      'remove_audio',
      'algorithm_fingerprint',
      'hue_shift',
      'bitrate_variation',
      'frame_blending',
      'time_shift',
    ],
  },
  {
    operation: 'POST {media_base_url}/api/v1/image-rewrite',
    command: 'remix image',
    names: [
      'image_url',
      'brightness',
      'contrast',
      'saturation',
      'hue',
      'quality',
      'zoomFactor',
      'deviceModel',
    ],
  },
];

describe('contract parameter names', () => {
  for (const { operation, command, names } of CONTRACT) {
    it(`${operation}: every name reaches an option of ${command}, in any case`, () => {
      const [family = '', name = ''] = command.split(' ');
      const def = registry.command(family, name);
      if (def === undefined) throw new Error(`no command ${command}`);
      const unknown = names.filter(
        (typed) =>
          resolveOption(def.params, typed) === null ||
          resolveOption(def.params, typed.toUpperCase()) === null,
      );
      expect(unknown).toEqual([]);
    });
  }

  it('set only their own bound when they name one bound of a range', () => {
    for (const { command, names } of CONTRACT) {
      const [family = '', name = ''] = command.split(' ');
      const def = registry.command(family, name);
      for (const typed of names.filter((n) => /(Min|Max)$/.test(n))) {
        const target = def === undefined ? null : resolveOption(def.params, typed);
        expect(target?.bound, `${command} ${typed}`).toBe(typed.endsWith('Min') ? 'min' : 'max');
        if (def === undefined || target?.spec.kind !== 'range') continue;
        // A value inside the scale of a bounded one (a virality score, 0 to 1).
        const value = target.spec.top === undefined ? 7 : target.spec.top / 2;
        expect(bindTokens(def.params, tokenize(`${typed}:${value}`)), `${command} ${typed}`).toEqual({
          [typed]: value,
        });
      }
    }
  });
});
