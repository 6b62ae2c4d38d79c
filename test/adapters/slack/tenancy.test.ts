/**
 * Single-team mode over real Bolt in HTTP mode: the bot token's workspace, learnt from auth.test at start, is
 * the only one served. Anyone else (another workspace, a person of another organisation in a Slack Connect
 * channel) is refused before a modal opens, a Slack API call is made or a service request is sent. What Slack
 * says of a person is kept only when it said something, and answers go only to Slack's own response_urls.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isResponseUrl } from '../../../src/adapters/slack/deliver.js';
import { createSlackAdapter, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { SECRET_MODAL } from '../../../src/adapters/slack/modals.js';
import { TYPE_PREFIX, VALUE_MODAL } from '../../../src/adapters/slack/value-modal.js';
import { createLogger } from '../../../src/core/logger.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import {
  blockActionPayload,
  type ResponsePost,
  slashCommandBody,
  startFakeSlack,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import {
  type Block,
  botConfig,
  buttonIds,
  sendEvent,
  sendForm,
  sendPayload,
  startWorld,
  type World,
  waitUntil,
} from './helpers.js';

const FOREIGN = 'TFOREIGN01';

let world: World;
let adapter: SlackAdapter;
const extra: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  world = await startWorld();
  adapter = createSlackAdapter({
    config: botConfig(world.slack),
    chat: world.app.chat,
    logger: createLogger({ level: 'silent' }),
  });
  await adapter.start();
});

afterEach(async () => {
  for (const part of extra.splice(0).reverse()) await part.stop();
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

async function responseTo(id: string): Promise<ResponsePost> {
  return world.slack.waitFor(() => world.slack.responses.find((r) => r.id === id));
}

/** Every Slack call and service request made from now on, read once the given answer is in. */
function watch() {
  const calls = world.slack.calls.length;
  const requests = world.sandbox.requests().length;
  return {
    slackCalls: () => world.slack.calls.slice(calls).map((c) => c.method),
    serviceRequests: () => world.sandbox.requests().length - requests,
  };
}

/** `/scout <text>` by `userId` in the served workspace: the answer at the response_url named `id`. */
async function slash(id: string, text: string, userId = 'U0001'): Promise<ResponsePost> {
  await sendForm(adapter.port, slashCommandBody({ text, responseUrl: world.slack.responseUrl(id), userId }));
  return responseTo(id);
}

const expectOutside = (post: ResponsePost) => {
  expect(post.body.response_type).toBe('ephemeral');
  expect(post.body.replace_original).toBe(false);
  expect(String(post.body.text)).toContain(OUTSIDE_MESSAGE);
};

describe('single-team Slack: the bot token’s workspace only', () => {
  it('learns the workspace from one auth.test at start; Bolt makes none of its own', () => {
    expect(world.slack.calls.filter((c) => c.method === 'auth.test')).toHaveLength(1);
    expect(world.app.tenants.isServed({ platform: 'slack', workspaceId: 'T0001' })).toBe(true);
    expect(world.app.tenants.isServed({ platform: 'slack', workspaceId: FOREIGN })).toBe(false);
  });

  it('refuses a command from another workspace, and sends nothing anywhere', async () => {
    const seen = watch();
    const form = slashCommandBody({
      text: 'creators niche:yoga',
      responseUrl: world.slack.responseUrl('foreign-command'),
      teamId: FOREIGN,
    });
    expect((await sendForm(adapter.port, form)).status).toBe(200);
    expectOutside(await responseTo('foreign-command'));
    expect(seen.serviceRequests()).toBe(0);
    expect(seen.slackCalls()).toEqual([]);
  });

  it('refuses a press by a person of another organisation in a shared channel; the team’s own press works', async () => {
    await sendForm(
      adapter.port,
      slashCommandBody({
        text: 'creators followers:10k-100k niche:yoga',
        responseUrl: world.slack.responseUrl('cards'),
      }),
    );
    const cards = await responseTo('cards');
    const [next] = buttonIds((cards.body.blocks ?? []) as Block[], 'Next');
    expect(next).toBeDefined();

    const seen = watch();
    const press = blockActionPayload({
      actionId: next as string,
      responseUrl: world.slack.responseUrl('foreign-press'),
      userId: 'UOUTSIDER',
      userTeamId: FOREIGN,
    });
    expect((await sendPayload(adapter.port, press)).status).toBe(200);
    expectOutside(await responseTo('foreign-press'));
    expect(seen.serviceRequests()).toBe(0);
    expect(seen.slackCalls()).toEqual([]);

    await sendPayload(
      adapter.port,
      blockActionPayload({ actionId: next as string, responseUrl: world.slack.responseUrl('own-press') }),
    );
    const page = await responseTo('own-press');
    expect(page.body.replace_original).toBe(true);
    expect(JSON.stringify(page.body.blocks)).toContain('Page 2');
  });

  it('opens no modal for an outsider: not the search form, not the key form, not the name form', async () => {
    const seen = watch();
    for (const [id, text] of [
      ['modal-search', 'creators'],
      ['modal-key', 'connect key'],
    ] as const) {
      const form = slashCommandBody({ text, responseUrl: world.slack.responseUrl(id), teamId: FOREIGN });
      await sendForm(adapter.port, form);
      expectOutside(await responseTo(id));
    }
    await sendPayload(
      adapter.port,
      blockActionPayload({
        actionId: `${TYPE_PREFIX}creators.add:abc`,
        responseUrl: world.slack.responseUrl('modal-name'),
        userTeamId: FOREIGN,
      }),
    );
    expectOutside(await responseTo('modal-name'));
    expect(seen.slackCalls()).toEqual([]);
    expect(seen.serviceRequests()).toBe(0);
  });

  it('shows an outsider a Home that names nothing of the team, and asks the service nothing', async () => {
    const seen = watch();
    await sendEvent(adapter.port, FOREIGN, {
      type: 'app_home_opened',
      user: 'UOUTSIDER',
      channel: 'D9',
      tab: 'home',
    });
    const publish = await world.slack.waitFor(() =>
      world.slack.calls.find((c) => c.method === 'views.publish' && c.args.user_id === 'UOUTSIDER'),
    );
    const view = JSON.stringify(publish.args.view);
    expect(view).toContain(OUTSIDE_MESSAGE);
    expect(view).not.toContain('balance');
    expect(view).not.toContain('subscriptions');
    expect(seen.serviceRequests()).toBe(0);
  });

  it('opens no key form in single-team mode: the deployment’s key is the team’s, and members are told so', async () => {
    world.slack.admins.add('UADMIN');
    const seen = watch();
    const member = await slash('member-key', 'connect key', 'UMEMBER');
    expect(String(member.body.text)).toContain('needs a Slack workspace or org admin');
    const admin = await slash('admin-key', 'connect key', 'UADMIN');
    expect(String(admin.body.text)).toContain('serves one team');
    expect(seen.slackCalls().filter((m) => m !== 'users.info')).toEqual([]);
    expect(seen.serviceRequests()).toBe(0);
  });

  it('refuses a key form submitted from outside, without a service call', async () => {
    const seen = watch();
    const submission = viewSubmissionPayload({
      callbackId: SECRET_MODAL,
      privateMetadata: JSON.stringify({
        id: 'scout.secret:AAAAAAAAAAAAAAAA',
        channelId: 'C0001',
        responseUrl: world.slack.responseUrl('outside-key'),
      }),
      values: { 'secret.key': { value: { type: 'plain_text_input', value: 'typed-by-an-outsider-0001' } } },
      teamId: FOREIGN,
      userId: 'UOUTSIDER',
    });
    expect((await sendPayload(adapter.port, submission)).status).toBe(200);
    expectOutside(await responseTo('outside-key'));
    expect(seen.serviceRequests()).toBe(0);
    expect(seen.slackCalls()).toEqual([]);
  });
});

describe('single-team Slack: asking Slack about people, and answering only Slack', () => {
  it('keeps no failed users.info: an admin it failed for is an admin at the next command', async () => {
    world.slack.admins.add('UADMIN4');
    world.slack.failNext('users.info');
    const failed = await slash('failed-lookup', 'connect key', 'UADMIN4');
    expect(String(failed.body.text)).toContain('needs a Slack workspace or org admin');
    const asked = await slash('asked-again', 'connect key', 'UADMIN4');
    expect(String(asked.body.text)).toContain('serves one team');
  });

  it('refuses a name form submitted from outside before asking Slack or the service anything', async () => {
    const seen = watch();
    const submission = viewSubmissionPayload({
      callbackId: VALUE_MODAL,
      privateMetadata: JSON.stringify({
        token: 'creators.add:abc',
        channelId: 'C0001',
        responseUrl: world.slack.responseUrl('outside-name'),
      }),
      values: { value: { value: { type: 'plain_text_input', value: 'Alpha' } } },
      teamId: FOREIGN,
      userId: 'UOUTSIDER',
    });
    expect((await sendPayload(adapter.port, submission)).status).toBe(200);
    expectOutside(await responseTo('outside-name'));
    expect(seen.slackCalls()).toEqual([]);
    expect(seen.serviceRequests()).toBe(0);
  });

  it('sends nothing to a response_url in a form that is not Slack’s, and answers through the Web API', async () => {
    const hits: string[] = [];
    const elsewhere = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    extra.push({ stop: () => new Promise<void>((resolve) => elsewhere.close(() => resolve())) });
    const foreignUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/hook`;
    const before = world.slack.calls.length;
    const submissions = [
      viewSubmissionPayload({
        callbackId: VALUE_MODAL,
        privateMetadata: JSON.stringify({
          token: 'creators.add:abc',
          channelId: 'C0NAME',
          responseUrl: foreignUrl,
        }),
        values: { value: { value: { type: 'plain_text_input', value: 'Alpha' } } },
      }),
      viewSubmissionPayload({
        callbackId: SECRET_MODAL,
        privateMetadata: JSON.stringify({
          id: 'scout.secret:AAAAAAAAAAAAAAAA',
          channelId: 'C0KEY',
          responseUrl: foreignUrl,
        }),
        values: { 'secret.key': { value: { type: 'plain_text_input', value: 'typed-key-0001' } } },
      }),
    ];
    for (const submission of submissions) await sendPayload(adapter.port, submission);
    const ephemeral = (channel: string) =>
      world.slack.calls
        .slice(before)
        .find(
          (c) => c.method === 'chat.postEphemeral' && c.args.channel === channel && c.args.user === 'U0001',
        );
    await world.slack.waitFor(() => ephemeral('C0NAME') !== undefined && ephemeral('C0KEY') !== undefined);
    expect(hits).toEqual([]);
  });

  it('takes as response_urls only https URLs of Slack’s domains, or of the configured API base', () => {
    const api = 'http://127.0.0.1:4000/api/';
    for (const url of [
      'https://hooks.slack.com/actions/T1/1/abc',
      'https://hooks.slack-gov.com/commands/T1/1/abc',
      'http://127.0.0.1:4000/response/1',
    ]) {
      expect(isResponseUrl(url, api)).toBe(true);
    }
    for (const url of [
      'http://hooks.slack.com/actions/T1/1/abc',
      'https://hooks.slack.com.evil.example/x',
      'https://evilslack.com/x',
      'https://user:pw@hooks.slack.com/x',
      'https://hooks.slack.com:8443/x',
      'http://127.0.0.1:4001/response/1',
      'not a url',
    ]) {
      expect(isResponseUrl(url, api)).toBe(false);
    }
    expect(isResponseUrl('http://127.0.0.1:4000/response/1', null)).toBe(false);
  });
});

describe('single-team Slack: start', () => {
  it('fails with a clear error when Slack does not confirm the bot token, and serves nobody', async () => {
    const slack = await startFakeSlack({ teamId: 'T0BAD' });
    extra.push(slack);
    slack.revoke('xoxb-revoked');
    const failing = createSlackAdapter({
      config: botConfig(slack, 'xoxb-revoked'),
      chat: world.app.chat,
      logger: createLogger({ level: 'silent' }),
    });
    extra.push(failing);
    await expect(failing.start()).rejects.toThrow(/SLACK_BOT_TOKEN \(auth\.test: invalid_auth\)/);
    expect(failing.port).toBeNull();
    expect(world.app.tenants.isServed({ platform: 'slack', workspaceId: 'T0BAD' })).toBe(false);
  });

  it('stops the workspace’s notifications and digests when the app is uninstalled', async () => {
    const own = await startWorld();
    extra.push(own);
    const slack = await startFakeSlack({ teamId: 'T0LEAVE' });
    extra.push(slack);
    const leaving = createSlackAdapter({
      config: botConfig(slack),
      chat: own.app.chat,
      logger: createLogger({ level: 'silent' }),
    });
    extra.push(leaving);
    await leaving.start();
    const actor = { platform: 'slack' as const, workspaceId: 'T0LEAVE', userId: 'U1', isAdmin: true };
    await own.app.dispatcher.text({ actor, channelId: 'C1', text: 'notify' });
    expect(await own.app.store.subscriptions.active()).toHaveLength(1);
    expect((await sendEvent(leaving.port, 'T0LEAVE', { type: 'app_uninstalled' })).status).toBe(200);
    await waitUntil(async () => (await own.app.store.subscriptions.active()).length === 0);
    expect(own.app.tenants.isServed({ platform: 'slack', workspaceId: 'T0LEAVE' })).toBe(false);
  });
});
