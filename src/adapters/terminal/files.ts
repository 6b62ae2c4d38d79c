/** Saving the files of a reply in the terminal: into one folder, under their own names, never over another file. */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { type FileAttachment, safeFileName } from '../../core/ui/index.js';

/** The folder files are saved in when none is configured: beside the default database (./data/scout.db). */
export const DEFAULT_FILES_DIR = 'data/exports';

/** Copies tried after the name itself (`name-2.csv` … ) before giving up. */
const COPIES_MAX = 1000;

const isTaken = (error: unknown) => (error as { code?: unknown }).code === 'EEXIST';

/**
 * Writes `attachment` into `dir` (created when missing) and returns its absolute path. The name is made safe again
 * here, since it becomes a path; an existing file is never replaced: a numbered copy is written beside it.
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
    }
  }
  throw new Error(`${COPIES_MAX} files named like ${given} already exist in ${folder}`);
}
