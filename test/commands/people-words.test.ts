/**
 * Mistakes answered in people's words, end to end through the terminal against the sandbox: an option is named as
 * typed or as help names it (`virality`, `image1.zoom`, `email`, `time`), never by the service's spelling
 * (`viralityScore`, `zoomFactor`, `contactEmail`, `localTime`) unless the person typed that spelling; the service's
 * own refusals name its fields the same way; and a line read from plain words is written with those names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../src/adapters/terminal/shell.js';
import { creatorsFamily } from '../../src/commands/creators.js';
import { digestFamily } from '../../src/commands/digest.js';
import { helpFamily } from '../../src/commands/help.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import { remixFamily } from '../../src/commands/remix.js';
import { viralFamily } from '../../src/commands/viral.js';
import { renderText } from '../../src/core/ui/index.js';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    families: [creatorsFamily, viralFamily, remixFamily, digestFamily, listFamily, listsFamily, helpFamily],
  });
});
afterAll(async () => h.stop());

/** The service's spellings of the options these lines use, none of which the lines type. */
const SPELLINGS =
  /viralityScore|followersMin|zoomFactor|deviceModel|bitrateVariation|parameters\.|contactEmail|localTime|timeZone|dateCreatedFrom|emailExists|hasEmail|mainCategory/;

/** What a line answers, and the requests it made. */
async function answer(line: string) {
  const from = h.requests().length;
  const out = await h.type(line);
  return { out, sent: h.requests().slice(from) };
}

describe('a mistake in the options, refused before anything is sent', () => {
  it.each([
    ['/scout viral virality:>2', 'Error: virality:>2 is out of range: virality goes from 0 to 1.'],
    [
      '/scout viral views:10k followers:10k followersMin:20k',
      'Error: followers:10k and followersMin:20k both set min followers, to different values; keep one.',
    ],
    [
      '/scout creators search category:Food mainCategory:Arts',
      'Error: category:Food and mainCategory:Arts both set category, to different values; keep one.',
    ],
    [
      '/scout remix image https://example.com/a.jpg image1.zoom:abc',
      'Error: image1.zoom takes a number such as 1.1, not "abc".',
    ],
    [
      '/scout remix image https://example.com/a.jpg image1.zom:2',
      'Error: image1.zom is not an image option. Known: brightness, contrast, saturation, hue, quality, zoom, device.',
    ],
    ['/scout viral from:2026-01-01 to:2025-01-01', 'Error: to must not be before from (2026-01-01).'],
    ['/scout digest add', 'Error: time is required, e.g. time:09:00.'],
    [
      '/scout creators search emailexist:yes',
      'Error: Unknown option "emailexist". Did you mean "has-email"?',
    ],
  ])('%s', async (line, first) => {
    const { out, sent } = await answer(line);
    expect(out.split('\n')[0]).toBe(first);
    expect(out.replace(/followersMin:20k|mainCategory:Arts/g, '')).not.toMatch(SPELLINGS);
    expect(sent).toEqual([]);
  });

  it('keeps a spelling the person typed themselves', async () => {
    const { out } = await answer('/scout creators search followersMin:100k followersMax:10k');
    expect(out.split('\n')[0]).toBe('Error: followersMax must not be less than followersMin (100000).');
    const mixed = await answer('/scout creators search followers:>100k followersMax:10k');
    expect(mixed.out.split('\n')[0]).toBe(
      'Error: followersMax must not be less than min followers (100001).',
    );
  });

  it('shows a usage line with the names people type', async () => {
    const { out } = await answer('/scout digest add');
    expect(out).toContain('/scout digest add <time> [<tz>]');
    const list = await answer('/scout list check "Fitness Ambassadors"');
    expect(list.out).toContain('/scout list check <list> [<user-ids>...]');
    expect(list.out).not.toContain('userIds');
  });
});

describe('what the service refuses', () => {
  it('names the field it refused as the option people type, keeping what it said', async () => {
    const image = await answer('/scout remix image https://example.com/a.jpg image1.zoom:9');
    expect(image.sent).toHaveLength(1);
    expect(image.out).toContain(
      'Error: The service rejected the request: image1.zoom must be a number between 0.1 and 5.',
    );
    const video = await answer('/scout remix video https://example.com/a.mp4 bitrate:99');
    expect(video.sent).toHaveLength(1);
    expect(video.out).toContain(
      'Error: The service rejected the request: bitrate must be a number between 0 and 1.',
    );
    for (const { out } of [image, video]) expect(out).not.toMatch(SPELLINGS);
  });
});

describe('what the client refuses of an element’s values', () => {
  it('says "Not sent" naming the field as people type it', async () => {
    const lists = (await h.app.service.crm.listLists()).data.lists;
    const list = lists[0];
    if (list === undefined) throw new Error('the sandbox has no list');
    const [contact] = (await h.app.service.crm.listCreators({ listId: list.id, perPage: 1 })).data.items;
    if (contact === undefined) throw new Error('the list has no contact');
    const payload = {
      contactId: contact.id,
      listId: list.id,
      listName: list.name,
      userId: contact.user_id,
      handle: null,
    };
    const token = await h.app.store.actions.create({
      kind: 'list.edit',
      payload,
      actor: LOCAL_ACTOR,
      rerun: null,
      ttlMs: 60_000,
      now: new Date(),
    });
    const from = h.requests().length;
    const reply = await h.app.dispatcher.action({
      actor: LOCAL_ACTOR,
      channelId: 'terminal',
      token,
      event: { values: { email: 'not-an-email' } },
    });
    const shown = renderText(reply).text;
    expect(shown.split('\n')[0]).toBe('Error: Not sent: email must be an email address.');
    expect(shown).not.toMatch(SPELLINGS);
    expect(
      h
        .requests()
        .slice(from)
        .filter((r) => r.method !== 'GET'),
    ).toEqual([]);
  });
});

describe('a line read from plain words', () => {
  it('is written with the names people type, and runs as written', async () => {
    const { out } = await answer('creators with email in Canada newest first');
    const line = /I read this as (\/scout .*)\.$/m.exec(out)?.[1];
    expect(line).toBe('/scout creators search sort:date_created order:desc has-email:yes country:Canada');
    expect(out).not.toMatch(SPELLINGS);
    // The values of an option are written as help lists them to be typed (`date_created`), so they stay.
    const run = await answer(line as string);
    const search = run.sent.find((r) => r.path.startsWith('/api/v2/creators/search'));
    expect(search?.query).toMatchObject({ emailExists: 'true', country: 'Canada', sortBy: 'date_created' });
  });
});
