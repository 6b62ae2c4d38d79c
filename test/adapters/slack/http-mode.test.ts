/** The real Bolt app in HTTP mode against a fake Slack Web API, with requests signed with the signing secret. */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { FORM_MODAL } from '../../../src/adapters/slack/modals.js';
import { createLogger } from '../../../src/core/logger.js';
import { notice, reply } from '../../../src/core/ui/index.js';
import {
  blockActionPayload,
  type ResponsePost,
  signedHeaders,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  cardTitles,
  SECRET,
  sendEvent,
  signedPost,
  startWorld,
  type World,
} from './helpers.js';

let world: World;
let adapter: SlackAdapter;

beforeAll(async () => {
  world = await startWorld();
  adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-test',
      oauth: null,
      signingSecret: SECRET,
      appToken: null,
      apiUrl: world.slack.apiUrl,
      port: 0,
    },
    chat: world.app.chat,
    logger: createLogger({ level: 'silent' }),
    postIntervalMs: 10,
  });
  await adapter.start();
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

const events = () => `http://127.0.0.1:${adapter.port}/slack/events`;

async function send(form: Record<string, string>, options: { timestamp?: number; secret?: string } = {}) {
  return (await signedPost(adapter.port, new URLSearchParams(form).toString(), options)).status;
}

const press = (payload: Record<string, unknown>) => send({ payload: JSON.stringify(payload) });

async function responseTo(id: string, count = 1): Promise<ResponsePost[]> {
  return world.slack.waitFor(() => {
    const posts = world.slack.responses.filter((r) => r.id === id);
    return posts.length >= count ? posts : null;
  });
}

const blocksOf = (post: ResponsePost | undefined) => (post?.body.blocks ?? []) as Block[];

const handles = (blocks: readonly Block[]) => cardTitles(blocks);

describe('Slack HTTP mode', () => {
  it('answers /healthz once started', async () => {
    const res = await request(`http://127.0.0.1:${adapter.port}/healthz`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ ok: true });
  });

  it('posts creator cards for a slash command, then pages in place', async () => {
    const url = world.slack.responseUrl('search');
    const status = await send(
      slashCommandBody({ text: 'creators followers:10k-100k niche:yoga', responseUrl: url }),
    );
    expect(status).toBe(200);
    const [first] = await responseTo('search');
    expect(first?.body.response_type).toBe('in_channel');
    expect(typeof first?.body.text).toBe('string');
    const blocks = blocksOf(first);
    const pageOne = handles(blocks);
    expect(pageOne).toHaveLength(5);
    expect(buttonIds(blocks, 'Add to list')).toHaveLength(5);
    expect(buttonIds(blocks, 'Details')).toHaveLength(5);
    const [next] = buttonIds(blocks, 'Next');
    expect(next).toBeDefined();

    const pageUrl = world.slack.responseUrl('page');
    expect(await press(blockActionPayload({ actionId: next as string, responseUrl: pageUrl }))).toBe(200);
    const [second] = await responseTo('page');
    expect(second?.body.replace_original).toBe(true);
    const pageTwo = handles(blocksOf(second));
    expect(pageTwo).toHaveLength(5);
    expect(pageTwo).not.toEqual(pageOne);
    expect(JSON.stringify(blocksOf(second))).toContain('Page 2');
  });

  it('adds a creator to a list through the picker and confirms ephemerally', async () => {
    const created = await world.app.service.crm.createList({ name: 'Spring launch' });
    const listId = created.data.id;
    const url = world.slack.responseUrl('cards');
    await send(slashCommandBody({ text: 'creators category:Fitness', responseUrl: url }));
    const [cards] = await responseTo('cards');
    const [add] = buttonIds(blocksOf(cards), 'Add to list');

    const pickUrl = world.slack.responseUrl('pick');
    await press(blockActionPayload({ actionId: add as string, responseUrl: pickUrl }));
    const [picker] = await responseTo('pick');
    expect(picker?.body.response_type).toBe('ephemeral');
    const select = blocksOf(picker)
      .filter((b) => b.type === 'actions')
      .flatMap(
        (b) => b.elements as Array<{ type: string; action_id: string; options: Array<{ value: string }> }>,
      )
      .find((e) => e.type === 'static_select');
    expect(select?.options.map((o) => o.value)).toContain(listId);

    const doneUrl = world.slack.responseUrl('added');
    await press(
      blockActionPayload({
        actionId: select?.action_id as string,
        value: listId,
        ephemeral: true,
        responseUrl: doneUrl,
      }),
    );
    const [done] = await responseTo('added');
    expect(done?.body.replace_original).toBe(true);
    expect(String(done?.body.text)).toContain('Spring launch');
    const contacts = await world.app.service.crm.listCreators({ listId });
    expect(contacts.data.items).toHaveLength(1);
  });

  it('opens the search form for a bare /scout creators and runs the search on submission', async () => {
    const before = world.slack.calls.length;
    await send(slashCommandBody({ text: 'creators', responseUrl: world.slack.responseUrl('modal') }));
    const open = await world.slack.waitFor(() =>
      world.slack.calls.slice(before).find((c) => c.method === 'views.open'),
    );
    const view = open.args.view as { callback_id: string; private_metadata: string; blocks: Block[] };
    expect(view.callback_id).toBe(FORM_MODAL);
    expect(view.blocks.map((b) => b.block_id)).toEqual(
      expect.arrayContaining(['mainCategory', 'country', 'source', 'followers', 'emailExists']),
    );

    const status = await press(
      viewSubmissionPayload({
        callbackId: FORM_MODAL,
        privateMetadata: view.private_metadata,
        values: {
          mainCategory: { value: { type: 'static_select', selected_option: { value: 'Fitness' } } },
          followers: { value: { type: 'plain_text_input', value: '>1k' } },
          emailExists: { value: { type: 'static_select', selected_option: null } },
        },
      }),
    );
    expect(status).toBe(200);
    // Answered as the typed command is: through the command's response_url, in the channel.
    const [posted] = await responseTo('modal');
    expect(posted?.body.response_type).toBe('in_channel');
    expect(handles(posted?.body.blocks as Block[]).length).toBeGreaterThan(0);
  });

  it('shows errors in the modal for a number it cannot read, and runs nothing', async () => {
    const body = new URLSearchParams({
      payload: JSON.stringify(
        viewSubmissionPayload({
          callbackId: FORM_MODAL,
          privateMetadata: JSON.stringify({
            family: 'creators',
            command: 'search',
            fixed: {},
            channelId: 'C0001',
          }),
          values: { followers: { value: { type: 'plain_text_input', value: 'lots' } } },
        }),
      ),
    }).toString();
    const res = await request(events(), { method: 'POST', headers: signedHeaders(SECRET, body), body });
    const answer = (await res.body.json()) as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    expect(answer.errors.followers).toContain('lots');
  });

  it('asks to confirm an expensive command with ephemeral buttons; a second click does nothing more', async () => {
    const url = world.slack.responseUrl('costly');
    await send(slashCommandBody({ text: 'creators profiles category:Fitness perPage:30', responseUrl: url }));
    const [ask] = await responseTo('costly');
    expect(ask?.body.response_type).toBe('ephemeral');
    const [confirm] = buttonIds(blocksOf(ask), 'Confirm');
    const before = world.sandbox.requests('slack-test-key-0001').length;
    await press(
      blockActionPayload({
        actionId: confirm as string,
        ephemeral: true,
        responseUrl: world.slack.responseUrl('c1'),
      }),
    );
    await responseTo('c1');
    const afterFirst = world.sandbox.requests('slack-test-key-0001').length;
    expect(afterFirst).toBeGreaterThan(before);
    await press(
      blockActionPayload({
        actionId: confirm as string,
        ephemeral: true,
        responseUrl: world.slack.responseUrl('c2'),
      }),
    );
    const [second] = await responseTo('c2');
    expect(String(second?.body.text)).toContain('Already');
    expect(world.sandbox.requests('slack-test-key-0001')).toHaveLength(afterFirst);
  });

  it('publishes the App Home with spend, balance, subscriptions and how to start', async () => {
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0001',
      api_app_id: 'A0001',
      event: { type: 'app_home_opened', user: 'U0001', channel: 'D1', tab: 'home', event_ts: '1' },
      event_id: 'Ev1',
      event_time: 1,
      authorizations: [{ team_id: 'T0001', user_id: 'UBOT', is_bot: true }],
    });
    const res = await request(events(), {
      method: 'POST',
      headers: signedHeaders(SECRET, body, { contentType: 'application/json' }),
      body,
    });
    await res.body.text();
    expect(res.statusCode).toBe(200);
    const publish = await world.slack.waitFor(() =>
      world.slack.calls.find((c) => c.method === 'views.publish'),
    );
    expect(publish.args.user_id).toBe('U0001');
    const view = JSON.stringify(publish.args.view);
    expect(view).toContain('You today');
    expect(view).toContain('Team balance');
    expect(view).toContain('No channel subscriptions yet: /scout notify or /scout digest in a channel.');
    expect(view).toContain('Getting started');
    // The core's guide, its command lines as code.
    expect(view).toContain(
      '`/scout creators` opens a search form; `/scout creators niche:yoga followers:10k-100k` searches at once.',
    );
    expect(view).toContain('`/scout credits` shows spend in detail; `/scout help` lists every command.');
  });

  it('lists the workspace’s reply notifications and digests on the App Home', async () => {
    await send(
      slashCommandBody({ text: 'notify', responseUrl: world.slack.responseUrl('sub'), channelId: 'C0SUBS' }),
    );
    await responseTo('sub');
    const digest = 'digest 9:00 europe/paris categories:Food top:3';
    await send(
      slashCommandBody({ text: digest, responseUrl: world.slack.responseUrl('dig'), channelId: 'C0DIGEST' }),
    );
    await responseTo('dig');
    const published = world.slack.calls.filter((c) => c.method === 'views.publish').length;
    const home = { type: 'app_home_opened', user: 'U0001', channel: 'D1', tab: 'home' };
    expect((await sendEvent(adapter.port, 'T0001', home)).status).toBe(200);
    const publish = await world.slack.waitFor(
      () => world.slack.calls.filter((c) => c.method === 'views.publish')[published],
    );
    const view = JSON.stringify(publish.args.view);
    expect(view).toContain('<#C0SUBS> · *reply notifications* · every project');
    expect(view).toContain('<#C0DIGEST> · *viral digest* · daily at 09:00 Europe/Paris, top 3');
    expect(view).not.toContain('No channel subscriptions yet');
  });

  it('posts for background jobs through the Web API and threads later posts', async () => {
    const channel = { platform: 'slack' as const, workspaceId: 'T0001', channelId: 'C0042' };
    const first = await adapter.outbound.post(channel, reply([notice('info', 'Digest <!channel>')]));
    const second = await adapter.outbound.post(channel, reply([notice('success', 'A reply came in')]), {
      inThreadOf: first,
    });
    const posts = world.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === 'C0042',
    );
    expect(posts).toHaveLength(2);
    expect(posts[0]?.args.thread_ts).toBeUndefined();
    expect(posts[1]?.args.thread_ts).toBe(first.messageId);
    expect(String(posts[0]?.args.text)).not.toContain('<!channel>');
    expect(second.threadId).toBe(first.messageId);
  });

  it('rejects a bad or stale signature with 401 and does nothing', async () => {
    const calls = world.slack.calls.length;
    const requests = world.sandbox.requests('slack-test-key-0001').length;
    const form = slashCommandBody({
      text: 'creators niche:yoga',
      responseUrl: world.slack.responseUrl('bad'),
    });
    expect(await send(form, { secret: 'wrong-secret' })).toBe(401);
    expect(await send(form, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 })).toBe(401);
    // A good request afterwards is answered: only then is everything the bad ones might have done visible.
    await send(slashCommandBody({ text: 'help', responseUrl: world.slack.responseUrl('after') }));
    await responseTo('after');
    expect(world.slack.responses.filter((r) => r.id === 'bad')).toHaveLength(0);
    expect(world.slack.calls.slice(calls).filter((c) => c.method !== 'users.info')).toHaveLength(0);
    expect(world.sandbox.requests('slack-test-key-0001')).toHaveLength(requests);
  });
});
