/**
 * Saving the files of a reply in the terminal: into one folder, under their own names, never over another file.
 * An image (a chart redrawn on every `/scout credits`) is saved once per content: the same bytes reuse the file.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { PlatformError } from '../../core/errors.js';
import { type FileAttachment, safeFileName } from '../../core/ui/index.js';

/** The folder files are saved in when none is configured: beside the default database (./data/scout.db). */
export const DEFAULT_FILES_DIR = 'data/exports';

/** Copies tried after the name itself (`name-2.csv` … ) before giving up. */
const COPIES_MAX = 1000;

const isTaken = (error: unknown) => (error as { code?: unknown }).code === 'EEXIST';

/** Whether the file at `path` holds exactly `bytes`; false when it cannot be read. */
async function holds(path: string, bytes: Uint8Array): Promise<boolean> {
  try {
    return Buffer.from(bytes).equals(await readFile(path));
  } catch {
    return false;
  }
}

/**
 * Writes `attachment` into `dir` (created when missing) and returns its absolute path. The name is made safe again
 * here, since it becomes a path; an existing file is never replaced: a numbered copy is written beside it. An image
 * whose bytes a file of its name (or a numbered copy) already holds is not written again: that file's path is
 * returned. Other files (exports) always get their own file, as a person may have edited the earlier one.
 */
export async function saveFile(dir: string, attachment: FileAttachment): Promise<string> {
  const folder = resolve(dir);
  await mkdir(folder, { recursive: true });
  const given = basename(attachment.name);
  const ext = extname(given);
  const stem = safeFileName(given.slice(0, given.length - ext.length), '', 'file');
  const extension = ext.slice(1);
  for (let copy = 1; copy <= COPIES_MAX; copy++) {
    const name = safeFileName(copy === 1 ? stem : `${stem}-${copy}`, extension, 'file');
    const path = resolve(folder, name);
    try {
      // 'wx' fails when the file exists, so two exports of the same list on the same day both survive.
      await writeFile(path, attachment.bytes, { flag: 'wx' });
      return path;
    } catch (error) {
      if (!isTaken(error)) throw error;
      if (attachment.display === 'image' && (await holds(path, attachment.bytes))) return path;
    }
  }
  throw new PlatformError(`${COPIES_MAX} files named like ${given} already exist in ${folder}`);
}
