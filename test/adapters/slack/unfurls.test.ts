/**
 * Link unfurls over real Bolt in HTTP mode against the fake Slack: a creator profile link pasted in the served
 * workspace unfurls into the cached creator card without any service request, or into a small card whose
 * Look up button searches the service for free: it lists the hits as matches, and only a match's Details button
 * buys a profile, through the dispatcher (ledger, claims).
 * Links that name no profile, and links from a workspace Scout does not serve, are not unfurled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { LOOK_UP_LABEL } from '../../../src/commands/creators/links.js';
import { utcMonth } from '../../../src/core/credits.js';
import type { CreatorProfile } from '../../../src/core/service/index.js';
import { profileUrl } from '../../../src/core/ui/index.js';
import { type ApiCall, blockActionPayload, type ResponsePost } from '../../fakes/slack-api.js';
import { unbooked } from '../../helpers/unbooked.js';
import {
  type Block,
  buttonIds,
  responseTo,
  sendEvent,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
} from './helpers.js';

const TEAM = 'T0001';
const FOREIGN = 'TFOREIGN01';
const ana = { platform: 'slack' as const, workspaceId: TEAM, userId: 'U0001' };

let world: World;
let adapter: SlackAdapter;
/** A creator in Scout's profile cache, and one that is not (a handle search finds it first). */
let cached: CreatorProfile;
let uncached: CreatorProfile;

const urlOf = (profile: CreatorProfile) => profileUrl(profile.source, profile.handle) as string;

/** Two TikTok creators bought directly through the service client (not through Scout, so not cached). */
async function pickCreators(): Promise<[CreatorProfile, CreatorProfile]> {
  const { items } = (await unbooked(world.app.service).creators.list({ perPage: 30, source: 'tiktok' })).data;
  const found: CreatorProfile[] = [];
  for (const profile of items) {
    if (profileUrl(profile.source, profile.handle) === null) continue;
    const hits = await world.app.service.creators.search({
      username: profile.handle as string,
      source: 'tiktok',
      perPage: 25,
    });
    if (hits.data.items[0] === profile.user_id) found.push(profile);
    if (found.length === 2) break;
  }
  const [first, second] = found;
  if (first === undefined || second === undefined)
    throw new Error('The sandbox has too few TikTok creators.');
  return [first, second];
}

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
  [cached, uncached] = await pickCreators();
  const access = await world.app.tenants.access({ platform: 'slack', workspaceId: TEAM });
  if (access.status !== 'ok') throw new Error('The test workspace has no service account.');
  await world.app.store.profiles.put(
    access.account.id,
    [{ id: cached.user_id, profile: cached }],
    world.app.clock.now(),
  );
});

afterAll(async () => {
  await adapter?.stop();
  await world?.stop();
});

/** Counts from now on: Slack calls, and service requests. */
function watch() {
  const calls = world.slack.calls.length;
  const requests = world.sandbox.requests().length;
  return {
    unfurls: (): ApiCall[] => world.slack.calls.slice(calls).filter((c) => c.method === 'chat.unfurl'),
    serviceRequests: () => world.sandbox.requests().slice(requests),
  };
}

let ts = 1_700_000_100;

/** A signed link_shared event for `urls`, posted by Ana in C0001 of `teamId`. */
function share(urls: readonly string[], teamId = TEAM, extra: Record<string, unknown> = {}) {
  ts += 1;
  return sendEvent(adapter.port, teamId, {
    type: 'link_shared',
    channel: 'C0001',
    is_bot_user_member: true,
    user: 'U0001',
    message_ts: `${ts}.000100`,
    links: urls.map((url) => ({ url, domain: new URL(url).hostname.replace(/^www\./, '') })),
    source: 'conversations_history',
    unfurl_id: `C0001.${ts}.000100.${Math.random().toString(36).slice(2)}`,
    ...extra,
  });
}

/** Waits a little for anything the listener might still do, then reads what it did. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

const unfurlOf = (call: ApiCall, url: string): Block[] => {
  const unfurls = call.args.unfurls as Record<string, { blocks: Block[] }>;
  return unfurls[url]?.blocks ?? [];
};

const spent = () => world.app.store.ledger.spent(ana, utcMonth(world.app.clock.now()));

/** Presses the button `actionId` of an unfurl in C0001; the answer at the response_url `id`. */
async function press(id: string, actionId: string): Promise<ResponsePost> {
  const payload = blockActionPayload({ actionId, responseUrl: world.slack.responseUrl(id) });
  // A press inside an app unfurl comes from a message attachment of the person's message.
  payload.container = {
    type: 'message_attachment',
    message_ts: `${ts}.000100`,
    attachment_id: 1,
    channel_id: 'C0001',
    is_ephemeral: false,
    is_app_unfurl: true,
  };
  await sendPayload(adapter.port, payload);
  return responseTo(world.slack, id);
}

describe('link unfurls', () => {
  it('unfurls a cached creator’s profile link into the creator card, with no service request', async () => {
    const seen = watch();
    const url = urlOf(cached);
    expect((await share([url])).status).toBe(200);
    const call = await world.slack.waitFor(() => seen.unfurls()[0]);
    expect(call.args.channel).toBe('C0001');
    expect(call.args.ts).toBe(`${ts}.000100`);
    const blocks = JSON.stringify(unfurlOf(call, url));
    expect(blocks).toContain(`@${cached.handle}`);
    expect(blocks).toContain('Add to list');
    expect(blocks).not.toContain(LOOK_UP_LABEL);
    expect(seen.serviceRequests()).toEqual([]);
  });

  it('unfurls an uncached link into a Look up card, buying nothing', async () => {
    const seen = watch();
    const before = await spent();
    const url = urlOf(uncached);
    await share([url]);
    const call = await world.slack.waitFor(() => seen.unfurls()[0]);
    const blocks = unfurlOf(call, url);
    expect(buttonIds(blocks, LOOK_UP_LABEL)).toHaveLength(1);
    expect(JSON.stringify(blocks)).toContain(`@${uncached.handle}`);
    expect(seen.serviceRequests()).toEqual([]);
    expect(await spent()).toBe(before);
  });

  it('searches for free on a press of Look up; only a match’s Details buys its profile, once', async () => {
    const seen = watch();
    const url = urlOf(uncached);
    await share([url]);
    const call = await world.slack.waitFor(() => seen.unfurls()[0]);
    const [lookUp] = buttonIds(unfurlOf(call, url), LOOK_UP_LABEL);
    expect(lookUp).toBeDefined();
    const before = await spent();

    const answer = await press('lookup-1', lookUp as string);
    const gets = () => seen.serviceRequests().filter((r) => r.path === '/api/v2/creators/get');
    const searches = seen.serviceRequests().filter((r) => r.path === '/api/v2/creators/search');
    expect(searches.map((r) => r.query)).toEqual([
      { username: uncached.handle, source: 'tiktok', perPage: '25' },
    ]);
    // The search's hits name no handle: none is bought, not even the first.
    expect(gets()).toEqual([]);
    expect(await spent()).toBe(before);
    // An answer to the presser alone: the unfurl belongs to the person's message, which Scout cannot replace.
    expect(answer.body.response_type).toBe('ephemeral');
    expect(answer.body.replace_original).toBe(false);
    // Slack's text breaks ids with zero-width spaces so they are not turned into links.
    const shown = JSON.stringify(answer.body.blocks).replace(/\u200b/g, '');
    expect(shown).toContain(`No creator @${uncached.handle} on TikTok is confirmed yet. Nothing was spent.`);
    expect(shown).toContain(`*Match 1* · creator id \`${uncached.user_id}\``);
    const [details] = buttonIds(answer.body.blocks as Block[], 'Details · 1 credit');
    expect(details).toBeDefined();

    // Details of the match buys it; a double click: the same answer again, nothing more bought or charged.
    const payload = (id: string) =>
      blockActionPayload({ actionId: details as string, responseUrl: world.slack.responseUrl(id) });
    await sendPayload(adapter.port, payload('details-1'));
    const bought = await responseTo(world.slack, 'details-1');
    expect(gets().map((r) => r.body)).toEqual([{ userIds: [uncached.user_id] }]);
    expect((await spent()) - before).toBe(1);
    expect(JSON.stringify(bought.body.blocks)).toContain(`@${uncached.handle}`);
    await sendPayload(adapter.port, payload('details-2'));
    const again = await responseTo(world.slack, 'details-2');
    expect(JSON.stringify(again.body.blocks)).toContain(`@${uncached.handle}`);
    expect(gets()).toHaveLength(1);
    expect((await spent()) - before).toBe(1);

    // Bought now: the link unfurls into the card, for free.
    const later = watch();
    await share([url]);
    const card = await world.slack.waitFor(() => later.unfurls()[0]);
    expect(JSON.stringify(unfurlOf(card, url))).not.toContain(LOOK_UP_LABEL);
    expect(later.serviceRequests()).toEqual([]);
  });

  it('buys nothing when no hit of the handle search is the linked handle, and lists them as free matches', async () => {
    // A handle no TikTok creator has, yet part of several creators' handles (the search matches substrings).
    const partial = (uncached.handle as string).slice(0, -1);
    const { items } = (
      await unbooked(world.app.service).creators.list({ username: partial, source: 'tiktok', perPage: 25 })
    ).data;
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((p) => (p.handle as string).toLowerCase())).not.toContain(partial.toLowerCase());

    const seen = watch();
    const url = `https://www.tiktok.com/@${partial}`;
    await share([url]);
    const call = await world.slack.waitFor(() => seen.unfurls()[0]);
    const [lookUp] = buttonIds(unfurlOf(call, url), LOOK_UP_LABEL);
    const before = await spent();
    const answer = await press('lookup-partial', lookUp as string);
    const shown = JSON.stringify(answer.body.blocks);
    expect(shown).toContain(`No creator @${partial} on TikTok`);
    expect(shown).toContain('Nothing was spent.');
    expect(shown).toMatch(/\*Match \d+\*/);
    expect(buttonIds(answer.body.blocks as Block[], 'Details · 1 credit').length).toBeGreaterThan(0);
    expect(seen.serviceRequests().filter((r) => r.path === '/api/v2/creators/get')).toEqual([]);
    expect(await spent()).toBe(before);
  });

  it('does not unfurl links that name no profile, however odd, beside one that does', async () => {
    const seen = watch();
    const profile = urlOf(cached);
    const odd = [
      'https://www.tiktok.com/@someone/video/7300000000000000000',
      'https://www.instagram.com/p/Cabc123/',
      'https://www.instagram.com/explore/',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://x.com/search?q=%40someone',
      'https://www.linkedin.com/company/acme',
      `https://www.tiktok.com/@${'a'.repeat(3000)}`,
      'https://www.tiktok.com/@%E0%A4%A',
      'https://www.tiktok.com/@some%20one',
      'https://www.tiktok.com.evil.example/@someone',
      'https://user:pass@www.tiktok.com/@someone',
      'javascript:alert(1)//www.tiktok.com/@someone',
    ];
    expect((await share([...odd, profile])).status).toBe(200);
    const call = await world.slack.waitFor(() => seen.unfurls()[0]);
    expect(Object.keys(call.args.unfurls as object)).toEqual([profile]);
    expect(seen.serviceRequests()).toEqual([]);
  });

  it('does not unfurl a message whose links all name no profile', async () => {
    const seen = watch();
    await share(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.instagram.com/reels/']);
    // Then a profile link, in a later message: its unfurl is the only one.
    await share([urlOf(cached)]);
    await world.slack.waitFor(() => seen.unfurls()[0]);
    await settle();
    expect(seen.unfurls()).toHaveLength(1);
    expect(seen.unfurls()[0]?.args.ts).toBe(`${ts}.000100`);
  });

  it('unfurls a profile link with a query string, keyed by the URL as shared', async () => {
    const seen = watch();
    const url = `${urlOf(cached)}?lang=en&utm_source=${encodeURIComponent('ünïcode')}#top`;
    await share([url]);
    const call = await world.slack.waitFor(() => seen.unfurls()[0]);
    expect(Object.keys(call.args.unfurls as object)).toEqual([url]);
    expect(seen.serviceRequests()).toEqual([]);
  });

  it('does not unfurl for a workspace Scout does not serve', async () => {
    const seen = watch();
    expect((await share([urlOf(cached), urlOf(uncached)], FOREIGN)).status).toBe(200);
    const foreignTs = `${ts}.000100`;
    await share([urlOf(cached)]);
    await world.slack.waitFor(() => seen.unfurls()[0]);
    await settle();
    expect(seen.unfurls().map((call) => call.args.ts)).toEqual([`${ts}.000100`]);
    expect(seen.unfurls()[0]?.args.ts).not.toBe(foreignTs);
    expect(seen.serviceRequests()).toEqual([]);
  });
});
