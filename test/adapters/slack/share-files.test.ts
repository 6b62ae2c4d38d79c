/**
 * Sharing a reply's files on Slack with the real WebClient against the fake Web API: a channel reply's file is
 * uploaded there; an author-only reply's is not (Slack shows no file to one person), and a refusal Slack explains
 * becomes a note for the person.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareFiles } from '../../../src/adapters/slack/deliver.js';
import { file, reply, text } from '../../../src/core/ui/index.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-api.js';

let slack: FakeSlack;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startFakeSlack();
  client = new webApi.WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});

afterAll(async () => {
  await slack.stop();
});

const csv = file('export.csv', new TextEncoder().encode('a,b\r\n1,2\r\n'), {
  mimeType: 'text/csv',
  title: 'An export',
});
const noteText = (note: Awaited<ReturnType<typeof shareFiles>>) => JSON.stringify(note?.nodes ?? []);

describe('shareFiles', () => {
  it('uploads a channel reply’s file to the channel, in the thread when there is one', async () => {
    const shared = reply([text('Done')], { visibility: 'channel', files: [csv] });
    expect(
      await shareFiles(shared, { client, channelId: 'C0SHARE01', threadTs: '1700000000.000100' }),
    ).toBeNull();
    const upload = slack.uploads.at(-1);
    expect(upload).toMatchObject({
      filename: 'export.csv',
      title: 'An export',
      channelId: 'C0SHARE01',
      threadTs: '1700000000.000100',
    });
    expect(upload?.bytes?.toString('utf8')).toBe('a,b\r\n1,2\r\n');
  });

  it('does not share an author-only reply’s file, and says so', async () => {
    const before = slack.uploads.length;
    const note = await shareFiles(reply([text('Done')], { files: [csv] }), {
      client,
      channelId: 'C0SHARE01',
    });
    expect(noteText(note)).toContain('Slack cannot show a file to you alone, so export.csv was not shared.');
    expect(note?.visibility).toBe('author');
    expect(slack.uploads.length).toBe(before);
  });

  it('explains a missing scope, and lets an unexplained failure through', async () => {
    const shared = reply([text('Done')], { visibility: 'channel', files: [csv] });
    slack.failNext('files.getUploadURLExternal', 'missing_scope');
    expect(noteText(await shareFiles(shared, { client, channelId: 'C0SHARE01' }))).toContain('files:write');
    slack.failNext('files.completeUploadExternal', 'internal_error');
    await expect(shareFiles(shared, { client, channelId: 'C0SHARE01' })).rejects.toThrow(/internal_error/);
  });

  it('does nothing for a reply without files', async () => {
    expect(await shareFiles(reply([text('Done')], { visibility: 'channel' }), null)).toBeNull();
  });
});
