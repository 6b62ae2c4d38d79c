/** Every command family of Scout, in the order help lists them. */
import type { CommandFamily } from '../core/command/types.js';
import { creatorsFamily } from './creators.js';
import { creditsFamily } from './credits.js';
import { digestFamily } from './digest.js';
import { helpFamily } from './help.js';
import { listFamily, listsFamily } from './lists.js';
import { notifyFamily } from './notify.js';
import { outreachFamily } from './outreach.js';
import { remixFamily } from './remix.js';
import { songsFamily } from './songs.js';
import { adminsFamily, connectFamily, disconnectFamily } from './tenancy.js';
import { videosFamily } from './videos.js';
import { viralFamily } from './viral.js';

/** All families. */
export const FAMILIES: readonly CommandFamily[] = [
  creatorsFamily,
  listsFamily,
  listFamily,
  viralFamily,
  songsFamily,
  videosFamily,
  outreachFamily,
  remixFamily,
  notifyFamily,
  digestFamily,
  creditsFamily,
  connectFamily,
  disconnectFamily,
  adminsFamily,
  helpFamily,
];
