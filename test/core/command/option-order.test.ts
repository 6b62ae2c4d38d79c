/**
 * Where each option of every command comes in its form, and which options complete as they are typed, as the
 * options' declarations decide: written out in full, so that a change to either is seen here.
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../src/commands/index.js';
import { completes } from '../../../src/core/chat/index.js';
import { formSpec } from '../../../src/core/command/forms/index.js';
import { createRegistry } from '../../../src/core/command/registry.js';

const registry = createRegistry(FAMILIES);
const commands = registry.families.flatMap((family) => family.commands);
const key = (def: { family: string; name: string }) => `${def.family} ${def.name}`;

/**
 * Each form's fields in order: required, positional, the filters people set most (in their declared rank), the
 * others as declared, sorting and paging.
 */
const FORM_FIELDS: Record<string, string> = {
  'creators search':
    'source followers country language mainCategory engagementRate averageViews keywords nichesToPromote gender emailExists username averageLikes uploadsPerWeek uploadsPerMonth avgVideoDurationSeconds promotionsCount affiliatePostsCount sponsorshipPostsCount age race hairColor bodyComplexion subCategory bio promotedProducts keywordsExcluded promotedBusinessType accountType hashtags email sortBy sortOrder page perPage',
  'creators profiles':
    'source followers country language mainCategory engagementRate averageViews keywords nichesToPromote gender emailExists username averageLikes uploadsPerWeek uploadsPerMonth avgVideoDurationSeconds promotionsCount affiliatePostsCount sponsorshipPostsCount age race hairColor bodyComplexion subCategory bio promotedProducts keywordsExcluded promotedBusinessType accountType hashtags email sortBy sortOrder page perPage',
  'creators show': 'who source',
  'creators link': 'url',
  'lists create': 'name description budget websiteId',
  'lists rename': 'list name',
  'lists describe': 'list description',
  'lists get': 'list',
  'list show': 'list status page perPage',
  'list export': 'list status',
  'list add': 'list userIds status notes contactEmail proposedRate instagramHandle tiktokHandle',
  'list check': 'list userIds',
  'list remove': 'list creator',
  'list update':
    'list creator status notes contactEmail proposedRate agreedRate contentDeliverables instagramHandle tiktokHandle',
  'viral search':
    'followers countries categories views viralityScore dateCreatedFrom dateCreatedTo musicTitle hook contentFormats contentTones visualStyles videoSettings targetDemographics productionQualities ctaTypes primaryEmotions videoTopicContains contentCategoryContains productCategoryContains brandMentionedContains colorPaletteContains hasFace hasProduct isBranded isPromotional hasTextOverlay isTrendingFormat isAiGenerated page pageSize',
  'songs weeks': 'country',
  'songs rankings': 'country week',
  'songs global': 'week',
  'songs new-entries': 'country',
  'songs search': 'q',
  'songs history': 'song_id country',
  'songs compare': 'country week1 week2',
  'videos search':
    'views userHandle userFollowers likes comments shares hashtags textSearch sortBy sortOrder page perPage',
  'outreach messages':
    'projectId creatorEmail creatorEmailContains creatorId threadId mailboxAccountId direction status isFollowUp page perPage',
  'outreach conversation': 'threadId',
  'outreach contacted': 'projectId creatorEmail creatorEmailContains creatorId page perPage',
  'remix image': 'urls brightness contrast saturation hue quality zoomFactor deviceModel',
  'remix video':
    'url playbackSpeed brightness contrast saturation hue zoomFactor volume removeAudio gamma temperature noise sharpness blend deviceModel algorithmFingerprint hueShift bitrateVariation frameBlending timeShift',
  'notify on': 'projectId',
  'notify off': 'projectId',
  'digest add':
    'localTime timeZone followers countries categories views viralityScore top dateCreatedFrom dateCreatedTo musicTitle hook contentFormats contentTones visualStyles videoSettings targetDemographics productionQualities ctaTypes primaryEmotions videoTopicContains contentCategoryContains productCategoryContains brandMentionedContains colorPaletteContains hasFace hasProduct isBranded isPromotional hasTextOverlay isTrendingFormat isAiGenerated',
  'digest remove': 'id',
  'digest preview':
    'followers countries categories views viralityScore top dateCreatedFrom dateCreatedTo musicTitle hook contentFormats contentTones visualStyles videoSettings targetDemographics productionQualities ctaTypes primaryEmotions videoTopicContains contentCategoryContains productCategoryContains brandMentionedContains colorPaletteContains hasFace hasProduct isBranded isPromotional hasTextOverlay isTrendingFormat isAiGenerated',
  'credits cap': 'who amount',
  'admins add': 'who',
  'admins remove': 'who',
  'help show': 'topic command part',
  'help values': 'option',
};

/** The options that complete as they are typed: enumerations, comma lists of them, and CRM list names. */
const COMPLETED: Record<string, string> = {
  'creators search':
    'age gender race hairColor bodyComplexion mainCategory country accountType language sortBy sortOrder source',
  'creators profiles':
    'age gender race hairColor bodyComplexion mainCategory country accountType language sortBy sortOrder source',
  'creators show': 'source',
  'lists rename': 'list',
  'lists describe': 'list',
  'lists get': 'list',
  'list show': 'list status',
  'list export': 'list status',
  'list add': 'list status',
  'list check': 'list',
  'list remove': 'list',
  'list update': 'list status',
  'viral search': 'categories countries contentFormats contentTones visualStyles',
  'videos search': 'sortBy sortOrder',
  'outreach messages': 'direction',
  'digest add': 'categories countries contentFormats contentTones visualStyles',
  'digest preview': 'categories countries contentFormats contentTones visualStyles',
};

describe('the options of every command', () => {
  it('come in each form in the order people use them', () => {
    const fields = Object.fromEntries(
      commands.flatMap((def) => {
        const form = formSpec(def);
        return form === null ? [] : [[key(def), form.fields.map((field) => field.name).join(' ')]];
      }),
    );
    expect(fields).toEqual(FORM_FIELDS);
  });

  it('complete as they are typed where declared so', () => {
    const completed = Object.fromEntries(
      commands.flatMap((def) => {
        const names = Object.entries(def.params).filter(([, spec]) => completes(spec));
        return names.length === 0 ? [] : [[key(def), names.map(([name]) => name).join(' ')]];
      }),
    );
    expect(completed).toEqual(COMPLETED);
  });
});
