/**
 * `/scout list export` through real Bolt in HTTP mode: the answer goes to the response_url, progress privately,
 * and the CSV is shared in the channel with files.uploadV2 (upload URL, bytes, completion), which the fake Web API
 * receives and keeps; the bytes are parsed back and compared with the sandbox's list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { EXPORT_PAGE_SIZE } from '../../../src/commands/lists/export.js';
import { type ResponsePost, slashCommandBody } from '../../fakes/slack-api.js';
import { allContacts, expectRowsMatch, parseCsv } from '../../helpers/contacts-csv.js';
import { sendForm, startBotAdapter, startWorld, type World } from './helpers.js';

const LIST = 'Slack Export';
const SIZE = EXPORT_PAGE_SIZE + 10;
const CHANNEL = 'C0EXPORT1';

let world: World;
let adapter: SlackAdapter;
let listId: string;

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
  const { crm, creators } = world.app.service;
  listId = (await crm.createList({ name: LIST })).data.id;
  const ids: string[] = [];
  for (let page = 1; ids.length < SIZE; page++)
    ids.push(...(await creators.search({ perPage: 100, page })).data.items);
  await crm.addCreators({ listId, userIds: ids.slice(0, 500) });
  await crm.addCreators({ listId, userIds: ids.slice(500, SIZE), status: 'WORKING' });
  const [first] = (await crm.listCreators({ listId, perPage: 1 })).data.items;
  await crm.updateContact({ contactId: first?.id as string, notes: '@SUM(1+1)*cmd|" /C calc"!A0' });
}, 60_000);

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const posts = (id: string, count: number) =>
  world.slack.waitFor(() => {
    const found = world.slack.responses.filter((r) => r.id === id);
    return found.length >= count ? found : null;
  }, 10_000);

const textOf = (post: ResponsePost | undefined) => JSON.stringify(post?.body ?? {});

describe('list export on Slack', () => {
  it('answers in the channel, shows progress privately, and uploads the CSV to the channel', async () => {
    const url = world.slack.responseUrl('export');
    const form = slashCommandBody({ text: `list export "${LIST}"`, responseUrl: url, channelId: CHANNEL });
    expect((await sendForm(adapter.port, form)).status).toBe(200);
    const [progress, answer] = await posts('export', 2);
    expect(progress?.body.response_type).toBe('ephemeral');
    expect(textOf(progress)).toContain(`Exporting ${LIST}: 500 of ${SIZE} contacts read`);
    expect(answer?.body.response_type).toBe('in_channel');
    expect(textOf(answer)).toContain(`${SIZE} contacts exported to \`Slack-Export-`);

    const upload = await world.slack.waitFor(() => world.slack.uploads.find((u) => u.channelId === CHANNEL));
    const methods = world.slack.calls.map((c) => c.method).filter((m) => m.startsWith('files.'));
    expect(methods).toEqual(['files.getUploadURLExternal', 'files.completeUploadExternal']);
    const asked = world.slack.calls.find((c) => c.method === 'files.getUploadURLExternal');
    expect(asked?.args.filename).toBe(upload.filename);
    expect(upload.filename).toMatch(/^Slack-Export-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(upload.title).toBe(`${LIST}: ${SIZE} contacts`);
    expect(Number(asked?.args.length)).toBe(upload.bytes?.byteLength);

    const rows = parseCsv(upload.bytes as Buffer);
    expect(rows).toHaveLength(SIZE);
    expectRowsMatch(rows, await allContacts(world.app.service, listId));
    expect(rows.find((row) => row.Notes?.includes('cmd|'))?.Notes).toBe(`'@SUM(1+1)*cmd|" /C calc"!A0`);
  });

  it('exports one status, and says privately when Slack refuses the file in that channel', async () => {
    world.slack.failNext('files.completeUploadExternal', 'not_in_channel');
    const before = world.slack.uploads.length;
    const url = world.slack.responseUrl('refused');
    const form = slashCommandBody({
      text: `list export "${LIST}" status:working`,
      responseUrl: url,
      channelId: CHANNEL,
    });
    await sendForm(adapter.port, form);
    const [answer, note] = await posts('refused', 2);
    expect(textOf(answer)).toContain('10 contacts with status Working exported to `Slack-Export-working-');
    expect(note?.body.response_type).toBe('ephemeral');
    expect(textOf(note)).toContain('(not_in_channel): invite Scout to this channel (/invite @Scout)');
    const tried = world.slack.uploads.slice(before);
    expect(tried).toHaveLength(1);
    expect(tried[0]?.channelId).toBeNull();
    expect(parseCsv(tried[0]?.bytes as Buffer).map((row) => row.Status)).toEqual(Array(10).fill('Working'));
  });

  it('refuses an unknown status privately, uploading nothing', async () => {
    const before = world.slack.uploads.length;
    const url = world.slack.responseUrl('bad');
    await sendForm(
      adapter.port,
      slashCommandBody({ text: `list export "${LIST}" status:late`, responseUrl: url }),
    );
    const [answer] = await posts('bad', 1);
    expect(answer?.body.response_type).toBe('ephemeral');
    expect(textOf(answer)).toContain(
      'status cannot be \\"late\\". Allowed: To outreach, Outreached, Negotiating',
    );
    expect(world.slack.uploads.length).toBe(before);
  });
});
