/**
 * What `list add` and `list check` make of the words after the list, end to end: `@handle`s turned into creator ids
 * from the team's lists and the profiles looked up, a list name of several words typed without quotes, words that
 * are no creator id (never sent); and what the list pages and menus say around them (a page past the end, names
 * that read as options, counts of one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creatorsFamily } from '../../src/commands/creators.js';
import { listFamily, listsFamily } from '../../src/commands/lists.js';
import type { CrmContact, CrmList } from '../../src/core/service/index.js';
import { sql } from '../../src/core/store/sql.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const LIST = 'Typed Creators';
let h: Harness;
let listId: string;
/** A seeded list of the team, with contacts, and its contacts. */
let seeded: CrmList;
let seededContacts: CrmContact[];
/** Creator ids in no list of the team. */
let free: string[];

beforeAll(async () => {
  h = await startHarness({
    families: [listsFamily, listFamily, creatorsFamily],
    sandbox: { rateLimitPerMinute: 10_000 },
  });
  listId = (await h.app.service.crm.createList({ name: LIST })).data.id;
  const lists = (await h.app.service.crm.listLists()).data.lists;
  seeded = lists.find((list) => (list.contact_count ?? 0) > 2) as CrmList;
  seededContacts = (await h.app.service.crm.listCreators({ listId: seeded.id, perPage: 500 })).data.items;
  const listed = new Set<string>();
  for (const list of lists) {
    const { items } = (await h.app.service.crm.listCreators({ listId: list.id, perPage: 500 })).data;
    for (const contact of items) listed.add(contact.user_id as string);
  }
  free = (await h.app.service.creators.search({ perPage: 40 })).data.items.filter((id) => !listed.has(id));
  expect(free.length).toBeGreaterThanOrEqual(4);
});

afterAll(async () => {
  await h.stop();
});

async function sent(line: string) {
  const before = h.requests().length;
  const out = await h.type(line);
  return { out, requests: h.requests().slice(before) };
}

const posted = (requests: ReturnType<Harness['requests']>, path: RegExp) =>
  requests.filter((r) => r.method === 'POST' && path.test(r.path)).map((r) => r.body);
const ADD = /\/creators$/;
const CHECK = /\/creators\/check$/;
const nickname = (contact: CrmContact) => (contact.influencer as { nickname: string }).nickname;

describe('handles', () => {
  it('list check finds a handle in the list and shows each creator as @handle · Name', async () => {
    const [first, second] = seededContacts as [CrmContact, CrmContact];
    const { out, requests } = await sent(
      `list check "${seeded.name}" @${(first.handle as string).toUpperCase()} ${second.user_id} ${free[0]}`,
    );
    expect(posted(requests, CHECK)).toEqual([{ userIds: [first.user_id, second.user_id, free[0]] }]);
    expect(out).toContain(`${seeded.name} · 2 of 3 checked are in the list`);
    expect(out).toMatch(new RegExp(`^@${first.handle} · ${nickname(first)} +Yes `, 'm'));
    expect(out).toMatch(new RegExp(`^@${second.handle} · ${nickname(second)} +Yes `, 'm'));
    expect(out).not.toContain(first.user_id as string);
  });

  it('list add sends the creator id of a handle found in another list of the team', async () => {
    const contact = seededContacts[2] as CrmContact;
    const { out, requests } = await sent(`list add "${LIST}" @${contact.handle}`);
    expect(posted(requests, ADD)).toEqual([{ userIds: [contact.user_id] }]);
    expect(out).toContain(`Added 1 creator to ${LIST}.`);
    const again = await sent(`list add "${LIST}" @${contact.handle} ${free[1]}`);
    expect(posted(again.requests, ADD)).toEqual([{ userIds: [contact.user_id, free[1]] }]);
    expect(again.out).toContain(`Added 1 creator to ${LIST}; 1 was already there.`);
  });

  it('list add sends the creator id of a handle whose profile was looked up', async () => {
    const results = await h.type('creators category:Fitness');
    const bought = [...results.matchAll(/^(?:\d+\. )?@(\S+) · /gm)].map((m) => m[1] as string);
    const inLists = new Set(seededContacts.map((contact) => contact.handle));
    const handle = bought.find((one) => !inLists.has(one)) as string;
    const { out, requests } = await sent(`list add "${LIST}" @${handle}`);
    expect(out).toContain(`Added 1 creator to ${LIST}.`);
    const [body] = posted(requests, ADD) as [{ userIds: string[] }];
    const added = (await h.app.service.crm.listCreators({ listId, perPage: 500 })).data.items;
    expect(added.find((contact) => contact.user_id === body.userIds[0])?.handle).toBe(handle);
  });

  it('a handle two creators have is named with both ids, and nothing is sent', async () => {
    // A profile looked up whose creator is in no list here (one in the list acted on would be the one meant).
    const inList = (await h.app.service.crm.listCreators({ listId, perPage: 500 })).data.items;
    const rows = await h.app.store.db.all<{ account_id: string; user_id: string; profile: string }>(
      sql`SELECT account_id, user_id, profile FROM creator_profiles`,
    );
    const row = rows.find((one) => !inList.some((contact) => contact.user_id === one.user_id));
    const profile = JSON.parse(row?.profile as string) as { handle: string; user_id: string; source: string };
    const twin = profile.source === 'twitter' ? 'linkedin_twin-1' : 'twitter_999000111';
    await h.app.store.profiles.put(
      row?.account_id as string,
      [{ id: twin, profile: { ...profile, user_id: twin, source: twin.split('_')[0] } }],
      new Date(),
    );
    const { out, requests } = await sent(`list add "${LIST}" @${profile.handle} ${free[2]}`);
    expect(out).toContain(`@${profile.handle} is more than one creator (`);
    expect(out).toContain(profile.user_id);
    expect(out).toContain(twin);
    expect(out).toContain('Nothing was added.');
    expect(posted(requests, /./)).toEqual([]);
    // Of two creators with a handle, the one in the list acted on is the one meant.
    const member = inList[0] as CrmContact;
    const other = member.user_id?.startsWith('twitter_') ? 'linkedin_twin-2' : 'twitter_999000222';
    await h.app.store.profiles.put(
      row?.account_id as string,
      [{ id: other, profile: { handle: member.handle, user_id: other, source: other.split('_')[0] } }],
      new Date(),
    );
    const check = await sent(`list check "${LIST}" @${member.handle}`);
    expect(posted(check.requests, CHECK)).toEqual([{ userIds: [member.user_id] }]);
  });

  it('a handle Scout cannot tell is named, and nothing is sent', async () => {
    for (const verb of ['add', 'check']) {
      const { out, requests } = await sent(`list ${verb} "${LIST}" @nobody_knows_me ${free[2]}`);
      expect(out).toContain('Scout does not know who @nobody_knows_me is');
      expect(out).toContain(verb === 'add' ? 'Nothing was added.' : 'Nothing was checked.');
      expect(posted(requests, /./)).toEqual([]);
    }
  });
});

describe('words after the list', () => {
  it('a name of several words typed without quotes before ids is said to need quotes; nothing is made or sent', async () => {
    const { out, requests } = await sent(`list add Typed Creators ${free[3]}`);
    expect(out).toContain(
      `There is no list "Typed". A list name of several words needs quotes when creator ids follow it: /scout list add "${LIST}" ${free[3]}.`,
    );
    expect(out).not.toContain('Create');
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/crm/lists']);
    const check = await sent(`list check typed creat ${free[3]}`);
    expect(check.out).toContain(`/scout list check "${LIST}" ${free[3]}`);
    expect(posted(check.requests, /./)).toEqual([]);
  });

  it('words that are no creator id are named and never sent, to a list that exists or a new one', async () => {
    const known = await sent(`list add "${LIST}" ${free[3]} Skincare Launch`);
    expect(known.out).toContain('Not creator ids: "Skincare", "Launch".');
    expect(known.out).toContain('Nothing was added.');
    expect(posted(known.requests, /./)).toEqual([]);
    const fresh = await sent(`list add Brand New Things ${free[3]}`);
    expect(fresh.out).toContain('Not creator ids: "New", "Things".');
    expect(fresh.out).toContain(`/scout list add "Brand New Things" ${free[3]}`);
    expect(fresh.out).not.toContain('Create');
    expect(posted(fresh.requests, /./)).toEqual([]);
  });
});

describe('around the lists', () => {
  it('a page past the end says how many pages there are and offers the last, with no pager', async () => {
    const out = await h.type(`list "${LIST}" page:4`);
    expect(out).toMatch(/Page 4 is past the end: \d+ contacts fill 1 page\./);
    expect(out).toContain('[1] Show page 1');
    expect(out).not.toMatch(/Page 4 of|Previous/);
    const last = await h.type('1');
    expect(last).toContain(`${LIST}, contacts 1–`);
  });

  it('a name that reads as an option is quoted in the lines people copy', async () => {
    await h.app.service.crm.createList({ name: 'status:negotiating' });
    const empty = await h.type('list "status:negotiating"');
    expect(empty).toContain('Add creators with /scout list add "status:negotiating" <creator ids>.');
    const unknown = await h.type(`list add Nowhere ${free[3]}`);
    expect(unknown).toContain('"status:negotiating"');
  });

  it('says "1 contact" of a list of one', async () => {
    await h.app.service.crm.createList({ name: 'Just One' });
    const one = (await h.app.service.crm.listLists()).data.lists.find((list) => list.name === 'Just One');
    await h.app.service.crm.addCreators({ listId: one?.id as string, userIds: [free[3] as string] });
    const out = await h.type('lists');
    expect(out).toMatch(/ Just One — 1 contact\n/);
  });
});
