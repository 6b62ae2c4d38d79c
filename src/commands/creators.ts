/**
 * `/scout creators`: find creators (free search, profiles bought only for the page shown), buy full profiles by
 * filter (v1), show one creator (or the one a profile link names), add creators (one, or every creator of a
 * page) to CRM lists and see their full profiles.
 */
import { defineFamily } from '../core/command/types.js';
import { addAction, detailsAction, LAST_LIST } from './creators/actions.js';
import { chooseAction } from './creators/bulk.js';
import { createAddAction } from './creators/create-add.js';
import { CREATOR_FILTER_PARAMS, creatorFilterParams, sourceParam } from './creators/filters.js';
import { linkCommand, lookupAction } from './creators/links.js';
import { pageAction } from './creators/results.js';
import { profilesCommand, searchCommand } from './creators/search.js';
import { showCommand } from './creators/show.js';
import { KINDS } from './creators/views.js';

/** The shared filter table, element kinds and the last-list preference, for other families and tests. */
export { CREATOR_FILTER_PARAMS, creatorFilterParams, KINDS, LAST_LIST, sourceParam };

/** The creators family. */
export const creatorsFamily = defineFamily({
  name: 'creators',
  aliases: ['creator'],
  description: 'Find creators by any filter, see full profiles and add them, or a whole page, to CRM lists.',
  defaultCommand: 'search',
  commands: [searchCommand, profilesCommand, showCommand, linkCommand],
  actions: [pageAction, addAction, chooseAction, createAddAction, detailsAction, lookupAction],
});
