/**
 * Saving a reply's files in the terminal: inside the folder whatever the name, never over an earlier file, an image
 * once per content.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveFile } from '../../../src/adapters/terminal/files.js';
import type { FileAttachment } from '../../../src/core/ui/index.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scout-files-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const attachment = (name: string, content: string): FileAttachment => ({
  name,
  mimeType: 'text/csv',
  bytes: Buffer.from(content),
  title: name,
});

describe('saveFile', () => {
  it('creates the folder, writes the bytes, and numbers a second file of the same name', async () => {
    const folder = join(dir, 'exports');
    const first = await saveFile(folder, attachment('list.csv', 'one'));
    const second = await saveFile(folder, attachment('list.csv', 'two'));
    expect(first).toBe(join(folder, 'list.csv'));
    expect(second).toBe(join(folder, 'list-2.csv'));
    expect(await readFile(first, 'utf8')).toBe('one');
    expect(await readFile(second, 'utf8')).toBe('two');
  });

  it('saves an image once per content, and an export always anew', async () => {
    const image = (content: string): FileAttachment => ({
      ...attachment('spend-2026-01-02.png', content),
      mimeType: 'image/png',
      display: 'image',
    });
    const first = await saveFile(dir, image('chart one'));
    expect(await saveFile(dir, image('chart one'))).toBe(first);
    const second = await saveFile(dir, image('chart two'));
    expect(second).toBe(join(dir, 'spend-2026-01-02-2.png'));
    expect(await saveFile(dir, image('chart two'))).toBe(second);
    expect(await saveFile(dir, image('chart one'))).toBe(first);
    expect((await readdir(dir)).sort()).toEqual(['spend-2026-01-02-2.png', 'spend-2026-01-02.png']);

    const csv = await saveFile(dir, attachment('list.csv', 'same'));
    expect(await saveFile(dir, attachment('list.csv', 'same'))).not.toBe(csv);
  });

  it('keeps a name that is not a plain file name inside the folder', async () => {
    const path = await saveFile(dir, attachment('../../escape me.csv', 'x'));
    expect(dirname(path)).toBe(dir);
    expect(await readdir(dir)).toEqual(['escape-me.csv']);
  });
});
