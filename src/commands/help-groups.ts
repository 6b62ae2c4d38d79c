/**
 * The headings help lists a long option table under (`/scout help creators filters`): each option of the creator
 * filters (creators/filters.ts, shared by creators search and creators profiles) assigned to one group, in one table.
 */
import type { CommandDef } from '../core/command/types.js';

/** A heading of an options page. */
export type OptionGroup = 'audience' | 'content' | 'contact' | 'sort';

/** The headings, in the order the page shows them, with what each holds. */
export const GROUP_HEADINGS: Readonly<Record<OptionGroup, string>> = {
  audience: 'Audience: who the creators are and how many follow them',
  content: 'Content: what they post and promote',
  contact: 'Contact: a handle or an email',
  sort: 'Sort and pages',
};

/** Each creator filter's group, by the option's name. */
const CREATOR_GROUPS: Readonly<Record<string, OptionGroup>> = {
  source: 'audience',
  followers: 'audience',
  averageViews: 'audience',
  averageLikes: 'audience',
  engagementRate: 'audience',
  country: 'audience',
  language: 'audience',
  age: 'audience',
  gender: 'audience',
  race: 'audience',
  hairColor: 'audience',
  bodyComplexion: 'audience',
  accountType: 'audience',
  mainCategory: 'content',
  subCategory: 'content',
  nichesToPromote: 'content',
  keywords: 'content',
  keywordsExcluded: 'content',
  hashtags: 'content',
  bio: 'content',
  promotedProducts: 'content',
  promotedBusinessType: 'content',
  promotionsCount: 'content',
  affiliatePostsCount: 'content',
  sponsorshipPostsCount: 'content',
  uploadsPerWeek: 'content',
  uploadsPerMonth: 'content',
  avgVideoDurationSeconds: 'content',
  username: 'contact',
  email: 'contact',
  emailExists: 'contact',
  sortBy: 'sort',
  sortOrder: 'sort',
  page: 'sort',
  perPage: 'sort',
};

/** The commands whose options help lists under headings, by `family command`. */
export const GROUPED: Readonly<Record<string, Readonly<Record<string, OptionGroup>>>> = {
  'creators search': CREATOR_GROUPS,
  'creators profiles': CREATOR_GROUPS,
};

/** The group table of `def`'s options, or undefined when help lists them under no heading. */
export function groupsOf(def: Pick<CommandDef<unknown>, 'family' | 'name'>) {
  return GROUPED[`${def.family} ${def.name}`];
}
