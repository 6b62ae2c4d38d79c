/**
 * `/scout list export` through the real discord.js client: the deferred reply shows progress, then is edited with
 * the CSV attached (a multipart body the fake REST parses and keeps); the file is parsed back and compared with the
 * sandbox's list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PAGE_SIZE } from '../../../src/commands/lists/export.js';
import type { FakeRequest } from '../../fakes/discord-fake.js';
import { allContacts, expectRowsMatch, parseCsv } from '../../helpers/contacts-csv.js';
import { type Bot, createWorld, edited, followed, slash, text, type World } from './harness.js';

const LIST = 'Discord Export';
const SIZE = EXPORT_PAGE_SIZE + 25;

let world: World;
let bot: Bot;
let listId: string;

beforeAll(async () => {
  world = await createWorld();
  bot = await world.startBot({ databasePath: ':memory:' });
  const { crm, creators } = bot.app.service;
  listId = (await crm.createList({ name: LIST })).data.id;
  const ids: string[] = [];
  for (let page = 1; ids.length < SIZE; page++)
    ids.push(...(await creators.search({ perPage: 100, page })).data.items);
  await crm.addCreators({ listId, userIds: ids.slice(0, 500) });
  await crm.addCreators({ listId, userIds: ids.slice(500, SIZE), status: 'DONE' });
  const [first] = (await crm.listCreators({ listId, perPage: 1 })).data.items;
  await crm.updateContact({ contactId: first?.id as string, notes: '+1+cmd|" /C calc"!A0', agreedRate: 900 });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

/** The edit of a token's original reply that carries a file. */
const withFile = (token: string) => (r: FakeRequest) => edited(token)(r) && r.files.length > 0;

describe('list export on Discord', () => {
  it('shows progress in the deferred reply, then edits it with the CSV attached', async () => {
    const { fake } = world;
    const run = slash(fake, 'list', 'export', [{ type: 3, name: 'list', value: LIST }]);
    const progress = await fake.waitFor(
      (r) => edited(run.token)(r) && JSON.stringify(r.body).includes('contacts read'),
      'progress',
    );
    // Discord markdown escapes the colon after the name.
    expect(text(progress.body as Record<string, unknown>)).toMatch(
      new RegExp(`Exporting ${LIST}.*: 500 of ${SIZE}`),
    );
    const answer = await fake.waitFor(withFile(run.token), 'the answer with its file');
    const body = answer.body as { embeds: unknown; attachments: Array<{ id: string; description?: string }> };
    expect(JSON.stringify(body.embeds)).toContain(`${SIZE} contacts exported to \`Discord-Export-`);
    expect(answer.files).toHaveLength(1);
    const [sent] = answer.files;
    expect(sent?.field).toBe('files[0]');
    expect(sent?.name).toMatch(/^Discord-Export-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(body.attachments).toEqual([{ id: '0', description: `${LIST}: ${SIZE} contacts` }]);

    const rows = parseCsv(sent?.data as Buffer);
    expect(rows).toHaveLength(SIZE);
    expectRowsMatch(rows, await allContacts(bot.app.service, listId));
    const hostile = rows.find((row) => row.Notes?.includes('cmd|'));
    expect(hostile?.Notes).toBe(`'+1+cmd|" /C calc"!A0`);
    expect(hostile?.['Agreed rate']).toBe('900');

    // The fake keeps the file as the reply's attachment and serves it from its URL, as Discord's CDN does.
    const stored = fake.original(run.token)?.attachments ?? [];
    const [attachment] = stored as Array<{ url: string; filename: string }>;
    expect(attachment?.filename).toBe(sent?.name);
    const download = await fetch(attachment?.url as string);
    expect(Buffer.from(await download.arrayBuffer()).equals(sent?.data as Buffer)).toBe(true);
  });

  it('exports one status; an unknown one is refused privately, with nothing attached', async () => {
    const { fake } = world;
    const run = slash(fake, 'list', 'export', [
      { type: 3, name: 'list', value: LIST },
      { type: 3, name: 'status', value: 'DONE' },
    ]);
    const answer = await fake.waitFor(withFile(run.token), 'the status export');
    const rows = parseCsv(answer.files[0]?.data as Buffer);
    expect(rows.map((row) => row.Status)).toEqual(Array(25).fill('Done'));
    expectRowsMatch(rows, await allContacts(bot.app.service, listId, 'DONE'));

    const bad = slash(fake, 'list', 'export', [
      { type: 3, name: 'list', value: LIST },
      { type: 3, name: 'status', value: 'LOST' },
    ]);
    const refusal = await fake.waitFor(followed(bad.token), 'the refusal');
    expect((refusal.body as { flags?: number }).flags).toBe(64);
    expect(JSON.stringify(refusal.body)).toContain('cannot be');
    expect(refusal.files).toEqual([]);
  });
});
