/** The CRM command families: `/scout lists` (the team's lists) and `/scout list` (one list's contacts). */
export { listFamily } from './lists/list-family.js';
export { listsFamily } from './lists/lists-family.js';
